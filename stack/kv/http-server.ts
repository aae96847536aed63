// The REST front door: routing, tokens, limits, reply formats, CORS and the sync-token header.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

import { RedisAuthError, RedisUnavailableError } from './connection';
import { entryJson, errorJson } from './encode';
import type { CommandList } from './commands';
import { ArgsList } from './commands';
import { BadRequestError, JsonCommandBatch, parseCommandBody, parseCommandsBody } from './json-args';
import type { Backend } from './pool';
import { changesAclUsers, commandName, explainError, hasRule, isRestTokenCommand, refusal } from './policy';
import type { DailyQuota } from './quota';
import { DAILY_LIMIT_ERROR, REQUEST_SIZE_ERROR } from './quota';
import type { ParsedUrl } from './request';
import { parseUrl, pathCommand, route } from './request';
import type { RespArg, RespValue } from './resp';
import { encodeCommands, encodeReply, RespError } from './resp';
import type { SseOptions } from './sse';
import { monitorLine, SseStream } from './sse';

export interface Principal {
  backend: Backend;
}

export interface KvHandlerContext {
  authenticate(token: string): Principal | undefined;
  /** `ACL RESTTOKEN user password`: a token string (bulk) or the documented error. */
  restToken(user: RespArg, password: RespArg): Promise<RespValue>;
  /** A successful ACL SETUSER/DELUSER passed through (the managed Redis saves its ACL file). */
  aclChanged(): void;
  quota: DailyQuota | undefined;
  maxRequestBytes: number;
  sse: SseOptions;
  logger: Logger;
}

export const UNAUTHORIZED_ERROR = 'WRONGPASS invalid or missing auth token';

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

