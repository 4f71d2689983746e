import type { Request, Response, NextFunction } from 'express';
import type { Middleware } from './index';

export interface ThrottleOptions {
  /** Requests a single client may make per window. */
  requestsPerWindow: number;
  /** Length of the window in milliseconds. */
  windowMs: number;
  /** Derives the client key; defaults to the remote IP address. */
  keyFor?: (req: Request) => string;
  /** Clock, injectable for tests. */
  now?: () => number;
}

export class TokenBucket {
  private tokens: number;
  private lastRefill: number;

  constructor(
    private readonly capacity: number,
    private readonly refillPerMs: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.lastRefill = now;
  }

  private refill(now: number): void {
    const elapsed = now - this.lastRefill;
    if (elapsed > 0) {
      this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.refillPerMs);
      this.lastRefill = now;
    }
  }

  tryTake(now: number): boolean {
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }

  /** Milliseconds until the next token becomes available. */
  msUntilNext(now: number): number {
    this.refill(now);
    return this.tokens >= 1 ? 0 : Math.ceil((1 - this.tokens) / this.refillPerMs);
  }

  isFull(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.capacity;
  }
}

function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

export function throttle(options: ThrottleOptions): Middleware {
  const { requestsPerWindow, windowMs } = options;
  if (requestsPerWindow <= 0 || windowMs <= 0) {
    throw new Error('throttle: requestsPerWindow and windowMs must be positive');
  }
  const keyFor = options.keyFor ?? clientIp;
  const now = options.now ?? Date.now;
  const refillPerMs = requestsPerWindow / windowMs;
  const buckets = new Map<string, TokenBucket>();
  let lastSweep = now();

  return (req: Request, res: Response, next: NextFunction) => {
    const t = now();
    if (t - lastSweep > windowMs) {
      for (const [key, bucket] of buckets) {
        if (bucket.isFull(t)) buckets.delete(key);
      }
      lastSweep = t;
    }

    const key = keyFor(req);
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(requestsPerWindow, refillPerMs, t);
      buckets.set(key, bucket);
    }

    if (bucket.tryTake(t)) {
      return next();
    }
    const retryAfterSeconds = Math.max(1, Math.ceil(bucket.msUntilNext(t) / 1000));
    res.setHeader('Retry-After', String(retryAfterSeconds));
    res.status(429).json({ error: 'Too Many Requests', retryAfterSeconds });
  };
}
