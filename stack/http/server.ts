// A small HTTP layer for the stack's services: routing on raw path segments, bearer/query-token auth, bounded
// body reading, and JSON replies. Every failure leaves as `{"error": "..."}` with a fitting status; only a bug
// gives a 500.
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { perTurn } from './per-turn';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface Reply {
  status?: number;
  /** Serialised as JSON unless `raw` is given. */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

export interface RequestContext {
  req: http.IncomingMessage;
  method: string;
  /** Path params, percent-decoded. `rest` holds the raw remainder for `*` patterns. */
  params: Record<string, string>;
  rest: string;
  /** The raw query string without the leading `?` (tokens included). */
  rawQuery: string;
  query: URLSearchParams;
  /** Peer address without the IPv4-mapped prefix. */
  remoteAddress: string;
  /** The token the request authenticated with (so that it is never forwarded). */
  token?: string;
  /**
   * Values worked out once per request, the same object in the context of every route the request passes (see
   * next()): what a route that hands a request on has worked out, the next route need not work out again — the
   * message service's collected headers, for one (requestHeaders in stack/messages/publish-request.ts). Each
   * module keys its values by a symbol of its own.
   */
  shared: Record<symbol, unknown>;
  /** Reads the whole body; 413 beyond the limit. */
  body(): Promise<Buffer>;
  /** Reads and parses a JSON body; 400 with the parser's reason when it is not JSON. */
  json(): Promise<unknown>;
  /**
   * The reply of the next route added for this method and path (404 if there is none): a route that takes
   * over a path for some requests hands the others on — the workflow service's /v2/publish takes the
   * publishes that carry a run id, and the message service's route, added after it, serves the rest.
   */
  next(): Promise<Reply>;
}

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
  /** Served without a token (the workflow service's webhook URLs, called by third parties). */
  open?: boolean;
}

/**
 * Patterns are `/`-separated: literals, `:name` for one percent-decoded segment, and a final `*` for the raw
 * remainder of the path (publish destinations are URLs that must not be decoded or normalised).
 */
export interface RouteMatch {
  handler: Handler;
  params: Record<string, string>;
  rest: string;
  open?: boolean;
  /** The route's place in the router (RequestContext.next continues after it). */
  index: number;
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler, options: { open?: boolean } = {}): this {
    this.routes.push({ method, segments: pattern.split('/').filter(Boolean), handler, open: options.open });
    return this;
  }

  /** The first route for `method` and `path` added after the route numbered `after` (all routes by default). */
  match(method: string, path: string, after = -1): RouteMatch | { allowed: string[] } | undefined {
    const segments = path.split('/').slice(1);
    let allowed: Set<string> | undefined; // only made for a method the path does not take (a 405)
    for (let index = after + 1; index < this.routes.length; index++) {
      const route = this.routes[index] as Route;
      const found = matchRoute(route.segments, segments, path);
      if (!found) continue;
      if (route.method === method) {
        return { handler: route.handler, open: route.open, index, params: found.params, rest: found.rest };
      }
      (allowed ??= new Set()).add(route.method);
    }
    return allowed ? { allowed: [...allowed] } : undefined;
  }
}

/** The params of a route without `:name` segments (never changed: decodeParams makes the context's copy). */
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

function matchRoute(
  pattern: string[],
  segments: string[],
  path: string,
): { params: Record<string, string>; rest: string } | undefined {
  // Made at the first `:name` only: every request is tried against most of the routes, and an object per try
  // was garbage the collector had to clear.
  let params: Record<string, string> | undefined;
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i] as string;
    if (part === '*') {
      // Everything after the first i segments, raw: `/v2/publish/https://a/b` → `https://a/b`. The segments are
      // the path's own pieces, so the remainder starts after their lengths and slashes (counted, not rebuilt
      // as a prefix string and compared: every publish comes through here twice).
      let start = 1;
      for (let k = 0; k < i; k++) start += (segments[k] as string).length + 1;
      if (path[0] !== '/' || start >= path.length) return undefined;
      return { params: params ?? NO_PARAMS, rest: path.slice(start) };
    }
    const segment = segments[i];
    if (segment === undefined) return undefined;
    if (part.startsWith(':')) {
      if (segment === '') return undefined;
      (params ??= {})[part.slice(1)] = segment;
    } else if (part !== segment) {
      return undefined;
    }
  }
  return segments.length === pattern.length ? { params: params ?? NO_PARAMS, rest: '' } : undefined;
}

