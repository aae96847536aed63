// A service on 127.0.0.1 whose answers the test scripts, for the console's failure paths: real HTTP that
// answers an error status, hangs (and tells when the caller gave up), closes the connection unanswered, or
// passes requests on to a real service (the local stack), also as a stream it can cut mid-way, or passes
// one on and loses its answer — so a test can make a service fail, go away mid-way or come back.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Answer =
  /** This status with this JSON body. */
  | { status: number; json: unknown }
  /** Passed on to the upstream service, its answer passed back. */
  | 'forward'
  /**
   * Passed on to the upstream service, which acts on it; its answer is lost: this status comes back instead
   * (a gateway failing after the service acted).
   */
  | { forwardThen: { status: number; json: unknown } }
  /** The connection is closed without an answer (the service went away). */
  | 'reset'
  /** No answer at all, the connection left open (the service is stuck) until the caller gives up. */
  | 'hang'
  /**
   * Passed on to the upstream service, its answer streamed back as it comes (an SSE stream stays open)
   * until the caller or the upstream closes it, or the test `cut`s it.
   */
  | 'stream';

export interface ScriptedService {
  url: string;
  /** Every request so far, in order. */
  requests: { method: string; path: string }[];
  /** Hung requests whose caller closed the connection (gave up waiting), in order. */
  abandoned: { method: string; path: string }[];
  /** How it answers from now on. */
  answer(next: Script): void;
  /** Resolves once `count` requests have arrived in all. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves once `count` hung requests have been given up by their caller. */
  waitForAbandoned(count: number, timeoutMs?: number): Promise<void>;
  /** Streamed answers (`stream`) open now, by path. */
  streaming(): string[];
  /**
   * Drops the open streamed answers of `path` mid-way — the caller's connection reset, the upstream's
   * request closed — as a proxy or a network blip would; returns how many it dropped.
   */
  cut(path: string): number;
  close(): Promise<void>;
}

/** How the service answers a request (its body as text: a KV command travels in it). */
export type Script = (request: { method: string; path: string; body: string }) => Answer;

export async function startScriptedService(answer: Script, upstream?: string): Promise<ScriptedService> {
  let current = answer;
  const requests: { method: string; path: string }[] = [];
  const abandoned: { method: string; path: string }[] = [];
  const waiters: { list: unknown[]; count: number; resolve: () => void }[] = [];
  const streams = new Map<http.ServerResponse, { path: string; drop: () => void }>();
  const wake = () => {
    for (const waiter of waiters.filter((w) => w.list.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const waitFor =
    (list: unknown[], what: string) =>
    (count: number, timeoutMs = 30_000) =>
      list.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new Error(`${list.length} of ${count} ${what} within ${timeoutMs} ms`)),
              timeoutMs,
            );
            waiters.push({ list, count, resolve: () => (clearTimeout(timer), resolve()) });
          });
  const server = http.createServer((req, res) => {
    const request = { method: req.method ?? 'GET', path: req.url ?? '/' };
    requests.push(request);
    wake();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reply = current({ ...request, body: Buffer.concat(chunks).toString() });
      if (reply === 'reset') {
        req.socket.destroy();
      } else if (reply === 'hang') {
        res.on('close', () => {
          if (res.writableEnded) return;
          abandoned.push(request);
          wake();
        });
      } else if (reply === 'stream') {
        const up = http.request(
          `${upstream!}${req.url ?? '/'}`,
          { method: req.method, headers: { ...req.headers, host: new URL(upstream!).host } },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        up.on('error', () => req.socket.destroy());
        streams.set(res, {
          path: request.path,
          drop: () => {
            up.destroy();
            req.socket.destroy();
          },
        });
        res.on('close', () => {
          streams.delete(res);
          up.destroy();
        });
        up.end(Buffer.concat(chunks));
      } else if (reply === 'forward') {
        void forward(upstream!, req, Buffer.concat(chunks)).then(
          ({ status, headers, body }) => res.writeHead(status, headers).end(body),
          () => req.socket.destroy(),
        );
      } else if ('forwardThen' in reply) {
        const { status, json } = reply.forwardThen;
        void forward(upstream!, req, Buffer.concat(chunks)).then(
          () => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json)),
          () => req.socket.destroy(),
        );
      } else {
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    abandoned,
    answer: (next) => {
      current = next;
    },
    waitForRequests: waitFor(requests, 'requests'),
    waitForAbandoned: waitFor(abandoned, 'hung requests given up'),
    streaming: () => [...streams.values()].map((stream) => stream.path),
    cut: (path) => {
      const open = [...streams.values()].filter((stream) => stream.path === path);
      open.forEach((stream) => stream.drop());
      return open.length;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function forward(upstream: string, req: http.IncomingMessage, body: Buffer) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (name !== 'host' && name !== 'connection' && typeof value === 'string') headers.set(name, value);
  }
  const response = await fetch(`${upstream}${req.url ?? '/'}`, {
    method: req.method,
    headers,
    body: req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(body),
  });
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding')
      out[name] = value;
  });
  return { status: response.status, headers: out, body: Buffer.from(await response.arrayBuffer()) };
}
