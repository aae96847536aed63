// A node:http server on 127.0.0.1 for the benches' destinations and workflow apps. Each request's body is read
// whole before `handle` answers it; an error thrown there answers 500 with its text. Idle connections stay
// open for a minute, so the stack reuses its sockets between deliveries as it would with a real destination.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

/** 200 "ok": the answer of a destination that only accepts. */
const OK: HttpAnswer = { status: 200, headers: { 'content-length': '2' }, body: 'ok' };

/** Serves `handle` until `close()`; a handler that answers nothing answers 200 "ok". */
export async function serveHttp(
  handle: (req: http.IncomingMessage, body: Buffer) => Promise<HttpAnswer | void> | HttpAnswer | void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      Promise.resolve(handle(req, Buffer.concat(chunks))).then(
        (answer) => {
          const { status, headers, body } = answer ?? OK;
          res.writeHead(status, headers);
          res.end(body);
        },
        (error: unknown) => {
          res.writeHead(500);
          res.end(String(error));
        },
      );
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
