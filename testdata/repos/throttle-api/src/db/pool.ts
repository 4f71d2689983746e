import { Pool, QueryResultRow } from 'pg';
import { config } from '../config';
import { PageParams } from '../utils/pagination';

let pool: Pool | null = null;

export function getPool(): Pool {
  if (pool === null) {
    pool = new Pool({
      connectionString: config.databaseUrl,
      max: config.db.maxConnections,
      idleTimeoutMillis: config.db.idleTimeoutMs,
      connectionTimeoutMillis: 5_000,
    });
    pool.on('error', (err) => console.error('[db] pool error', err));
  }
  return pool;
}

export async function query<T extends QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const result = await getPool().query<T>(sql, params);
  return result.rows;
}

export async function queryOne<T extends QueryResultRow>(sql: string, params: unknown[] = []): Promise<T | null> {
  const rows = await query<T>(sql, params);
  return rows[0] ?? null;
}

/**
 * Runs a SELECT with LIMIT/OFFSET appended and a COUNT(*) over the same query,
 * so callers can build a paginated response.
 */
export async function queryPage<T extends QueryResultRow>(
  sql: string,
  params: unknown[],
  page: PageParams,
): Promise<{ rows: T[]; total: number }> {
  const n = params.length;
  const [rows, count] = await Promise.all([
    query<T>(`${sql} LIMIT $${n + 1} OFFSET $${n + 2}`, [...params, page.limit, page.offset]),
    queryOne<{ count: string }>(`SELECT COUNT(*) AS count FROM (${sql}) AS sub`, params),
  ]);
  return { rows, total: Number(count?.count ?? 0) };
}

export function poolStats(): { total: number; idle: number; waiting: number; max: number } {
  const p = getPool();
  return { total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount, max: config.db.maxConnections };
}

export async function closePool(): Promise<void> {
  if (pool) {
    await pool.end();
    pool = null;
  }
}