/** A reply as the bridge returns it: the value, and its RESP2 bytes when Redis produced it as is. */
interface Result {
  value: RespValue;
  raw?: Buffer;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

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

export interface StreamStats {
  /** SSE streams open now. */
  open: number;
  /** Lines dropped for slow clients, over all streams. */
  dropped: number;
  /** The most bytes any stream ever had waiting for its client. */
  maxBuffered: number;
}

export interface RequestHandler {
  handle(req: IncomingMessage, res: ServerResponse): void;
  streamStats(): StreamStats;
}

export function createRequestHandler(ctx: KvHandlerContext): RequestHandler {
  const nextSyncToken = syncTokens();
  const openStreams = new Set<SseStream>();
  const closedStats = { dropped: 0, maxBuffered: 0 };

  function headers(contentType: string | undefined): Record<string, string> {
    const h: Record<string, string> = {
      'upstash-sync-token': nextSyncToken(),
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'upstash-sync-token',
    };
    if (contentType) h['content-type'] = contentType;
    return h;
  }

  function sendJson(res: ServerResponse, status: number, body: string, extra?: Record<string, string>): void {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { ...headers('application/json'), ...extra });
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
      return sendError(res, 503, `${error.message} (the KV service retries by itself once Redis is back)`);
    }
    ctx.logger.error({ err: error }, 'kv: request failed');
    sendError(res, 500, `ERR internal error: ${(error as Error).message}`);
  }

  /** Runs commands on a shared connection; refused commands and bridge extensions are answered here. */
  async function run(principal: Principal, commands: CommandList): Promise<Result[]> {
    const count = commands.length;
    const results: (Result | undefined)[] = new Array<Result | undefined>(count);
    const granted = ctx.quota ? ctx.quota.take(count) : count;
    const sentAt: number[] = [];
    const sentNames: string[] = [];
    const local: Promise<void>[] = [];
    for (let i = 0; i < count; i++) {
      if (i >= granted) {
        results[i] = { value: new RespError(DAILY_LIMIT_ERROR) };
        continue;
      }
      const name = commands.name(i);
      // Arguments are only looked at for the few commands that have a rule (most have none).
      const args = hasRule(name) ? commands.args(i) : undefined;
      const refused = args && refusal(args, name);
      if (refused) {
        results[i] = { value: new RespError(refused) };
      } else if (args && isRestTokenCommand(args, name)) {
        if (args.length !== 4) {
          results[i] = { value: new RespError("ERR wrong number of arguments for 'acl|resttoken' command") };
          continue;
        }
        local.push(
          ctx.restToken(args[2]!, args[3]!).then((value) => {
            results[i] = { value };
          }),
        );
      } else {
        sentAt.push(i);
        sentNames.push(name);
      }
    }
    // Settled before anything below can throw, so a failing RESTTOKEN is never an unhandled rejection.
    const localDone = Promise.all(local);
    localDone.catch(() => {});
    if (sentAt.length > 0) {
      const connection = await principal.backend.sharedConnection();
      const replies = await connection.send(commands.encode(sentAt), sentAt.length);
      for (let j = 0; j < replies.length; j++) {
        const reply = replies[j]!;
        const name = sentNames[j]!;
        const i = sentAt[j]!;
        if (reply.value instanceof RespError) {
          const message = explainError(name, reply.value.message);
          results[i] = message === reply.value.message ? reply : { value: new RespError(message) };
        } else {
          results[i] = reply;
          if (name === 'acl' && changesAclUsers(commands.args(i), name)) ctx.aclChanged();
        }
      }
    }
    await localDone;
    return results as Result[];
  }

  /** MULTI … EXEC on a connection of its own. A transaction discarded as a whole throws HttpError(400). */
  async function transaction(principal: Principal, commands: RespArg[][]): Promise<RespValue[]> {
    if (ctx.quota && !ctx.quota.takeAll(commands.length)) throw new HttpError(400, DAILY_LIMIT_ERROR);
    for (const args of commands) {
      const refused = isRestTokenCommand(args)
        ? `ERR 'acl resttoken' is not supported inside a transaction`
        : refusal(args);
      if (refused) throw new HttpError(400, refused);
    }
    const connection = await principal.backend.exclusive();
    let clean = false;
    try {
      // MULTI is confirmed before anything else is sent: if it failed (e.g. the user may not run it),
      // the commands would otherwise run one by one, outside any transaction.
      const multi = await connection.call(['MULTI']);
      if (multi.value instanceof RespError) {
        clean = true;
        throw new HttpError(400, multi.value.message);
      }
      const replies = await connection.send(encodeCommands([...commands, ['EXEC']]), commands.length + 1);
      clean = true;
      for (let i = 0; i < commands.length; i++) {
        const queued = replies[i]!.value;
        // A command refused at queue time discards the transaction; its own error says more than EXECABORT.
        if (queued instanceof RespError) {
          throw new HttpError(400, explainError(commandName(commands[i]!), queued.message));
        }
      }
      const exec = replies[commands.length]!.value;
      if (exec instanceof RespError) throw new HttpError(400, exec.message);
      if (!Array.isArray(exec)) throw new HttpError(400, 'ERR transaction aborted');
      if (commands.some((args) => changesAclUsers(args))) ctx.aclChanged();
      return exec;
    } finally {
      principal.backend.release(connection, clean);
    }
  }

  /** Reads a body up to `budget` bytes; beyond that it stops reading (the connection is then closed). */
  function readBody(req: IncomingMessage, budget: number): Promise<Buffer> {
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

  async function stream(
    principal: Principal,
    kind: 'monitor' | 'subscribe' | 'psubscribe',
    channel: RespArg | undefined,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    if (ctx.quota && ctx.quota.take(1) === 0) throw new HttpError(400, DAILY_LIMIT_ERROR);
    let gone = false;
    res.once('close', () => {
      gone = true;
    });
    const connection = await principal.backend.dedicatedConnection();
    if (gone) {
      connection.close();
      return;
    }
    res.once('close', () => connection.close());
    const command: RespArg[] =
      kind === 'monitor' ? ['MONITOR'] : [kind === 'subscribe' ? 'SUBSCRIBE' : 'PSUBSCRIBE', channel!];
    let first: RespValue;
    try {
      first = (await connection.call(command)).value;
    } catch (error) {
      connection.close();
      throw error;
    }
    if (first instanceof RespError) {
      connection.close();
      throw new HttpError(400, first.message);
    }
    if (gone) return;
    res.writeHead(200, {
      ...headers('text/event-stream'),
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    res.flushHeaders();
    const sse = new SseStream(res, ctx.sse);
    openStreams.add(sse);
    res.once('close', () => {
      sse.stop();
      openStreams.delete(sse);
      closedStats.dropped += sse.droppedTotal;
      closedStats.maxBuffered = Math.max(closedStats.maxBuffered, sse.maxBuffered);
    });
    connection.onClose(() => sse.fail('ERR connection to Redis lost'));
    if (kind === 'monitor') {
      sse.send('"OK"');
      connection.onPush = ({ value }) => {
        if (typeof value !== 'string') return;
        const line = monitorLine(value);
        if (line !== undefined) sse.send(line);
      };
      return;
    }
    const [, name, count] = first as RespValue[];
    sse.send(`${kind},${text(name)},${text(count)}`);
    connection.onPush = ({ value }) => {
      if (!Array.isArray(value)) return;
      sse.send(value.map(text).join(','));
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
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
    const principal = ctx.authenticate(bearer(req.headers.authorization) ?? url.token ?? '');
    if (!principal) return sendError(res, 401, UNAUTHORIZED_ERROR);

    const target = route(url.path);
    if (target.kind === 'monitor') return stream(principal, 'monitor', undefined, req, res);
    if (target.kind === 'subscribe') {
      return stream(principal, target.pattern ? 'psubscribe' : 'subscribe', target.channel, req, res);
    }

    const { base64, resp2 } = replyFormat(req);
    const budget = ctx.maxRequestBytes - (req.url?.length ?? 0);
    if (budget < 0) throw new HttpError(400, REQUEST_SIZE_ERROR);
    const hasBody = method === 'POST' || method === 'PUT';
    const body = hasBody ? await readBody(req, budget) : undefined;

    if (target.kind === 'multi-exec') {
      const commands = parseCommandsBody(body ?? Buffer.alloc(0));
      const entries = await transaction(principal, commands);
      // Transactions always answer JSON (the hosted service does the same).
      return sendJson(res, 200, `[${entries.map((e) => entryJson(e, base64)).join(',')}]`);
    }
    if (target.kind === 'pipeline') {
      const results = await run(principal, JsonCommandBatch.parse(body ?? Buffer.alloc(0)));
      if (resp2) return sendResp2(res, 200, results);
      let out = '[';
      for (let i = 0; i < results.length; i++)
        out += (i > 0 ? ',' : '') + entryJson(results[i]!.value, base64);
      return sendJson(res, 200, out + ']');
    }
    let args: RespArg[];
    if (target.kind === 'body') {
      if (!body || body.length === 0) {
        throw new HttpError(
          400,
          'ERR no command: use /<command>/<arg>/…, a JSON array body on /, /pipeline or /multi-exec',
        );
      }
      args = parseCommandBody(body);
    } else {
      args = pathCommand(target.args, body, url);
    }
    const [result] = await run(principal, new ArgsList([args]));
    const failed = result!.value instanceof RespError;
    if (resp2) return sendResp2(res, failed ? 400 : 200, [result!]);
    if (failed) return sendError(res, 400, (result!.value as RespError).message);
    sendJson(res, 200, entryJson(result!.value, base64));
  }

  function sendResp2(res: ServerResponse, status: number, results: Result[]): void {
    const parts = results.map((r) => r.raw ?? encodeReply(r.value));
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
    streamStats() {
      let { dropped, maxBuffered } = closedStats;
      for (const s of openStreams) {
        dropped += s.droppedTotal;
        maxBuffered = Math.max(maxBuffered, s.maxBuffered);
      }
      return { open: openStreams.size, dropped, maxBuffered };
    },
  };
}

function bearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : undefined;
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

function text(value: RespValue | undefined): string {
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return value === undefined || value === null || value instanceof RespError ? '' : String(value);
}
