import { randomUUID } from 'crypto';
import { signJwt, nowInSeconds } from '../lib/jwt-utils';
import { config } from '../config';

export interface Session {
  id: string;
  userId: string;
  createdAt: number;
  validUntil: number;
  revoked: boolean;
}

export interface SessionStore {
  get(id: string): Promise<Session | undefined>;
  put(session: Session): Promise<void>;
  delete(id: string): Promise<void>;
}

export class InMemorySessionStore implements SessionStore {
  private sessions = new Map<string, Session>();

  async get(id: string): Promise<Session | undefined> {
    return this.sessions.get(id);
  }

  async put(session: Session): Promise<void> {
    this.sessions.set(session.id, { ...session });
  }

  async delete(id: string): Promise<void> {
    this.sessions.delete(id);
  }
}

export class SessionManager {
  constructor(
    private readonly store: SessionStore,
    private readonly ttlSeconds: number = config.sessionTtlSeconds,
    private readonly jwtSecret: string = config.jwtSecret,
  ) {}

  async create(userId: string): Promise<Session> {
    const now = nowInSeconds();
    const session: Session = {
      id: randomUUID(),
      userId,
      createdAt: now,
      validUntil: now + this.ttlSeconds,
      revoked: false,
    };
    await this.store.put(session);
    return session;
  }

  async isActive(sessionId: string): Promise<boolean> {
    const session = await this.store.get(sessionId);
    return !!session && !session.revoked && session.validUntil > nowInSeconds();
  }

  // Sliding TTL: every refresh pushes validUntil forward by the full lifetime.
  async refresh(sessionId: string): Promise<Session | undefined> {
    const session = await this.store.get(sessionId);
    if (!session || session.revoked || session.validUntil <= nowInSeconds()) {
      return undefined;
    }
    const refreshed = { ...session, validUntil: nowInSeconds() + this.ttlSeconds };
    await this.store.put(refreshed);
    return refreshed;
  }

  async revoke(sessionId: string): Promise<void> {
    const session = await this.store.get(sessionId);
    if (session) {
      await this.store.put({ ...session, revoked: true });
    }
  }

  signSessionJwt(session: Session, lifetimeSeconds: number): string {
    const iat = nowInSeconds();
    return signJwt({ sub: session.userId, sid: session.id, iat, exp: iat + lifetimeSeconds }, this.jwtSecret);
  }
}

export const defaultSessionManager = new SessionManager(new InMemorySessionStore());

/**
 * Extends the session and re-signs a short-lived JWT for it, so the caller
 * can hand the client a fresh access token.
 * Returns undefined when the session is unknown, revoked or past its TTL.
 */
export async function refreshSession(
  sessionId: string,
  lifetimeSeconds = 900,
  manager: SessionManager = defaultSessionManager,
): Promise<{ session: Session; jwt: string } | undefined> {
  const session = await manager.refresh(sessionId);
  if (!session) {
    return undefined;
  }
  return { session, jwt: manager.signSessionJwt(session, lifetimeSeconds) };
}
