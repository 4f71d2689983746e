import { Request, Response } from '../api/http';
import { verifyPassword } from '../auth/password';
import { startSession } from '../auth/session';

// POST /login: the login endpoint. Checks the password and starts a session.
export async function handleLogin(req: Request, res: Response): Promise<void> {
  const { email, password } = req.body;
  if (!email || !password) {
    res.status(400).json({ error: 'email and password are required to log in' });
    return;
  }
  const user = await verifyPassword(email, password);
  if (!user) {
    res.status(401).json({ error: 'login failed' });
    return;
  }
  const session = await startSession(user.id);
  res.json({ session: session.id });
}
