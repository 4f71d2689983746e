import { createServer } from 'http';
import { config } from './config';
import { handleRequest } from './api/routes';
import { closePool } from './db/connection';

const server = createServer((req, res) => {
  const started = Date.now();
  res.on('finish', () => {
    console.log(`${req.method} ${req.url} ${res.statusCode} ${Date.now() - started}ms`);
  });
  void handleRequest(req, res);
});

server.listen(config.port, () => {
  console.log(`shopfront-api listening on :${config.port} (${config.env})`);
});

async function shutdown(signal: string): Promise<void> {
  console.log(`received ${signal}, shutting down`);
  server.close();
  await closePool();
  process.exit(0);
}

process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('unhandledRejection', (reason) => {
  console.error('[server] unhandled rejection', reason);
});
