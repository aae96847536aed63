// The one HTTP client main uses for a profile's KV REST API (the local stack or the cloud): every path
// (`/`, `/pipeline`, `/multi-exec`, `/monitor`, `/subscribe/…`), the reply formats (JSON, base64, raw RESP2)
// and their wire parsing. Which token is sent is decided here, once: a read-only profile sends its
// read-only token when it has one, so the server itself refuses writes with its own text.
import { Agent, request } from 'undici';
import { BridgeError } from '../../../../shared/bridge/errors';
import type { KvReplyEntry } from '../../../../shared/kv/command-line';
import { joinUrl } from '../../http/service-api';
import {
  networkError,
  serviceError,
  serviceErrorText,
  serviceRequest,
  type ServiceResponse,
} from '../../http/service-http';
import type { ResolvedProfile } from '../../profiles/profiles-service';
import { commandsOf, ownTraffic } from './own-traffic';

/** `json`: strings as UTF-8 text; `base64`: every string base64 (raw bytes); `resp2`: the raw protocol bytes. */
export type KvFormat = 'json' | 'base64' | 'resp2';

/** Which of the profile's tokens a client sends. */
export type KvAccess = 'standard' | 'readOnly';

export type KvArgs = readonly (string | number)[];

export interface KvCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** One command's answer as the workbench shows it: a result or the server's error, with timing. */
export type KvCommandReply =
  | { ok: true; result: unknown; status: number; ms: number }
  | { ok: false; error: string; status: number; ms: number };

/** A raw RESP2 answer: the bytes exactly as the server sent them. */
export interface KvRawReply {
  status: number;
  ms: number;
  bytes: Buffer;
  /** Set when the server refused the request as a whole (a JSON `{error}` instead of protocol bytes). */
  error?: string;
}

const PROBE_COMMAND = ['PING'];

// Streams (monitor, subscribe) stay open for as long as the user watches: no body timeout.
const streamAgent = new Agent({ bodyTimeout: 0, headersTimeout: 15_000, connectTimeout: 10_000 });

export class KvClient {
  readonly access: KvAccess;

  constructor(
    private readonly profile: ResolvedProfile,
    /** Force one token; by default the profile's read-only flag and which tokens exist decide. */
    access?: KvAccess,
  ) {
    this.access = access ?? chooseAccess(profile);
  }

  /** The full URL of a KV path (used by previews and the streams). */
  url(path: string): string {
    this.assertAvailable();
    const base = this.profile.settings.kvUrl;
    if (!base) {
      throw new BridgeError({
        code: 'NOT_CONFIGURED',
        message: `Profile "${this.profile.settings.name}" has no KV URL. Set one in Profiles.`,
      });
    }
    return joinUrl(base, path);
  }

  /** The token this client sends; for main-side uses only, never returned to the renderer. */
  token(): string {
    this.assertAvailable();
    const name = this.access === 'readOnly' ? 'kvReadOnlyToken' : 'kvToken';
    const token = this.profile.secret(name);
    if (!token) {
      throw new BridgeError({
        code: 'NOT_CONFIGURED',
        message: `Profile "${this.profile.settings.name}" has no ${
          this.access === 'readOnly' ? 'KV read-only token' : 'KV token'
        }. Add it in Profiles.`,
      });
    }
    return token;
  }

  /** The Local profile while its stack is not running: say so, not that the profile lacks a URL or token. */
  private assertAvailable(): void {
    const { unavailable } = this.profile;
    if (unavailable) throw new BridgeError({ code: 'UNREACHABLE', message: unavailable });
  }

