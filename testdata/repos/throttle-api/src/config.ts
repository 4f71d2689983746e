export interface ServerConfig {
  port: number;
  databaseUrl: string;
  corsOrigins: string[];
  trustProxy: boolean;
  db: {
    maxConnections: number;
    idleTimeoutMs: number;
  };
}

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) {
    return fallback;
  }
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new Error(`${name} must be a non-negative integer (got "${raw}")`);
  }
  return parsed;
}

function listFromEnv(name: string, fallback: string[]): string[] {
  const raw = process.env[name];
  return raw ? raw.split(',').map((s) => s.trim()).filter(Boolean) : fallback;
}

export const config: ServerConfig = {
  port: intFromEnv('PORT', 8080),
  databaseUrl: process.env.DATABASE_URL ?? 'postgres://localhost:5432/storefront',
  corsOrigins: listFromEnv('CORS_ORIGINS', ['http://localhost:3000']),
  trustProxy: process.env.TRUST_PROXY === 'true',
  db: {
    maxConnections: intFromEnv('DB_MAX_CONNECTIONS', 10),
    idleTimeoutMs: intFromEnv('DB_IDLE_TIMEOUT_MS', 30_000),
  },
};
