import { ServerResponse } from 'http';
import { authenticate, requireAuth, AuthenticatedRequest, AuthError } from '../auth/auth';
import { findUserById, toPublicUser } from '../models/user';
import { listOrders, getOrder, postOrder, deleteOrder, sendJson } from './orders-handler';

type Handler = (req: AuthenticatedRequest, res: ServerResponse, userId: string, params: string[]) => Promise<void>;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

const routes: Route[] = [
  { method: 'GET', pattern: /^\/api\/orders$/, handler: (_req, res, userId) => listOrders(res, userId) },
  { method: 'POST', pattern: /^\/api\/orders$/, handler: (req, res, userId) => postOrder(req, res, userId) },
  { method: 'GET', pattern: /^\/api\/orders\/([\w-]+)$/, handler: (_req, res, userId, [id]) => getOrder(res, userId, id) },
  {
    method: 'DELETE',
    pattern: /^\/api\/orders\/([\w-]+)$/,
    handler: (_req, res, userId, [id]) => deleteOrder(res, userId, id),
  },
  {
    method: 'GET',
    pattern: /^\/api\/me$/,
    handler: async (_req, res, userId) => {
      const user = await findUserById(userId);
      return user ? sendJson(res, 200, toPublicUser(user)) : sendJson(res, 404, { error: 'user not found' });
    },
  },
];

function authenticateRequest(req: AuthenticatedRequest, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    authenticate(req, res, (err) => (err ? reject(err) : resolve()));
  });
}

export async function handleRequest(req: AuthenticatedRequest, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/health') {
    return sendJson(res, 200, { status: 'ok' });
  }
  const route = routes.find((r) => r.method === req.method && r.pattern.test(path));
  if (!route) {
    return sendJson(res, 404, { error: 'not found' });
  }
  try {
    await authenticateRequest(req, res);
    const { userId } = requireAuth(req);
    const params = route.pattern.exec(path)?.slice(1) ?? [];
    await route.handler(req, res, userId, params);
  } catch (err) {
    if (err instanceof AuthError) {
      return sendJson(res, err.status, { error: err.message });
    }
    console.error('[api] unhandled error', err);
    sendJson(res, 500, { error: 'internal server error' });
  }
}
