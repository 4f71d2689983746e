import { IncomingMessage, ServerResponse } from 'http';
import { listOrdersForUser, findOrder, createOrder, cancelOrder, OrderItem } from '../models/order';
import { formatDisplayDate } from '../utils/date-format';

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(body === null ? undefined : JSON.stringify(body));
}

export async function readJsonBody<T>(req: IncomingMessage): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as T;
}

function isValidItem(item: Partial<OrderItem>): item is OrderItem {
  return typeof item.sku === 'string' && Number.isInteger(item.quantity) && (item.quantity ?? 0) > 0;
}

export async function listOrders(res: ServerResponse, userId: string): Promise<void> {
  const orders = await listOrdersForUser(userId);
  sendJson(res, 200, orders.map((o) => ({ ...o, placedAt: formatDisplayDate(o.placedAt) })));
}

export async function getOrder(res: ServerResponse, userId: string, orderId: string): Promise<void> {
  const order = await findOrder(userId, orderId);
  if (!order) {
    return sendJson(res, 404, { error: 'order not found' });
  }
  sendJson(res, 200, order);
}

export async function postOrder(req: IncomingMessage, res: ServerResponse, userId: string): Promise<void> {
  const body = await readJsonBody<{ items?: Partial<OrderItem>[] }>(req);
  const items = body.items ?? [];
  if (items.length === 0 || !items.every(isValidItem)) {
    return sendJson(res, 400, { error: 'items must be a non-empty list of { sku, quantity }' });
  }
  const order = await createOrder(userId, items as OrderItem[]);
  sendJson(res, 201, order);
}

export async function deleteOrder(res: ServerResponse, userId: string, orderId: string): Promise<void> {
  const cancelled = await cancelOrder(userId, orderId);
  if (!cancelled) {
    return sendJson(res, 409, { error: 'only pending orders can be cancelled' });
  }
  sendJson(res, 204, null);
}
