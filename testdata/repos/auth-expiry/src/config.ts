export interface AppConfig {
  port: number;
  databaseUrl: string;
  jwtSecret: string;
  sessionTtlSeconds: number;
  env: 'development' | 'test' | 'production';
}

function readInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') {
    return fallback;
  }
  const value = Number.parseInt(raw, 10);
  if (Number.isNaN(value)) {
    throw new Error(`${name} must be an integer, got "${raw}"`);
  }
  return value;
}

function readString(name: string, fallback?: string): string {
  const value = process.env[name] ?? fallback;
  if (value === undefined) {
    throw new Error(`missing required environment variable ${name}`);
  }
  return value;
}

const env = (process.env.NODE_ENV ?? 'development') as AppConfig['env'];

export const config: AppConfig = {
  port: readInt('PORT', 3000),
  databaseUrl: readString('DATABASE_URL', env === 'production' ? undefined : 'postgres://localhost:5432/shopfront'),
  jwtSecret: readString('JWT_SECRET', env === 'production' ? undefined : 'dev-secret-change-me'),
  sessionTtlSeconds: readInt('SESSION_TTL_SECONDS', 3600),
  env,
};
