import { Express, Router } from 'express';
import { applyMiddleware, errorHandler } from '../middleware';
import { poolStats } from '../db/pool';
import { usersRouter, loginHandler } from './users';
import { ordersRouter } from './orders';

function authRouter(): Router {
  const router = Router();
  router.post('/login', loginHandler);
  return router;
}

/** Mounts every API router on the app. Call once, before `listen`. */
export function setupRoutes(app: Express): Express {
  applyMiddleware(app);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', db: poolStats() });
  });

  const api = Router();
  api.use('/users', usersRouter);
  api.use('/orders', ordersRouter);
  api.use('/auth', authRouter());
  app.use('/api', api);

  app.use('/api', (req, res) => {
    res.status(404).json({ error: `No endpoint for ${req.method} ${req.originalUrl}` });
  });
  app.use(errorHandler);
  return app;
}
