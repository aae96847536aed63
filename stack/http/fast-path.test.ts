import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

import { Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

import { installFastPath, wholeBody } from './fast-path';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Read by the fast path (true) or by node:http (false). */
  fast: boolean;
}

/**
 * A node:http server with the fast path in front, answering every request with what it saw. `/slow` waits for
 * `release()`; `/chunked` answers without Content-Length; `/close` asks for `Connection: close`.
 */
async function serve(keepAliveTimeoutMs = 30_000) {
  const seen: Seen[] = [];
  const handOffs: string[] = [];
  let onHandOff: (() => void) | undefined;
  const waiting: (() => void)[] = [];
  let onSlow: (() => void) | undefined;
  let slowSocket: net.Socket | undefined;
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const answer = (body: string): void => {
      seen.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body,
        fast: wholeBody(req) !== undefined,
      });
      const text = JSON.stringify(seen.at(-1));
      if (req.url === '/chunked') {
        res.writeHead(200, { 'content-type': 'application/json' });
        // Past the socket's buffer, so write() must report a full buffer and 'drain' must follow.
        const piece = 'x'.repeat(64 * 1024);
        const writeMore = (left: number): void => {
          while (left > 0) {
            left--;
            if (!res.write(piece)) {
              res.on('drain', () => writeMore(left));
              return;
            }
          }
          res.end(text);
        };
        writeMore(64);
        return;
      }
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      };
      if (req.url === '/close') headers.connection = 'close';
      const send = (): void => {
        res.writeHead(200, headers);
        res.end(text);
      };
      if (req.url === '/slow') {
        slowSocket = req.socket;
        waiting.push(send);
        onSlow?.();
      } else send();
    };
    const whole = wholeBody(req);
    if (whole) return answer(whole.toString());
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(Buffer.concat(chunks).toString()));
  };
  const server = http.createServer({ keepAliveTimeout: keepAliveTimeoutMs }, handler);
  const fastPath = installFastPath(server, handler, {
    accepts: (_method, url) => !url.startsWith('/monitor'),
    maxBodyBytes: 1024,
    keepAliveTimeoutMs,
    onHandOff: (reason) => {
      handOffs.push(reason);
      onHandOff?.();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    seen,
    handOffs,
    /** Resolves once a `/slow` request is waiting. */
    slowArrived: () =>
      new Promise<void>((resolve) => {
        if (waiting.length > 0) return resolve();
        onSlow = resolve;
      }),
    release: () => waiting.shift()?.(),
    /** Resolves once the server has read the end of the stream from the client of the waiting `/slow`. */
    slowClientEnded: () =>
      new Promise<void>((resolve) => {
        if (slowSocket!.readableEnded) resolve();
        else slowSocket!.once('end', () => resolve());
      }),
    /** Resolves once `count` connections have been handed to node:http. */
    handedOff: (count: number) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (handOffs.length >= count) resolve();
        };
        onHandOff = check;
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        fastPath.destroyConnections();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The raw connections a test opened: destroyed after it, before its server closes. */
const connections: net.Socket[] = [];

/** A raw connection that collects what the server sends until it closes. */
async function rawConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  connections.push(socket);
  let received = '';
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  return {
    socket,
    closed,
    received: () => received,
    /** Resolves once `count` responses have arrived. */
    responses: (count: number) =>
      new Promise<string[]>((resolve) => {
        const check = (): void => {
          const parts = received.split(/(?=HTTP\/1\.1 )/).filter((part) => part.includes('\r\n\r\n'));
          const whole = parts.filter((part) => {
            const [head, body] = [
              part.slice(0, part.indexOf('\r\n\r\n')),
              part.slice(part.indexOf('\r\n\r\n') + 4),
            ];
            const length = /content-length: (\d+)/i.exec(head);
            return length ? body.length >= Number(length[1]) : false;
          });
          if (whole.length < count) return;
          socket.off('data', check);
          resolve(whole);
        };
        socket.on('data', check);
        check();
      }),
  };
}

const post = (path: string, body: string, extra = ''): string =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

const bodyOf = (response: string): Seen =>
  JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as Seen;

/** Waits for `count` answers on `client` and reads what the server saw of each request, in order. */
const seenBy = async (client: Awaited<ReturnType<typeof rawConnection>>, count: number): Promise<Seen[]> =>
  (await client.responses(count)).map(bodyOf);

let server: Awaited<ReturnType<typeof serve>>;
afterEach(() => {
  for (const socket of connections.splice(0)) socket.destroy();
  return server?.close();
});

/** Starts the test's `server` and opens a raw connection to it. */
async function serveAndConnect(keepAliveTimeoutMs?: number) {
  server = await serve(keepAliveTimeoutMs);
  return rawConnection(server.port);
}

describe('the fast path in front of node:http (stack/http/fast-path.ts)', () => {
  it('answers keep-alive requests itself, with the same request fields node:http gives', async () => {
    server = await serve();
    const pool = new Pool(server.url, { connections: 2 });
    try {
      const answers = await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const { statusCode, headers, body } = await pool.request({
            path: `/set/k${i}?x=1`,
            method: i % 2 ? 'POST' : 'GET',
            headers: { authorization: 'Bearer T', 'Upstash-Encoding': ' base64 ' },
            body: i % 2 ? `["SET","k${i}","ü"]` : undefined,
          });
          return { statusCode, keepAlive: headers.connection, seen: (await body.json()) as Seen };
        }),
      );
      for (const [i, { statusCode, keepAlive, seen }] of answers.entries()) {
        expect(statusCode).toBe(200);
        expect(keepAlive).toBe('keep-alive');
        expect(seen).toMatchObject({
          method: i % 2 ? 'POST' : 'GET',
          url: `/set/k${i}?x=1`,
          body: i % 2 ? `["SET","k${i}","ü"]` : '',
          fast: true,
        });
        // Names lower-case, values without the optional whitespace around them, as node:http gives them.
        expect(seen.headers.authorization).toBe('Bearer T');
        expect(seen.headers['upstash-encoding']).toBe('base64');
      }
      expect(server.handOffs).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it('answers pipelined requests one at a time, in order', async () => {
    const client = await serveAndConnect();
    client.socket.write(post('/slow', 'first') + post('/next', 'second'));
    await server.slowArrived();
    // The second request waits for the first one's answer, as it would in node:http.
    expect(server.seen.map((seen) => seen.url)).toEqual(['/slow']);
    server.release();
    expect(await seenBy(client, 2)).toMatchObject([
      { url: '/slow', body: 'first', fast: true },
      { url: '/next', body: 'second', fast: true },
    ]);
  });

  it('gives a request that arrives in pieces, and its connection, to node:http in order', async () => {
    const client = await serveAndConnect();
    const whole = post('/split', 'hello world');
    client.socket.write(whole.slice(0, -6));
    await server.handedOff(1);
    expect(server.handOffs).toEqual(['partial body']);
    client.socket.write(whole.slice(-6));
    client.socket.write(post('/after', 'again'));
    expect(await seenBy(client, 2)).toMatchObject([
      { url: '/split', body: 'hello world', fast: false },
      { url: '/after', body: 'again', fast: false },
    ]);
  });

  it('leaves chunked bodies, malformed heads, large bodies, other routes and repeated headers to node:http', async () => {
    server = await serve();
    const chunked = await rawConnection(server.port);
    chunked.socket.write(
      'POST /te HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
    );
    expect(await seenBy(chunked, 1)).toMatchObject([{ body: 'hello', fast: false }]);

    const malformed = await rawConnection(server.port);
    malformed.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon here\r\n\r\n');
    await malformed.closed;
    expect(malformed.received()).toMatch(/^HTTP\/1\.1 400 /);

    const large = await rawConnection(server.port);
    large.socket.write(post('/large', 'x'.repeat(2000)));
    expect(await seenBy(large, 1)).toMatchObject([{ body: 'x'.repeat(2000), fast: false }]);

    const stream = await rawConnection(server.port);
    stream.socket.write(post('/monitor', ''));
    expect(await seenBy(stream, 1)).toMatchObject([{ url: '/monitor', fast: false }]);

    const repeated = await rawConnection(server.port);
    repeated.socket.write(post('/twice', 'abc', 'Content-Length: 3\r\n'));
    await repeated.closed;
    expect(repeated.received()).toMatch(/^HTTP\/1\.1 400 /);

    const prototypeName = await rawConnection(server.port);
    prototypeName.socket.write(post('/proto', 'p', '__proto__: x\r\n'));
    expect(await seenBy(prototypeName, 1)).toMatchObject([{ body: 'p', fast: false }]);

    expect(server.handOffs).toEqual([
      'framing header',
      'header syntax',
      'large body',
      'route',
      'header content-length',
      'header __proto__',
    ]);
  });

  it('sends a reply without Content-Length chunked, waiting for drain when the socket is full', async () => {
    server = await serve();
    const pool = new Pool(server.url, { connections: 1 });
    try {
      const { statusCode, headers, body } = await pool.request({ path: '/chunked', method: 'GET' });
      const text = await body.text();
      expect(statusCode).toBe(200);
      expect(headers['transfer-encoding']).toBe('chunked');
      expect(text.length).toBe(64 * 64 * 1024 + JSON.stringify(server.seen[0]).length);
      expect(text.endsWith(JSON.stringify(server.seen[0]))).toBe(true);
      expect(server.seen[0]!.fast).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('closes the connection after a reply that asks for it', async () => {
    const client = await serveAndConnect();
    client.socket.write(post('/close', 'bye'));
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(client.received()).toContain('\r\nConnection: close\r\n');
    expect(bodyOf(client.received())).toMatchObject({ body: 'bye', fast: true });
  });

  it('answers every request of a client that has ended its side, then ends the connection', async () => {
    const client = await serveAndConnect();
    client.socket.end(post('/slow', 'first') + post('/last', 'half'));
    await server.slowArrived();
    // The end arrives while the first request runs; the second must still be answered.
    await server.slowClientEnded();
    server.release();
    await client.closed;
    expect(await seenBy(client, 2)).toMatchObject([
      { url: '/slow', body: 'first', fast: true },
      { url: '/last', body: 'half', fast: true },
    ]);
  });

  it('closes an idle connection after the keep-alive timeout, but not one whose request is running', async () => {
    const client = await serveAndConnect(200);
    client.socket.write(post('/slow', 'long'));
    await server.slowArrived();
    // Twice the server's idle time with nothing sent either way: the running request keeps the connection.
    const first = await Promise.race([
      new Promise<string>((resolve) => client.socket.setTimeout(400, () => resolve('still open'))),
      client.closed.then(() => 'closed'),
    ]);
    client.socket.setTimeout(0);
    expect(first).toBe('still open');
    server.release();
    expect(await seenBy(client, 1)).toMatchObject([{ body: 'long', fast: true }]);
    // Now idle: the server closes it by itself.
    await client.closed;
  });

  it('refuses a reply header with a line break', async () => {
    const bare = http.createServer();
    let thrown!: (error: unknown) => void;
    const refused = new Promise<unknown>((resolve) => (thrown = resolve));
    const fastPath = installFastPath(
      bare,
      (_req, res) => {
        try {
          res.writeHead(200, { 'x-bad': 'a\r\nInjected: yes' });
        } catch (error) {
          thrown(error);
        }
      },
      { accepts: () => true, maxBodyBytes: 10, keepAliveTimeoutMs: 1000 },
    );
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const client = await rawConnection((bare.address() as AddressInfo).port);
    client.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(String(await refused)).toContain('line break');
    client.socket.destroy();
    // The reply never ended, so the connection is still the fast path's (a shutdown closes it the same way).
    fastPath.destroyConnections();
    await new Promise((resolve) => bare.close(resolve));
  });
});
