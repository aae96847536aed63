// A real HTTP server on 127.0.0.1 that records every request it receives — the destination that
// messages are delivered to in e2e tests. Its answers can be scripted per path (e.g. fail twice, then 200).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** Path and query as received. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export type Responder = (
  request: ReceivedRequest,
  countForPath: number,
) => { status: number; body?: string; headers?: Record<string, string> };

export interface Sink {
  /** Base URL, e.g. http://127.0.0.1:43123 */
  url: string;
  received: ReceivedRequest[];
  /** Requests to one path (ignoring the query string). */
  receivedAt(path: string): ReceivedRequest[];
  /** Resolves when at least `count` requests to `path` have arrived. */
  waitFor(path: string, count?: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  respond(responder: Responder): void;
  close(): Promise<void>;
}

export async function startSink(responder: Responder = () => ({ status: 200, body: 'ok' })): Promise<Sink> {
  const received: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  let current = responder;
  const pathOf = (path: string) => path.split('?')[0]!;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      received.push(request);
      const count = received.filter((r) => pathOf(r.path) === pathOf(request.path)).length;
      const answer = current(request, count);
      res
        .writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers })
        .end(answer.body ?? '');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const receivedAt = (path: string) => received.filter((r) => pathOf(r.path) === path);
  return {
    url,
    received,
    receivedAt,
    waitFor: (path, count = 1, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const matching = receivedAt(path);
          if (matching.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(matching);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`sink: ${receivedAt(path).length}/${count} requests to ${path} within ${timeoutMs} ms`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    respond: (next) => {
      current = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
