import { createHmac, timingSafeEqual } from 'crypto';

export interface JwtClaims {
  sub: string;
  sid?: string;
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

interface JwtHeader {
  alg: 'HS256';
  typ: 'JWT';
}

const HEADER: JwtHeader = { alg: 'HS256', typ: 'JWT' };

export class JwtError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JwtError';
  }
}

export function base64UrlEncode(input: Buffer | string): string {
  const buf = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  return buf.toString('base64').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

export function base64UrlDecode(input: string): Buffer {
  const padded = input.replace(/-/g, '+').replace(/_/g, '/');
  const padLength = (4 - (padded.length % 4)) % 4;
  return Buffer.from(padded + '='.repeat(padLength), 'base64');
}

function hmacSignature(data: string, secret: string): string {
  return base64UrlEncode(createHmac('sha256', secret).update(data).digest());
}

export function signJwt(claims: JwtClaims, secret: string): string {
  const header = base64UrlEncode(JSON.stringify(HEADER));
  const payload = base64UrlEncode(JSON.stringify(claims));
  const signature = hmacSignature(`${header}.${payload}`, secret);
  return `${header}.${payload}.${signature}`;
}

export function decodeJwt(jwt: string): { header: JwtHeader; claims: JwtClaims; signature: string } {
  const parts = jwt.split('.');
  if (parts.length !== 3) {
    throw new JwtError('malformed JWT: expected three segments');
  }
  const [rawHeader, rawPayload, signature] = parts;
  try {
    const header = JSON.parse(base64UrlDecode(rawHeader).toString('utf8')) as JwtHeader;
    const claims = JSON.parse(base64UrlDecode(rawPayload).toString('utf8')) as JwtClaims;
    return { header, claims, signature };
  } catch {
    throw new JwtError('malformed JWT: segments are not valid JSON');
  }
}

// Checks the signature only; callers decide what to do with the exp claim.
export function verifyJwt(jwt: string, secret: string): JwtClaims {
  const { header, claims, signature } = decodeJwt(jwt);
  if (header.alg !== 'HS256') {
    throw new JwtError(`unsupported algorithm: ${header.alg}`);
  }
  const [rawHeader, rawPayload] = jwt.split('.');
  const expected = Buffer.from(hmacSignature(`${rawHeader}.${rawPayload}`, secret));
  const actual = Buffer.from(signature);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    throw new JwtError('invalid JWT signature');
  }
  if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number') {
    throw new JwtError('JWT is missing iat/exp claims');
  }
  return claims;
}

export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
