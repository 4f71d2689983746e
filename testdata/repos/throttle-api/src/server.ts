import express from 'express';
import { config } from './config';
import { setupRoutes } from './routes/router-setup';
import { closePool } from './db/pool';

export function createApp(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  return setupRoutes(app);
}

if (require.main === module) {
  const app = createApp();
  const server = app.listen(config.port, () => {
    console.log(`storefront-server listening on http://localhost:${config.port}`);
  });

  const shutdown = (signal: string) => {
    console.log(`${signal} received, closing server`);
    server.close(async () => {
      await closePool();
      process.exit(0);
    });
    setTimeout(() => process.exit(1), 10_000).unref();
  };

  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