function decodeParams(raw: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key in raw) {
    const value = raw[key] as string;
    try {
      params[key] = decodeURIComponent(value);
    } catch {
      throw new HttpError(400, `invalid percent-encoding in path segment '${value}'`);
    }
  }
  return params;
}

export interface HttpServiceOptions {
  router: Router;
  logger: Logger;
  maxBody: number;
  /** Returns the token requests must carry; undefined disables auth. */
  token: () => string | undefined;
  /** Query parameters that may carry the token instead of the Authorization header. */
  tokenParams: readonly string[];
  /** Returns why a request is refused (403) before anything else, or null. */
  guard?: (req: http.IncomingMessage) => string | null;
  timeouts?: RequestTimeouts;
  /** Largest request head (request line and headers) in bytes; Node's default (16 KB) otherwise. */
  maxHeaderSize?: number;
}

let lastExpected: { text: string; bytes: Buffer } | undefined;

/**
 * `given` equals `expected`, compared in constant time. The expected token is the same on every request, so
 * its bytes are made once (per token) rather than per request.
 */
function safeEqual(given: string, expected: string): boolean {
  if (lastExpected?.text !== expected) lastExpected = { text: expected, bytes: Buffer.from(expected) };
  const left = Buffer.from(given);
  const right = lastExpected.bytes;
  return left.length === right.length && timingSafeEqual(left, right);
}

function authenticate(
  req: http.IncomingMessage,
  query: URLSearchParams,
  options: HttpServiceOptions,
): string | undefined {
  const expected = options.token();
  if (expected === undefined) return undefined;
  const header = req.headers.authorization;
  let given: string | undefined;
  if (header !== undefined) {
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (!match) throw new HttpError(401, "invalid Authorization header: expected 'Bearer <token>'");
    given = (match[1] as string).trim();
  } else {
    for (const name of options.tokenParams) {
      const value = query.get(name);
      if (value !== null) {
        given = value;
        break;
      }
    }
  }
  if (given === undefined) {
    throw new HttpError(
      401,
      `missing token: send 'Authorization: Bearer <token>' or ?${options.tokenParams[0] ?? 'token'}=<token>`,
    );
  }
  if (!safeEqual(given, expected)) throw new HttpError(401, 'invalid token');
  return given;
}

function readBody(req: http.IncomingMessage, maxBody: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBody) {
    return Promise.reject(new HttpError(413, `request body is larger than the limit of ${maxBody} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > maxBody) {
        failed = true;
        reject(new HttpError(413, `request body is larger than the limit of ${maxBody} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      if (!failed) reject(new HttpError(400, `could not read the request body: ${error.message}`));
    });
  });
}

function send(res: http.ServerResponse, reply: Reply, closeConnection = false): void {
  if (res.headersSent || res.destroyed) return;
  const status = reply.status ?? 200;
  const headers: Record<string, string> = { ...reply.headers };
  let payload = '';
  if (reply.raw !== undefined) {
    payload = reply.raw;
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  } else if (reply.body !== undefined) {
    payload = JSON.stringify(reply.body);
    headers['content-type'] = 'application/json';
  }
  headers['content-length'] = String(Buffer.byteLength(payload));
  if (closeConnection) headers.connection = 'close';
  res.writeHead(status, headers);
  res.end(payload);
}

/** Shared by every request without a query string (nobody modifies it). */
const EMPTY_QUERY = new URLSearchParams();

/**
 * Refuses (400, naming it) the first parameter of a request that is not one of `known`. Bulk endpoints use it:
 * there an unknown filter (a typo, `labeel=x`) must never be ignored, or the action widens to everything.
 */