  /**
   * One cheap request (`PING`), answered whatever its status: the profile's connection test. Sends the
   * profile's standard token when it has one and none otherwise, so a missing token shows as the server's
   * own refusal rather than a local error.
   */
  probe(timeoutMs: number): Promise<ServiceResponse> {
    const token = this.profile.secret('kvToken');
    return serviceRequest({
      url: this.probeUrl(),
      method: 'POST',
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'content-type': 'application/json',
      },
      body: JSON.stringify(PROBE_COMMAND),
      timeoutMs,
    });
  }

  probeUrl(): string {
    return this.url('/');
  }

  /** One command in the JSON body form (`POST /`); the server's `{error}` comes back as a reply, not thrown. */
  async command(args: KvArgs, format: 'json' | 'base64' = 'json', options: KvCallOptions = {}) {
    const response = await this.post('/', JSON.stringify(args.map(String)), format, options);
    return commandReply(response);
  }

  /** One command answered as raw RESP2 bytes. */
  async commandRaw(args: KvArgs, options: KvCallOptions = {}): Promise<KvRawReply> {
    return rawReply(await this.post('/', JSON.stringify(args.map(String)), 'resp2', options));
  }

  /**
   * One command in the path form with the last argument as the raw POST body: the only form that carries
   * binary values (JSON strings cannot). `query` arguments follow the value (`?NX` adds `NX`).
   */
  async callWithValue<T = unknown>(
    args: KvArgs,
    value: Buffer,
    query: readonly string[] = [],
    options: KvCallOptions = {},
  ): Promise<T> {
    const path = '/' + args.map((arg) => encodeURIComponent(String(arg))).join('/');
    const search = query.length ? `?${query.map((q) => encodeURIComponent(q)).join('&')}` : '';
    const base = this.profile.settings.kvUrl;
    if (base && ownTraffic.watching(base)) ownTraffic.note(base, [[...args, value, ...query]]);
    const response = await serviceRequest({
      url: this.url(path + search),
      method: 'POST',
      headers: { authorization: `Bearer ${this.token()}`, 'content-type': 'application/octet-stream' },
      body: value,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    if (response.status !== 200 && response.status !== 400) {
      throw serviceError(response);
    }
    const reply = commandReply(response);
    if (!reply.ok)
      throw new BridgeError({ code: 'SERVICE_ERROR', status: reply.status, message: reply.error });
    return reply.result as T;
  }

  /** One command; the result, or a SERVICE_ERROR carrying the server's own text. For main's own uses. */
  async call<T = unknown>(args: KvArgs, options: KvCallOptions = {}): Promise<T> {
    const reply = await this.command(args, 'json', options);
    if (!reply.ok)
      throw new BridgeError({ code: 'SERVICE_ERROR', status: reply.status, message: reply.error });
    return reply.result as T;
  }

  /** `call` with base64 replies: strings are the raw bytes, base64-encoded (binary-safe values). */
  async callBase64<T = unknown>(args: KvArgs, options: KvCallOptions = {}): Promise<T> {
    const reply = await this.command(args, 'base64', options);
    if (!reply.ok)
      throw new BridgeError({ code: 'SERVICE_ERROR', status: reply.status, message: reply.error });
    return reply.result as T;
  }

  /** `POST /pipeline`: one entry per row, in order; a failing row is an `{error}` entry. */
  async pipeline(
    rows: readonly KvArgs[],
    format: 'json' | 'base64' = 'json',
    options: KvCallOptions = {},
  ): Promise<{ entries: KvReplyEntry[]; status: number; ms: number }> {
    const response = await this.post('/pipeline', rowsBody(rows), format, options);
    return { entries: entriesOf(response, rows.length), status: response.status, ms: response.latencyMs };
  }

  /** `/pipeline` answered as raw RESP2: the replies concatenated, one per row. */
  async pipelineRaw(rows: readonly KvArgs[], options: KvCallOptions = {}): Promise<KvRawReply> {
    return rawReply(await this.post('/pipeline', rowsBody(rows), 'resp2', options));
  }

  /**
   * `POST /multi-exec`: one entry per row when the transaction ran (a failing row is an `{error}` entry,
   * the others still ran), or `discarded` with the server's text when it refused the whole transaction.
   * Transactions always answer JSON, so there is no RESP2 form.
   */
  async multiExec(
    rows: readonly KvArgs[],
    format: 'json' | 'base64' = 'json',
    options: KvCallOptions = {},
  ): Promise<
    | { entries: KvReplyEntry[]; status: number; ms: number }
    | { discarded: string; status: number; ms: number }
  > {
    const response = await this.post('/multi-exec', rowsBody(rows), format, options, true);
    if (response.status >= 400 && response.status !== 401) {
      return { discarded: serviceErrorText(response), status: response.status, ms: response.latencyMs };
    }
    return { entries: entriesOf(response, rows.length), status: response.status, ms: response.latencyMs };
  }

  /** `pipeline` for main's own rows: the entries, or SERVICE_ERROR when the request as a whole failed. */
  async pipelineEntries(
    rows: readonly KvArgs[],
    format: 'json' | 'base64' = 'json',
    options: KvCallOptions = {},
  ): Promise<KvReplyEntry[]> {
    if (rows.length === 0) return [];
    return (await this.pipeline(rows, format, options)).entries;
  }

  /**
   * Opens an SSE stream (`/monitor`, `/subscribe/<channel>`, `/psubscribe/<pattern>`) and yields each
   * event's `data:` payload. Ends when the server closes the stream; abort `signal` to close it.
   */
  async *events(path: string, signal: AbortSignal): AsyncGenerator<string> {
    this.noteOwn(path);
    let response;
    try {
      response = await request(this.url(path), {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token()}`, accept: 'text/event-stream' },
        signal,
        dispatcher: streamAgent,
      });
    } catch (error) {
      if (signal.aborted) return;
      throw networkError(this.url(path), error);
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const body = Buffer.from(await response.body.arrayBuffer());
      throw serviceError({ status: response.statusCode, headers: response.headers, body, latencyMs: 0 });
    }
    const parser = new SseDataParser();
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        for (const data of parser.push(chunk.toString('utf8'))) yield data;
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    }
  }

  /** Tells an open monitor on this URL what is about to be sent, so it can tag the console's own lines. */
  private noteOwn(path: string, body?: string): void {
    const base = this.profile.settings.kvUrl;
    if (base && ownTraffic.watching(base)) ownTraffic.note(base, commandsOf(path, body));
  }

  private async post(
    path: string,
    body: string,
    format: KvFormat,
    options: KvCallOptions,
    commandErrorsAreReplies = true,
  ): Promise<ServiceResponse> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.token()}`,
      'content-type': 'application/json',
    };
    if (format === 'base64') headers['upstash-encoding'] = 'base64';
    if (format === 'resp2') headers['upstash-response-format'] = 'resp2';
    this.noteOwn(path, body);
    const response = await serviceRequest({
      url: this.url(path),
      method: 'POST',
      headers,
      body,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    // 400 carries a command's own error (a reply); anything else non-2xx is the request failing as a whole.
    const isCommandError = commandErrorsAreReplies && response.status === 400;
    if ((response.status < 200 || response.status >= 300) && !isCommandError) {
      throw serviceError(response);
    }
    return response;
  }
}

/** A read-only profile sends its read-only token when it has one; a profile with only a read-only token uses it. */
export function chooseAccess(profile: ResolvedProfile): KvAccess {
  const hasStandard = Boolean(profile.secret('kvToken'));
  const hasReadOnly = Boolean(profile.secret('kvReadOnlyToken'));
  if (profile.settings.readOnly && hasReadOnly) return 'readOnly';
  if (!hasStandard && hasReadOnly) return 'readOnly';
  return 'standard';
}

function rowsBody(rows: readonly KvArgs[]): string {
  return JSON.stringify(rows.map((row) => row.map(String)));
}

function parseJson(response: ServiceResponse): unknown {
  const text = response.body.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BridgeError({
      code: 'SERVICE_ERROR',
      status: response.status,
      message: `The KV service answered with something that is not JSON: ${text.slice(0, 200)}`,
    });
  }
}

function commandReply(response: ServiceResponse): KvCommandReply {
  const parsed = parseJson(response);
  const ms = response.latencyMs;
  if (isObject(parsed) && typeof parsed.error === 'string') {
    return { ok: false, error: parsed.error, status: response.status, ms };
  }
  if (isObject(parsed) && 'result' in parsed)
    return { ok: true, result: parsed.result, status: response.status, ms };
  throw new BridgeError({
    code: 'SERVICE_ERROR',
    status: response.status,
    message: `The KV service answered without a result: ${response.body.toString('utf8').slice(0, 200)}`,
  });
}

function entriesOf(response: ServiceResponse, expected: number): KvReplyEntry[] {
  const parsed = parseJson(response);
  if (isObject(parsed) && typeof parsed.error === 'string') {
    throw new BridgeError({ code: 'SERVICE_ERROR', status: response.status, message: parsed.error });
  }
  if (!Array.isArray(parsed) || parsed.length !== expected) {
    throw new BridgeError({
      code: 'SERVICE_ERROR',
      status: response.status,
      message: `The KV service answered ${Array.isArray(parsed) ? `${parsed.length} entries` : 'no array'} for ${expected} commands.`,
    });
  }
  return parsed.map((entry): KvReplyEntry => {
    if (isObject(entry) && typeof entry.error === 'string') return { error: entry.error };
    if (isObject(entry) && 'result' in entry) return { result: entry.result };
    return { error: `unreadable entry: ${JSON.stringify(entry).slice(0, 100)}` };
  });
}

function rawReply(response: ServiceResponse): KvRawReply {
  const type = String(response.headers['content-type'] ?? '');
  const reply: KvRawReply = { status: response.status, ms: response.latencyMs, bytes: response.body };
  // A request refused before any command ran answers JSON even when RESP2 was asked for.
  if (type.includes('application/json')) {
    const parsed = parseJson(response);
    if (isObject(parsed) && typeof parsed.error === 'string') reply.error = parsed.error;
  }
  return reply;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Splits an SSE byte stream into the `data:` payloads of its events (multi-line data joined by \n). */
export class SseDataParser {
  private buffer = '';
  private data: string[] = [];

  push(text: string): string[] {
    this.buffer += text;
    const out: string[] = [];
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      let line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        if (this.data.length) out.push(this.data.join('\n'));
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      if (line.startsWith('data:')) {
        const payload = line.slice(5).replace(/^ /, '');
        this.data.push(payload);
      }
    }
    return out;
  }
}
