// The REST front door: routing, tokens, request size, reply formats, CORS and the sync-token header.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

import type { BrowserGuard } from '../security/browser-guard';
import type { CommandList } from './commands';
import { RedisAuthError, RedisUnavailableError } from './connection';
import { entriesJson, entryJson, errorJson } from './encode';
import { wholeBody } from '../http/fast-path';
import { HttpError } from '../http/server';
import type { ClientLabels } from './client-labels';
import type { ExecutorContext, Principal, Results } from './execute';
import { createExecutor } from './execute';
import { BadRequestError, JsonCommandBatch, parseCommandsBody } from './json-args';
import { REQUEST_SIZE_ERROR } from './quota';
import type { ParsedUrl } from './request';
import { parseUrl, pathCommand, route } from './request';
import { encodeReply, RespError } from './resp';
import type { Piece } from './reply-stream';
import { entriesPieces, entryPieces, isLargeReply, writePieces } from './reply-stream';
import type { SseOptions } from './sse';
import type { StreamStats } from './streams';
import { createStreams } from './streams';

export interface KvHandlerContext extends ExecutorContext {
  /** The principal of a token, for the caller at `remoteAddress` (MONITOR lines name it). */
  authenticate(token: string, remoteAddress: string | undefined): Principal | undefined;
  clientLabels?: Pick<ClientLabels, 'of' | 'hidden'>;
  /** Refuses requests from web pages and foreign Host names while the stack is on loopback. */
  guard: BrowserGuard;
  maxRequestBytes: number;
  sse: SseOptions;
  logger: Logger;
}

export const UNAUTHORIZED_ERROR = 'WRONGPASS invalid or missing auth token';

/** Retry-After of a 503 while Redis is unavailable (it is restarted or reconnected within about a second). */
const RETRY_AFTER_SECONDS = 1;

const CORS_ALLOW_HEADERS = [
  'authorization',
  'content-type',
  'upstash-encoding',
  'upstash-response-format',
  'upstash-sync-token',
  'upstash-telemetry-runtime',
  'upstash-telemetry-platform',
  'upstash-telemetry-sdk',
  'upstash-telemetry-retry',
  'svc-encoding',
  'svc-response-format',
  'cache-control',
  'accept',
].join(', ');

/**
 * The read-your-writes token. There is a single primary, so incoming tokens need no waiting; the header
 * only has to change on every response (the SDK's tests check that). A per-start prefix keeps values
 * unique across restarts.
 */
function syncTokens(): () => string {
  const prefix = Date.now().toString(36);
  let n = 0;
  return () => `${prefix}-${++n}`;
}

export interface RequestHandler {
  handle(req: IncomingMessage, res: ServerResponse): void;
  streamStats(): StreamStats;
}

