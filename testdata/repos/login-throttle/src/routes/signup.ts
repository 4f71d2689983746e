import { Request, Response } from '../api/http';
import { hashPassword } from '../auth/password';
import { createUser } from '../services/users';

// POST /signup: the endpoint that creates an account, which login then uses.
export async function handleSignup(req: Request, res: Response): Promise<void> {
  const { email, password } = req.body;
  const user = await createUser(email, await hashPassword(password));
  res.status(201).json({ id: user.id, login: email });
}
