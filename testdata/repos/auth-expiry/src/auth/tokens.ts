import { randomBytes, createHash } from 'crypto';
import { signJwt, nowInSeconds } from '../lib/jwt-utils';
import { SessionManager, defaultSessionManager, refreshSession } from '../session/session-manager';
import { config } from '../config';
import { AuthError } from './auth';

export const ACCESS_TOKEN_EXPIRY_SECONDS = 15 * 60;
export const REFRESH_TOKEN_EXPIRY_SECONDS = 30 * 24 * 60 * 60;

export interface RefreshTokenRecord {
  tokenHash: string;
  sessionId: string;
  userId: string;
  expiresAt: number;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  accessTokenExpiresAt: number;
}

const refreshTokens = new Map<string, RefreshTokenRecord>();

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function tokenExpiresAt(issuedAt: number, expirySeconds: number = ACCESS_TOKEN_EXPIRY_SECONDS): number {
  return issuedAt + expirySeconds;
}

export function issueAccessToken(userId: string, sessionId: string): { token: string; expiresAt: number } {
  const iat = nowInSeconds();
  const exp = tokenExpiresAt(iat);
  const token = signJwt({ sub: userId, sid: sessionId, iat, exp }, config.jwtSecret);
  return { token, expiresAt: exp };
}

export function issueRefreshToken(userId: string, sessionId: string): string {
  const token = randomBytes(32).toString('base64url');
  refreshTokens.set(hashToken(token), {
    tokenHash: hashToken(token),
    sessionId,
    userId,
    expiresAt: tokenExpiresAt(nowInSeconds(), REFRESH_TOKEN_EXPIRY_SECONDS),
  });
  return token;
}

export async function issueTokenPair(
  userId: string,
  sessions: SessionManager = defaultSessionManager,
): Promise<TokenPair> {
  const session = await sessions.create(userId);
  const access = issueAccessToken(userId, session.id);
  return {
    accessToken: access.token,
    refreshToken: issueRefreshToken(userId, session.id),
    accessTokenExpiresAt: access.expiresAt,
  };
}

/** Exchanges a refresh token for a new pair; the old refresh token is invalidated. */
export async function rotateRefreshToken(refreshToken: string): Promise<TokenPair> {
  const record = refreshTokens.get(hashToken(refreshToken));
  if (!record) {
    throw new AuthError('unknown refresh token');
  }
  refreshTokens.delete(record.tokenHash);
  if (record.expiresAt <= nowInSeconds()) {
    throw new AuthError('refresh token expired');
  }
  const renewed = await refreshSession(record.sessionId, ACCESS_TOKEN_EXPIRY_SECONDS);
  if (!renewed) {
    throw new AuthError('session is no longer valid');
  }
  return {
    accessToken: renewed.jwt,
    refreshToken: issueRefreshToken(record.userId, record.sessionId),
    accessTokenExpiresAt: tokenExpiresAt(nowInSeconds()),
  };
}

export function revokeRefreshTokensForSession(sessionId: string): number {
  let revoked = 0;
  for (const [hash, record] of refreshTokens) {
    if (record.sessionId === sessionId) {
      refreshTokens.delete(hash);
      revoked++;
    }
  }
  return revoked;
}
