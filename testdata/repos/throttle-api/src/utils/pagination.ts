export interface PageParams {
  limit: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  limit: number;
  offset: number;
  total: number;
  hasMore: boolean;
}

export const DEFAULT_PAGE_LIMIT = 25;
export const MAX_PAGE_LIMIT = 100;

function toNonNegativeInt(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.trim() === '') {
    return undefined;
  }
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Reads `?limit=&offset=` (or `?page=` with a page size) from a query string object.
 * Out-of-range values are clamped rather than rejected.
 */
export function parsePagination(query: Record<string, unknown>): PageParams {
  const requestedLimit = toNonNegativeInt(query.limit) ?? DEFAULT_PAGE_LIMIT;
  const limit = Math.min(Math.max(requestedLimit, 1), MAX_PAGE_LIMIT);

  const page = toNonNegativeInt(query.page);
  const offset = page !== undefined && page > 0 ? (page - 1) * limit : toNonNegativeInt(query.offset) ?? 0;
  return { limit, offset };
}

export function toPage<T>(items: T[], total: number, params: PageParams): Page<T> {
  return {
    items,
    limit: params.limit,
    offset: params.offset,
    total,
    hasMore: params.offset + items.length < total,
  };
}

export function nextPageLink(basePath: string, page: Page<unknown>): string | null {
  if (!page.hasMore) {
    return null;
  }
  return `${basePath}?limit=${page.limit}&offset=${page.offset + page.limit}`;
}
