import { randomUUID } from 'crypto';
import type { Request, Response, NextFunction } from 'express';
import type { Middleware } from './index';

export interface RequestLoggerOptions {
  log?: (line: string) => void;
  skipPaths?: string[];
}

function durationMs(start: bigint): string {
  return (Number(process.hrtime.bigint() - start) / 1e6).toFixed(1);
}

export function requestLogger(options: RequestLoggerOptions = {}): Middleware {
  const log = options.log ?? ((line: string) => console.log(line));
  const skip = new Set(options.skipPaths ?? ['/healthz']);

  return (req: Request, res: Response, next: NextFunction) => {
    if (skip.has(req.path)) {
      return next();
    }
    const requestId = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
    res.setHeader('X-Request-Id', requestId);
    const start = process.hrtime.bigint();

    res.on('finish', () => {
      log(
        [
          new Date().toISOString(),
          requestId,
          req.method,
          req.originalUrl,
          res.statusCode,
          `${durationMs(start)}ms`,
        ].join(' '),
      );
    });
    next();
  };
}
