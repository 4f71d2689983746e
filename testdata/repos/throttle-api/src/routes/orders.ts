// Order endpoints, mounted under /api/orders by router-setup.ts.
import { Router, Request, Response, NextFunction } from 'express';
import { query, queryOne, queryPage } from '../db/pool';
import { parsePagination, toPage } from '../utils/pagination';
import { buildInvoice, LineItem } from '../services/billing';
import { getExchangeRates, convertAmount, Currency } from '../services/exchange';

interface OrderRow {
  id: string;
  user_id: string;
  region: string;
  lines: LineItem[];
  status: 'open' | 'paid' | 'shipped';
  created_at: Date;
}

const SUPPORTED_CURRENCIES: Currency[] = ['USD', 'EUR', 'GBP', 'JPY'];

const wrap =
  (handler: (req: Request, res: Response) => Promise<void>) =>
  (req: Request, res: Response, next: NextFunction) =>
    handler(req, res).catch(next);

// GET /api/orders?userId=
export const listOrdersHandler = wrap(async (req, res) => {
  const page = parsePagination(req.query);
  const userId = typeof req.query.userId === 'string' ? req.query.userId : null;
  const { rows, total } = userId
    ? await queryPage<OrderRow>('SELECT * FROM orders WHERE user_id = $1 ORDER BY created_at DESC', [userId], page)
    : await queryPage<OrderRow>('SELECT * FROM orders ORDER BY created_at DESC', [], page);
  res.json(toPage(rows, total, page));
});

// GET /api/orders/:id?currency=EUR
export const getOrderHandler = wrap(async (req, res) => {
  const order = await queryOne<OrderRow>('SELECT * FROM orders WHERE id = $1', [req.params.id]);
  if (!order) {
    res.status(404).json({ error: 'Order not found' });
    return;
  }
  const currency = (String(req.query.currency ?? 'USD').toUpperCase() as Currency);
  if (!SUPPORTED_CURRENCIES.includes(currency)) {
    res.status(400).json({ error: `Unsupported currency ${currency}` });
    return;
  }
  const invoice = buildInvoice(order.id, order.lines, { region: order.region, currency: 'USD' });
  const table = await getExchangeRates();
  res.json({
    ...order,
    currency,
    totalCents: convertAmount(table, invoice.totalCents, 'USD', currency),
    taxCents: convertAmount(table, invoice.taxCents, 'USD', currency),
  });
});

// POST /api/orders
export const createOrderHandler = wrap(async (req, res) => {
  const { userId, region, lines } = req.body ?? {};
  if (typeof userId !== 'string' || !Array.isArray(lines) || lines.length === 0) {
    res.status(400).json({ error: 'userId and a non-empty lines array are required' });
    return;
  }
  const [order] = await query<OrderRow>(
    "INSERT INTO orders (user_id, region, lines, status) VALUES ($1, $2, $3, 'open') RETURNING *",
    [userId, region ?? 'US-CA', JSON.stringify(lines)],
  );
  res.status(201).json(order);
});

export const ordersRouter = Router()
  .get('/', listOrdersHandler)
  .get('/:id', getOrderHandler)
  .post('/', createOrderHandler);
