import type { Express, Request, Response, NextFunction } from 'express';
import { config } from '../config';
import { cors } from './cors';
import { requestLogger } from './request-logger';

export type Middleware = (req: Request, res: Response, next: NextFunction) => void;

export { throttle } from './throttle';
export type { ThrottleOptions } from './throttle';
export { cors } from './cors';
export { requestLogger } from './request-logger';

export function jsonBody(maxBytes = 100 * 1024): Middleware {
  return (req, res, next) => {
    if (!req.is('application/json')) {
      return next();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.status(413).json({ error: 'Payload Too Large' });
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        req.body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
        next();
      } catch {
        res.status(400).json({ error: 'Malformed JSON body' });
      }
    });
  };
}

export function createMiddlewareStack(): Middleware[] {
  return [
    requestLogger(),
    cors({ origins: config.corsOrigins }),
    jsonBody(),
  ];
}

export function errorHandler(err: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction): void {
  const status = err.status ?? 500;
  if (status >= 500) {
    console.error('[server] unhandled error', err);
  }
  res.status(status).json({ error: status >= 500 ? 'Internal Server Error' : err.message });
}

export function applyMiddleware(app: Express): void {
  if (config.trustProxy) {
    app.set('trust proxy', true);
  }
  for (const middleware of createMiddlewareStack()) {
    app.use(middleware);
  }
}
