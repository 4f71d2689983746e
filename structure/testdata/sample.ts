import { signJwt } from '../lib/jwt-utils';
import type { Clock } from "./clock";
export { refresh as renew, verify } from './session';

export interface SessionOptions {
  ttl: number;
}

export type SessionId = string;

export enum Mode { Fast, Slow }

export class SessionManager extends Base {
  private store = new Map();

  async refresh(id: SessionId, clock: Clock): Promise<string> {
    if (this.store.has(id)) {
      return signJwt({ sub: id });
    }
    return '';
  }
}

export function refreshSession(id: string) {
  return manager.refresh(id);
}

export const DEFAULT_TTL = 3600;
const handler = async (req) => {
  const m = await import('./lazy');
  foo(req);
};
