// The browser host: serves the renderer and carries the bridge over a WebSocket on 127.0.0.1. A socket
// is accepted only with this launch's secret, from our own origin, addressed to the loopback host and
// port (a foreign Host header means DNS rebinding; a foreign Origin means another site's page).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import type { ClientFrame } from '../../shared/bridge/frames';
import { BridgeSession } from '../core/bridge/session';
import type { Router } from '../core/bridge/router';
import type { Logger } from '../core/logger';
import { browserHostPolicy, serveStatic } from './static-files';

export interface WebHostOptions {
  router: Router;
  rendererDir: string;
  /** 0 picks a free port. */
  port: number;
  logger: Logger;
  /** Extra origins (and their hosts) allowed to open the socket: the Vite dev server in `npm run dev`. */
  extraOrigins?: string[];
  /** Fixed secret (tests); random per launch by default. */
  secret?: string;
}

export interface WebHost {
  /** The URL to open: carries the secret in its fragment, which browsers never send to servers. */
  url: string;
  origin: string;
  port: number;
  secret: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
/** Above this much unsent data on a socket, stream batches wait (the bounded buffer absorbs them). */
const CONGESTED_BYTES = 1 << 20;

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const secret = options.secret ?? randomBytes(24).toString('base64url');
  let csp = '';
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  const server: Server = createServer((req, res) => serveStatic(options.rendererDir, csp, req, res));
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });

  server.on('upgrade', (req, socket, head) => {
    const refusal = checkUpgrade(req.url, req.headers.host, req.headers.origin);
    if (refusal) {
      options.logger.warn(
        { url: redact(req.url), host: req.headers.host, origin: req.headers.origin },
        `bridge socket refused: ${refusal}`,
      );
      socket.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refusal}\n`,
      );
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => attach(ws));
  });

  function checkUpgrade(
    url: string | undefined,
    host: string | undefined,
    origin: string | undefined,
  ): string | null {
    const parsed = new URL(url ?? '/', 'http://placeholder');
    if (parsed.pathname !== '/bridge') return 'unknown path';
    if (!host || !allowedHosts.has(host.toLowerCase())) return 'Host is not this loopback address and port';
    if (!origin || !allowedOrigins.has(origin.toLowerCase())) return 'Origin is not this console';
    // Exactly one value: with `?secret=right&secret=wrong` (or the reverse) no single reading is "the"
    // secret, so neither is accepted.
    const values = parsed.searchParams.getAll('secret');
    if (values.length !== 1) return values.length === 0 ? 'missing secret' : 'more than one secret';
    const given = Buffer.from(values[0]!);
    const expected = Buffer.from(secret);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'wrong secret';
    return null;
  }

  function attach(ws: WebSocket): void {
    const session = new BridgeSession(
      options.router,
      (frame) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
      },
      { isCongested: () => ws.bufferedAmount > CONGESTED_BYTES },
    );
    ws.on('message', (data) => {
      let frame: ClientFrame;
      try {
        frame = JSON.parse(data.toString()) as ClientFrame;
      } catch {
        ws.close(1003, 'frames must be JSON');
        return;
      }
      if (!isClientFrame(frame)) {
        ws.close(1003, 'not a bridge frame');
        return;
      }
      session
        .receive(frame)
        .catch((error: unknown) => options.logger.error({ err: error }, 'bridge frame failed'));
    });
    // A closed tab stops its streams at once (monitor connections, watches).
    ws.on('close', () => session.dispose());
    ws.on('error', () => session.dispose());
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  const extraHosts = (options.extraOrigins ?? []).map((origin) => new URL(origin).host);
  allowedHosts = new Set(
    [`127.0.0.1:${port}`, `localhost:${port}`, ...extraHosts].map((h) => h.toLowerCase()),
  );
  allowedOrigins = new Set([...origins, ...(options.extraOrigins ?? [])].map((o) => o.toLowerCase()));
  csp = browserHostPolicy(origins);

  return {
    url: `http://127.0.0.1:${port}/#secret=${secret}`,
    origin: origins[0]!,
    port,
    secret,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function isClientFrame(value: unknown): value is ClientFrame {
  if (typeof value !== 'object' || value === null) return false;
  const frame = value as { type?: unknown; id?: unknown; name?: unknown; confirmed?: unknown };
  if (!Number.isSafeInteger(frame.id)) return false;
  if (frame.type === 'close') return true;
  if (frame.type === 'start') return Number.isSafeInteger(frame.confirmed);
  return (frame.type === 'call' || frame.type === 'open') && typeof frame.name === 'string';
}

function redact(url: string | undefined): string | undefined {
  return url?.replace(/secret=[^&]*/g, 'secret=…');
}