export function createRequestHandler(ctx: KvHandlerContext): RequestHandler {
  const nextSyncToken = syncTokens();
  const executor = createExecutor(ctx);
  const streams = createStreams({
    quota: ctx.quota,
    sse: ctx.sse,
    headers,
    scripts: ctx.scripts,
    clientLabels: ctx.clientLabels,
  });

  function headers(contentType: string | undefined): Record<string, string> {
    const h: Record<string, string> = {
      'upstash-sync-token': nextSyncToken(),
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'upstash-sync-token',
    };
    if (contentType) h['content-type'] = contentType;
    return h;
  }

  function sendJson(
    res: ServerResponse,
    status: number,
    body: string | Buffer,
    extra?: Record<string, string>,
  ): void {
    if (res.headersSent || res.destroyed) return;
    // Why Content-Length: after writeHead without it, node:http frames the body in chunked encoding, so
    // every response carried a length line, a CRLF and a closing `0` chunk as extra pieces of its socket
    // write. Every reply sent here is whole in memory, so its length is known.
    const h = headers('application/json');
    h['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
    res.writeHead(status, extra ? { ...h, ...extra } : h);
    res.end(body);
  }

  function sendError(
    res: ServerResponse,
    status: number,
    message: string,
    extra?: Record<string, string>,
  ): void {
    sendJson(res, status, errorJson(message), extra);
  }

  function fail(res: ServerResponse, error: unknown): void {
    if (error instanceof HttpError) return sendError(res, error.status, error.message);
    if (error instanceof BadRequestError) return sendError(res, 400, error.message);
    if (error instanceof RedisAuthError) return sendError(res, 401, error.message);
    if (error instanceof RedisUnavailableError) {
      // Temporary: unreachable, restarting or still loading its data. Clients may try again shortly.
      return sendError(res, 503, `${error.message} (the KV service retries by itself once Redis is back)`, {
        'retry-after': String(RETRY_AFTER_SECONDS),
      });
    }
    ctx.logger.error({ err: error }, 'kv: request failed');
    sendError(res, 500, `ERR internal error: ${(error as Error).message}`);
  }

  /** Reads a body up to `budget` bytes; beyond that it stops reading (the connection is then closed). */
  function readBody(req: IncomingMessage, budget: number): Promise<Buffer> {
    // The fast path has read the whole body already (stack/http/fast-path.ts).
    const whole = wholeBody(req);
    if (whole) {
      return whole.length > budget
        ? Promise.reject(new HttpError(400, REQUEST_SIZE_ERROR))
        : Promise.resolve(whole);
    }
    return new Promise((resolve, reject) => {
      if (Number(req.headers['content-length']) > budget) {
        reject(new HttpError(400, REQUEST_SIZE_ERROR));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (size > budget) {
          req.off('data', onData);
          req.off('end', onEnd);
          req.pause();
          reject(new HttpError(400, REQUEST_SIZE_ERROR));
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = (): void => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', reject);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const refusal = ctx.guard(req);
    if (refusal) {
      ctx.logger.warn({ host: req.headers.host, origin: req.headers.origin }, `kv: refused: ${refusal}`);
      return sendError(res, 403, `ERR ${refusal}`);
    }
    if (method === 'OPTIONS') {
      res.writeHead(204, {
        ...headers(undefined),
        'access-control-allow-methods': 'GET, HEAD, POST, PUT, OPTIONS',
        'access-control-allow-headers': CORS_ALLOW_HEADERS,
        'access-control-max-age': '86400',
      });
      res.end();
      return;
    }
    if (method !== 'GET' && method !== 'POST' && method !== 'PUT' && method !== 'HEAD') {
      return sendError(res, 405, `ERR method ${method} not allowed: use GET, HEAD, POST or PUT`, {
        allow: 'GET, HEAD, POST, PUT, OPTIONS',
      });
    }
    const url: ParsedUrl = parseUrl(req.url ?? '/');
    const principal = ctx.authenticate(
      bearer(req.headers.authorization) ?? url.token ?? '',
      req.socket.remoteAddress,
    );
    if (!principal) return sendError(res, 401, UNAUTHORIZED_ERROR);

    const target = route(url.path);
    if (target.kind === 'monitor') return streams.open(principal, 'monitor', undefined, req, res);
    if (target.kind === 'subscribe') {
      return streams.open(principal, target.pattern ? 'psubscribe' : 'subscribe', target.channel, req, res);
    }

    const { base64, resp2 } = replyFormat(req);
    const budget = ctx.maxRequestBytes - (req.url?.length ?? 0);
    if (budget < 0) throw new HttpError(400, REQUEST_SIZE_ERROR);
    const hasBody = method === 'POST' || method === 'PUT';
    const body = hasBody ? await readBody(req, budget) : undefined;

    if (target.kind === 'multi-exec') {
      const { commands, longestArg } = parseCommandsBody(body ?? Buffer.alloc(0));
      const entries = await executor.transaction(principal, commands, longestArg);
      // Transactions always answer JSON (the hosted service does the same).
      if (entries.some(isLargeReply)) return streamJson(res, entriesPieces(entries, base64));
      return sendJson(res, 200, entriesJson(entries, base64));
    }
    if (target.kind === 'pipeline') {
      const commands = JsonCommandBatch.parse(body ?? Buffer.alloc(0));
      // Plain JSON (what the SDK asks for): the body straight from Redis's reply bytes where it can be.
      const results =
        resp2 || base64
          ? await executor.run(principal, commands, resp2)
          : await executor.runJson(principal, commands, true);
      if (!('values' in results)) return sendJson(res, 200, results.body);
      if (resp2) return sendResp2(res, 200, results);
      if (results.values.some(isLargeReply)) return streamJson(res, entriesPieces(results.values, base64));
      return sendJson(res, 200, entriesJson(results.values, base64));
    }
    let command: CommandList;
    if (target.kind === 'body') {
      if (!body || body.length === 0) {
        throw new HttpError(
          400,
          'ERR no command: use /<command>/<arg>/…, a JSON array body on /, /pipeline or /multi-exec',
        );
      }
      command = JsonCommandBatch.parseOne(body);
    } else {
      command = pathCommand(target.args, body, url);
    }
    let results: Results;
    if (resp2 || base64) {
      results = await executor.run(principal, command, resp2);
    } else {
      // Plain JSON (what the SDK asks for): the body straight from Redis's reply bytes, as for /pipeline.
      const answer = await executor.runJson(principal, command, false);
      if (!('values' in answer)) return sendJson(res, answer.errors > 0 ? 400 : 200, answer.body);
      results = answer;
    }
    const value = results.values[0]!;
    if (resp2) return sendResp2(res, value instanceof RespError ? 400 : 200, results);
    if (value instanceof RespError) return sendError(res, 400, value.message);
    if (isLargeReply(value)) return streamJson(res, entryPieces(value, base64));
    sendJson(res, 200, entryJson(value, base64));
  }

  /** A big reply, encoded and written piece by piece (reply-stream.ts). */
  function streamJson(res: ServerResponse, pieces: Iterable<Piece>): Promise<void> {
    if (res.headersSent || res.destroyed) return Promise.resolve();
    return writePieces(res, 200, headers('application/json'), pieces);
  }

  function sendResp2(res: ServerResponse, status: number, { values, raws }: Results): void {
    const parts = values.map((value, i) => raws?.[i] ?? encodeReply(value));
    res.writeHead(status, headers('application/octet-stream'));
    res.end(parts.length === 1 ? parts[0] : Buffer.concat(parts));
  }

  return {
    handle(req, res) {
      handle(req, res).catch((error: unknown) => {
        if (error instanceof HttpError && error.message === REQUEST_SIZE_ERROR) {
          // The rest of the body is not read; close the connection rather than drain it.
          sendError(res, 400, REQUEST_SIZE_ERROR, { connection: 'close' });
          return;
        }
        fail(res, error);
      });
    },
    streamStats: () => streams.stats(),
  };
}

/** The last Authorization header and its token: a client sends the same header on every request. */
let lastAuthorization = '';
let lastBearer: string | undefined;

function bearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  if (header === lastAuthorization) return lastBearer;
  const m = /^bearer\s+(\S+)\s*$/i.exec(header);
  lastAuthorization = header;
  lastBearer = m ? m[1] : undefined;
  return lastBearer;
}

function replyFormat(req: IncomingMessage): { base64: boolean; resp2: boolean } {
  const encoding = one(req.headers['upstash-encoding'] ?? req.headers['svc-encoding']);
  const format = one(req.headers['upstash-response-format'] ?? req.headers['svc-response-format']);
  const base64 = encoding !== undefined && encoding.trim().toLowerCase() === 'base64';
  let resp2 = false;
  if (format !== undefined) {
    const f = format.trim().toLowerCase();
    if (f === 'resp2') resp2 = true;
    else if (f !== 'json') {
      throw new HttpError(400, `ERR invalid Upstash-Response-Format '${format}': use json or resp2`);
    }
  }
  if (resp2 && base64) {
    throw new HttpError(
      400,
      'ERR Upstash-Response-Format resp2 cannot be combined with Upstash-Encoding base64',
    );
  }
  return { base64, resp2 };
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