export function refuseUnknownParams(
  names: Iterable<string>,
  known: ReadonlySet<string>,
  where: string,
  /** Also accepted, but not worth listing in the error (the token's query parameters). */
  unlisted: readonly string[] = [],
): void {
  for (const name of names) {
    if (known.has(name) || unlisted.includes(name)) continue;
    const shown = name.length > 60 ? `${name.slice(0, 60)}…` : name;
    throw new HttpError(400, `unknown parameter '${shown}' for ${where}; it takes ${[...known].join(', ')}`);
  }
}

export function errorReply(status: number, message: string, headers?: Record<string, string>): Reply {
  return { status, body: { error: message }, headers };
}

/**
 * How long a client may take to send a request. Node's defaults (60 s for headers, 300 s for the whole
 * request, checked every 30 s) kept a stalled upload open for 330 s; on loopback a request that is not in
 * within these bounds is not coming.
 */
export interface RequestTimeouts {
  /** Time to receive the request line and headers; default 10 s. */
  headersTimeoutMs?: number;
  /** Time to receive the whole request, body included; default 60 s. */
  requestTimeoutMs?: number;
}

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export interface JsonServerOptions extends RequestTimeouts {
  /** Prefix of the error texts this layer writes (the KV service's errors start with `ERR `). */
  errorPrefix?: string;
  /** The methods the service serves, for the `Allow` header of a refused CONNECT. */
  allowedMethods: string;
  maxHeaderSize?: number;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** A whole response written straight to a socket the HTTP parser gave up on (or never handed a response). */
function rawJsonResponse(status: number, error: string, headers: Record<string, string> = {}): string {
  const body = JSON.stringify({ error });
  const lines = [`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}`, 'content-type: application/json'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  lines.push(`content-length: ${Buffer.byteLength(body)}`, 'connection: close');
  return lines.join('\r\n') + '\r\n\r\n' + body;
}

/** Why the parser refused a request, in words (llhttp's `reason`, e.g. "Invalid header value char"). */
function clientErrorReply(
  error: NodeJS.ErrnoException & { reason?: string },
  timeouts: Required<RequestTimeouts>,
): { status: number; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'request headers are too large' };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      message:
        `request not received in time (headers within ${timeouts.headersTimeoutMs / 1000} s, ` +
        `the whole request within ${timeouts.requestTimeoutMs / 1000} s)`,
    };
  }
  const reason = error.reason ?? error.message;
  return { status: 400, message: `malformed HTTP request: ${reason}${error.code ? ` (${error.code})` : ''}` };
}

/** How long an idle keep-alive connection stays open. */
export const KEEP_ALIVE_TIMEOUT_MS = 30_000;

/**
 * An HTTP server whose every answer is JSON, including the ones Node's HTTP layer gives by itself: malformed
 * requests (bad request line, Content-Length, chunk, CL+TE, oversized headers) and requests not received in
 * time get a JSON error from the `clientError` hook; CONNECT (which Node would drop without a word) gets a 405.
 */
export function createJsonServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  options: JsonServerOptions,
): http.Server {
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // Node refuses a headers timeout above the request timeout.
  const headersTimeoutMs = Math.min(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeoutMs);
  const timeouts = { headersTimeoutMs, requestTimeoutMs };
  const prefix = options.errorPrefix ?? '';
  const server = http.createServer(
    {
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // How often Node looks for requests over their time; its default (30 s) adds up to 30 s to each bound.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeoutMs / 2))),
      maxHeaderSize: options.maxHeaderSize,
    },
    handler,
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way cannot be replaced; a client that left needs no answer.
    const pending = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
    if (!socket.writable || pending?.headersSent || error.code === 'ECONNRESET') return socket.destroy();
    const { status, message } = clientErrorReply(error, timeouts);
    socket.end(rawJsonResponse(status, prefix + message));
  });
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(
      rawJsonResponse(405, `${prefix}method CONNECT is not allowed: this server is not a proxy`, {
        allow: options.allowedMethods,
      }),
    );
  });
  return server;
}

