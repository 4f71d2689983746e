import { Request, Response } from '../api/http';

// GET /orders: the endpoint listing a logged-in user's orders.
export async function handleOrders(req: Request, res: Response): Promise<void> {
  res.json({ orders: [], user: req.headers['x-user'] });
}
