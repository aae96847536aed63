// A destination for messages in tests: a real HTTP server on 127.0.0.1 that records every request it
// receives and answers as the test scripts it. The stack's tests use it as it is; the e2e sink
// (e2e/support/sink.ts) is a view of it by path. No vitest here, so Playwright can load it too.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Date.now() when the request had arrived whole. */
  receivedAt: number;
  /** Set when the sink answered. */
  status?: number;
}

export interface SinkReply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Keep the request open until this resolves. */
  wait?: Promise<void>;
}

export interface Sink {
  url: string;
  received: Received[];
  /** Requests currently being handled (for concurrency checks). */
  open: number;
  maxOpen: number;
  /** Resolves once at least `count` requests arrived (optionally matching); rejects after `timeoutMs`. */
  waitFor(
    count: number,
    options?: { timeoutMs?: number; match?: (r: Received) => boolean },
  ): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startSink(
  reply: (request: Received, index: number) => SinkReply | Promise<SinkReply> = () => ({}),
): Promise<Sink> {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const sink: Sink = {
    url: '',
    received,
    open: 0,
    maxOpen: 0,
    waitFor(count, { timeoutMs = 10_000, match = () => true } = {}) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const matching = received.filter(match);
          if (matching.length < count) return false;
          waiters.delete(check as () => void);
          clearTimeout(timer);
          resolve(matching);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check as () => void);
          reject(
            new Error(`sink: expected ${count} matching requests, got ${received.filter(match).length}`),
          );
        }, timeoutMs);
        if (!check()) waiters.add(check as () => void);
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      const index = received.length;
      received.push(request);
      sink.open++;
      sink.maxOpen = Math.max(sink.maxOpen, sink.open);
      for (const waiter of [...waiters]) waiter();
      void (async () => {
        const answer = await reply(request, index);
        await answer.wait;
        sink.open--;
        request.status = answer.status ?? 200;
        res.writeHead(request.status, answer.headers ?? {});
        res.end(answer.body ?? 'ok');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return sink;
}
