import type { Request, Response, NextFunction } from 'express';
import type { Middleware } from './index';

export interface CorsOptions {
  origins: string[];
  methods?: string[];
  allowedHeaders?: string[];
  maxAgeSeconds?: number;
}

const DEFAULT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const DEFAULT_HEADERS = ['Content-Type', 'Authorization'];

export function cors(options: CorsOptions): Middleware {
  const allowAny = options.origins.includes('*');
  const methods = (options.methods ?? DEFAULT_METHODS).join(', ');
  const headers = (options.allowedHeaders ?? DEFAULT_HEADERS).join(', ');
  const maxAge = String(options.maxAgeSeconds ?? 600);

  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin && (allowAny || options.origins.includes(origin))) {
      res.setHeader('Access-Control-Allow-Origin', allowAny ? '*' : origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Allow-Credentials', 'true');
    }

    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', methods);
      res.setHeader('Access-Control-Allow-Headers', headers);
      res.setHeader('Access-Control-Max-Age', maxAge);
      res.status(204).end();
      return;
    }
    next();
  };
}
