// User account endpoints, mounted under /api/users by router-setup.ts.
import { Router, Request, Response, NextFunction } from 'express';
import { scrypt, randomBytes, timingSafeEqual } from 'crypto';
import { promisify } from 'util';
import { query, queryOne, queryPage } from '../db/pool';
import { parsePagination, toPage } from '../utils/pagination';

const scryptAsync = promisify(scrypt) as (pw: string, salt: string, len: number) => Promise<Buffer>;

interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: Date;
}

type PublicUser = Omit<UserRow, 'password_hash'>;

function toPublic({ password_hash: _hash, ...user }: UserRow): PublicUser {
  return user;
}

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16).toString('hex');
  const key = await scryptAsync(password, salt, 64);
  return `${salt}:${key.toString('hex')}`;
}

async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [salt, hex] = stored.split(':');
  const key = await scryptAsync(password, salt, 64);
  return timingSafeEqual(key, Buffer.from(hex, 'hex'));
}

const wrap =
  (handler: (req: Request, res: Response) => Promise<void>) =>
  (req: Request, res: Response, next: NextFunction) =>
    handler(req, res).catch(next);

// GET /api/users
export const listUsersHandler = wrap(async (req, res) => {
  const page = parsePagination(req.query);
  const { rows, total } = await queryPage<UserRow>('SELECT * FROM users ORDER BY created_at DESC', [], page);
  res.json(toPage(rows.map(toPublic), total, page));
});

// GET /api/users/:id
export const getUserHandler = wrap(async (req, res) => {
  const user = await queryOne<UserRow>('SELECT * FROM users WHERE id = $1', [req.params.id]);
  if (!user) {
    res.status(404).json({ error: 'User not found' });
    return;
  }
  res.json(toPublic(user));
});

// POST /api/users
export const createUserHandler = wrap(async (req, res) => {
  const { email, name, password } = req.body ?? {};
  if (typeof email !== 'string' || !email.includes('@') || typeof password !== 'string' || password.length < 8) {
    res.status(400).json({ error: 'A valid email and a password of at least 8 characters are required' });
    return;
  }
  const [user] = await query<UserRow>(
    'INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING *',
    [email.toLowerCase(), name ?? '', await hashPassword(password)],
  );
  res.status(201).json(toPublic(user));
});

// POST /api/auth/login
export const loginHandler = wrap(async (req, res) => {
  const { email, password } = req.body ?? {};
  const user =
    typeof email === 'string' ? await queryOne<UserRow>('SELECT * FROM users WHERE email = $1', [email.toLowerCase()]) : null;
  if (!user || typeof password !== 'string' || !(await verifyPassword(password, user.password_hash))) {
    res.status(401).json({ error: 'Invalid email or password' });
    return;
  }
  res.json({ user: toPublic(user) });
});

export const usersRouter = Router()
  .get('/', listUsersHandler)
  .get('/:id', getUserHandler)
  .post('/', createUserHandler);
