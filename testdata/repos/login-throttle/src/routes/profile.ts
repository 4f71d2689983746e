import { Request, Response } from '../api/http';
import { findUser } from '../services/users';

// GET /profile: the endpoint for the logged-in user's profile; login first.
export async function handleProfile(req: Request, res: Response): Promise<void> {
  const user = await findUser(req.headers['x-user']);
  if (!user) {
    res.status(401).json({ error: 'login required for this endpoint' });
    return;
  }
  res.json(user);
}
