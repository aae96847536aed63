// For the HTTP layer's tests: a router served by createHttpService on a free loopback port, with no token and
// a silent logger.
import type http from 'node:http';
import pino from 'pino';
import { baseUrl, createHttpService, listen, type Router } from './server';

export async function serveRouter(
  router: Router,
): Promise<{ server: http.Server; port: number; url: string }> {
  const server = createHttpService({
    router,
    logger: pino({ level: 'silent' }),
    maxBody: 1024,
    token: () => undefined,
    tokenParams: [],
  });
  const port = await listen(server, '127.0.0.1', 0);
  return { server, port, url: baseUrl('127.0.0.1', port) };
}
