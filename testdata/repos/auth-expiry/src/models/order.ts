import { query } from '../db/connection';

export type OrderStatus = 'pending' | 'paid' | 'shipped' | 'cancelled';

export interface OrderItem {
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

export interface Order {
  id: string;
  userId: string;
  status: OrderStatus;
  items: OrderItem[];
  totalCents: number;
  placedAt: Date;
}

interface OrderRow {
  id: string;
  user_id: string;
  status: OrderStatus;
  items: OrderItem[];
  total_cents: number;
  placed_at: Date;
}

function fromRow(row: OrderRow): Order {
  return {
    id: row.id,
    userId: row.user_id,
    status: row.status,
    items: row.items,
    totalCents: row.total_cents,
    placedAt: row.placed_at,
  };
}

export function orderTotal(items: OrderItem[]): number {
  return items.reduce((sum, item) => sum + item.quantity * item.unitPriceCents, 0);
}

export async function listOrdersForUser(userId: string, limit = 20): Promise<Order[]> {
  const rows = await query<OrderRow>(
    'SELECT * FROM orders WHERE user_id = $1 ORDER BY placed_at DESC LIMIT $2',
    [userId, limit],
  );
  return rows.map(fromRow);
}

export async function findOrder(userId: string, orderId: string): Promise<Order | undefined> {
  const rows = await query<OrderRow>('SELECT * FROM orders WHERE id = $1 AND user_id = $2', [orderId, userId]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

export async function createOrder(userId: string, items: OrderItem[]): Promise<Order> {
  if (items.length === 0) {
    throw new Error('an order needs at least one item');
  }
  const rows = await query<OrderRow>(
    `INSERT INTO orders (user_id, status, items, total_cents)
     VALUES ($1, 'pending', $2, $3) RETURNING *`,
    [userId, JSON.stringify(items), orderTotal(items)],
  );
  return fromRow(rows[0]);
}

export async function cancelOrder(userId: string, orderId: string): Promise<boolean> {
  const rows = await query<OrderRow>(
    `UPDATE orders SET status = 'cancelled'
     WHERE id = $1 AND user_id = $2 AND status = 'pending' RETURNING *`,
    [orderId, userId],
  );
  return rows.length > 0;
}
