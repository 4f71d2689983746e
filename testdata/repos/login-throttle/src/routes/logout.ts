import { Request, Response } from '../api/http';
import { endSession } from '../auth/session';

// POST /logout: the logout endpoint, the other end of login.
export async function handleLogout(req: Request, res: Response): Promise<void> {
  await endSession(req.headers['x-session']);
  res.status(204).end();
}
