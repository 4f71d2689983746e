import { query } from '../db/connection';

export type AuthProvider = 'password' | 'google' | 'github';

export interface User {
  id: string;
  email: string;
  displayName: string;
  passwordHash: string | null;
  authProvider: AuthProvider;
  createdAt: Date;
  lastLoginAt: Date | null;
}

interface UserRow {
  id: string;
  email: string;
  display_name: string;
  password_hash: string | null;
  provider: AuthProvider;
  created_at: Date;
  last_login_at: Date | null;
}

function fromRow(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    passwordHash: row.password_hash,
    authProvider: row.provider,
    createdAt: row.created_at,
    lastLoginAt: row.last_login_at,
  };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserById(id: string): Promise<User | undefined> {
  const rows = await query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

export async function findUserByEmail(email: string): Promise<User | undefined> {
  const rows = await query<UserRow>('SELECT * FROM users WHERE email = $1', [normalizeEmail(email)]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

export async function createUser(email: string, displayName: string, passwordHash: string): Promise<User> {
  const rows = await query<UserRow>(
    `INSERT INTO users (email, display_name, password_hash, provider)
     VALUES ($1, $2, $3, 'password') RETURNING *`,
    [normalizeEmail(email), displayName, passwordHash],
  );
  return fromRow(rows[0]);
}

export async function recordLogin(userId: string, at: Date = new Date()): Promise<void> {
  await query('UPDATE users SET last_login_at = $2 WHERE id = $1', [userId, at]);
}

export function toPublicUser(user: User): Omit<User, 'passwordHash'> {
  const { passwordHash: _omit, ...rest } = user;
  return rest;
}
