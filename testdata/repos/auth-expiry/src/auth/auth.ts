import { IncomingMessage, ServerResponse } from 'http';
import { verifyJwt, JwtClaims, JwtError } from '../lib/jwt-utils';
import { refreshSession } from '../session/session-manager';
import { config } from '../config';

/** Seconds of clock skew tolerated before an access token counts as expired. */
export const TOKEN_EXPIRY_LEEWAY = 30;

export interface AuthenticatedRequest extends IncomingMessage {
  auth?: { userId: string; sessionId?: string; claims: JwtClaims };
}

export type Next = (err?: Error) => void;

export class AuthError extends Error {
  constructor(message: string, public readonly status = 401) {
    super(message);
    this.name = 'AuthError';
  }
}

export function extractBearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) {
    return undefined;
  }
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

export function isTokenExpired(claims: JwtClaims, now: number = Date.now()): boolean {
  return claims.exp + TOKEN_EXPIRY_LEEWAY < now;
}

async function renewExpiredToken(claims: JwtClaims, res: ServerResponse): Promise<JwtClaims> {
  if (!claims.sid) {
    throw new AuthError('access token expired');
  }
  const renewed = await refreshSession(claims.sid);
  if (!renewed) {
    throw new AuthError('session expired, please log in again');
  }
  res.setHeader('X-Access-Token', renewed.jwt);
  return verifyJwt(renewed.jwt, config.jwtSecret);
}

export async function authenticate(req: AuthenticatedRequest, res: ServerResponse, next: Next): Promise<void> {
  const token = extractBearerToken(req);
  if (!token) {
    return next(new AuthError('missing bearer token'));
  }
  try {
    let claims = verifyJwt(token, config.jwtSecret);
    if (isTokenExpired(claims)) {
      claims = await renewExpiredToken(claims, res);
    }
    req.auth = { userId: claims.sub, sessionId: claims.sid, claims };
    next();
  } catch (err) {
    if (err instanceof AuthError) {
      return next(err);
    }
    if (err instanceof JwtError) {
      return next(new AuthError(`invalid token: ${err.message}`));
    }
    next(err as Error);
  }
}

export function requireAuth(req: AuthenticatedRequest): { userId: string } {
  if (!req.auth) {
    throw new AuthError('not authenticated');
  }
  return { userId: req.auth.userId };
}