/**
 * Request handlers started in one turn of the event loop at most (see perTurn). 16, not 32: with 32, a burst of 1,000
 * publishes still held the loop over 100 ms in some runs of `npm run bench -- burst` (docs/stack-messages.md).
 */
export const HANDLERS_PER_TURN = 16;

export function createHttpService(options: HttpServiceOptions): http.Server {
  const admit = perTurn(HANDLERS_PER_TURN);
  return createJsonServer((req, res) => admit(() => void handle(req, res, options)), {
    ...options.timeouts,
    maxHeaderSize: options.maxHeaderSize,
    allowedMethods: 'GET, POST, PATCH, DELETE',
  });
}

async function handle(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: HttpServiceOptions,
): Promise<void> {
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const rawQuery = q < 0 ? '' : target.slice(q + 1);
  const method = (req.method ?? 'GET').toUpperCase();
  let bodyTooLarge = false;
  try {
    const refusal = options.guard?.(req);
    if (refusal) {
      options.logger.warn({ host: req.headers.host, origin: req.headers.origin }, `refused: ${refusal}`);
      throw new HttpError(403, refusal);
    }
    const matched = options.router.match(method, path);
    if (!matched)
      throw new HttpError(404, `not found: ${method} ${path.length > 200 ? path.slice(0, 200) + '…' : path}`);
    if ('allowed' in matched) {
      throw new HttpError(
        405,
        `method ${method} is not allowed here (allowed: ${matched.allowed.join(', ')})`,
        {
          allow: matched.allowed.join(', '),
        },
      );
    }
    const query = rawQuery === '' ? EMPTY_QUERY : new URLSearchParams(rawQuery);
    const token = matched.open ? undefined : authenticate(req, query, options);
    let bodyPromise: Promise<Buffer> | undefined;
    const body = (): Promise<Buffer> => (bodyPromise ??= readBody(req, options.maxBody));
    const json = async (): Promise<unknown> => {
      const text = (await body()).toString('utf8');
      if (text.trim() === '') throw new HttpError(400, 'request body is empty; expected JSON');
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new HttpError(400, `request body is not valid JSON: ${(error as Error).message}`);
      }
    };
    const peer = req.socket.remoteAddress ?? '';
    const remoteAddress = peer.startsWith('::ffff:') ? peer.slice(7) : peer;
    const shared: Record<symbol, unknown> = {};
    // Each route gets a context of its own (its params, its next()), written out rather than spread from a
    // common one: every publish passes through here once or twice (see next()), and a spread copies the object.
    const serve = (route: RouteMatch): Promise<Reply> | Reply =>
      route.handler({
        req,
        method,
        rawQuery,
        query,
        remoteAddress,
        token,
        shared,
        body,
        json,
        params: decodeParams(route.params),
        rest: route.rest,
        next: async () => {
          const following = options.router.match(method, path, route.index);
          if (!following || 'allowed' in following) throw new HttpError(404, `not found: ${method} ${path}`);
          return serve(following);
        },
      });
    const reply = await serve(matched);
    send(res, reply);
  } catch (error) {
    if (error instanceof HttpError) {
      bodyTooLarge = error.status === 413;
      send(res, errorReply(error.status, error.message, error.headers), bodyTooLarge);
    } else {
      options.logger.error({ err: error, method, path }, 'request failed');
      send(res, errorReply(500, `internal error: ${(error as Error).message}`));
    }
  }
  // An unread request body would otherwise be parsed as the next request on a keep-alive connection.
  if (!req.complete && !bodyTooLarge) req.resume();
}

export function listen(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stops accepting; idle connections close now, requests still running get `graceMs` to answer. */
export function closeServer(server: http.Server, graceMs = 2_000): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    if (graceMs <= 0) server.closeAllConnections();
    else setTimeout(() => server.closeAllConnections(), graceMs).unref();
  });
}

/**
 * `http://host:port` for clients on this machine: IPv6 hosts in brackets, and a wildcard bind (0.0.0.0, ::)
 * as 127.0.0.1, the address such a client can always use.
 */
export function baseUrl(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return `http://127.0.0.1:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
