// Every HTTP call main makes to a service goes through here: one keep-alive undici agent, timings, and
// network failures turned into readable BridgeErrors (UNREACHABLE, or TIMEOUT for a service that does not
// answer in time) instead of bare socket codes.
import { Agent, request } from 'undici';
import { BridgeError } from '../../../shared/bridge/errors';
import { waitFromHeaderValue } from '../../../shared/retry-after';
import { currentCallSignal } from '../bridge/call-signal';

const agent = new Agent({ keepAliveTimeout: 30_000, connectTimeout: 10_000 });

export interface ServiceRequest {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Whole-request deadline. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ServiceResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  latencyMs: number;
}

export async function serviceRequest(req: ServiceRequest): Promise<ServiceResponse> {
  const started = performance.now();
  const timeoutMs = req.timeoutMs ?? 30_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  // A request of a bridge call stops when the renderer stops waiting for that call.
  const stop = req.signal ?? currentCallSignal();
  const signal = stop ? AbortSignal.any([stop, timeout]) : timeout;
  try {
    const response = await request(req.url, {
      method: req.method ?? 'GET',
      headers: req.headers,
      body: req.body,
      signal,
      dispatcher: agent,
    });
    const body = Buffer.from(await response.body.arrayBuffer());
    return {
      status: response.statusCode,
      headers: response.headers,
      body,
      latencyMs: performance.now() - started,
    };
  } catch (error) {
    if (stop?.aborted) throw new BridgeError({ code: 'CANCELLED', message: 'Request cancelled.' });
    throw networkError(req.url, error, timeout.aborted ? timeoutMs : undefined);
  }
}

/**
 * A request that got no answer as a BridgeError in words: TIMEOUT when the deadline (`timedOutAfterMs`, or
 * undici's own connect or header deadline) passed, UNREACHABLE for anything else (refused, reset, DNS, TLS).
 */
export function networkError(url: string, error: unknown, timedOutAfterMs?: number): BridgeError {
  const code = findCode(error);
  const timedOut =
    timedOutAfterMs !== undefined || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT';
  return new BridgeError({
    code: timedOut ? 'TIMEOUT' : 'UNREACHABLE',
    message: describeNetworkError(url, error, timedOutAfterMs),
    // The code alone (the message says the host): whether the request can have reached the service.
    ...(code !== undefined && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? { networkCode: code } : {}),
  });
}

/**
 * The headers in which a service says how long to wait, in the order read: the standard one, then the message
 * service's rate-limit resets (per second on its list and admin endpoints, per day on publishing).
 */
const RETRY_AFTER_HEADERS = ['retry-after', 'burst-ratelimit-reset', 'ratelimit-reset', 'x-ratelimit-reset'];

/**
 * How long a service answering 429 (rate limited) or 503 (unavailable for now) asked to be left alone, in ms;
 * undefined for other answers or when it did not say. A job waits at least this long before asking again.
 */
export function retryAfterOf(response: Pick<ServiceResponse, 'status' | 'headers'>, now = Date.now()) {
  if (response.status !== 429 && response.status !== 503) return undefined;
  for (const name of RETRY_AFTER_HEADERS) {
    const value = response.headers[name];
    const ms = waitFromHeaderValue(Array.isArray(value) ? value[0] : value, now);
    if (ms !== undefined) return ms;
  }
  return undefined;
}

/** A service's non-2xx answer as the bridge error every client throws: its status, text and wait. */
export function serviceError(response: ServiceResponse): BridgeError {
  return new BridgeError({
    code: 'SERVICE_ERROR',
    status: response.status,
    message: serviceErrorText(response),
    retryAfterMs: retryAfterOf(response),
  });
}

/**
 * The service's own error text: `{"error": "..."}` when it sent one, else the body, shortened — or, for a web
 * page (a proxy or gateway in front of the service answered: "502 Bad Gateway"), its title in a sentence
 * rather than its markup.
 */
export function serviceErrorText(response: ServiceResponse): string {
  const text = response.body.toString('utf8').trim();
  if (isWebPage(response, text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim() || textOfPage(text);
    return `A web page came back instead of the service's API${title ? `: “${title}”` : ''}. A proxy or gateway in front of the service answered (HTTP ${response.status}); the service behind it may be down or unreachable.`;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && typeof (parsed as { error?: unknown }).error === 'string') {
      return (parsed as { error: string }).error;
    }
  } catch {
    // Not JSON: fall through to the raw text.
  }
  if (!text) return `HTTP ${response.status} with an empty body`;
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

function isWebPage(response: ServiceResponse, text: string): boolean {
  const type = String(response.headers['content-type'] ?? '');
  return /text\/html/i.test(type) || /^<(!doctype html|html|head|body)[\s>]/i.test(text);
}

/** A page's visible words, shortened: its markup, scripts and styles left out. */
function textOfPage(html: string): string {
  const words = html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return words.length > 120 ? `${words.slice(0, 120)}…` : words;
}

function describeNetworkError(url: string, error: unknown, timedOutAfterMs: number | undefined): string {
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // keep the raw string
  }
  if (timedOutAfterMs !== undefined)
    return `No response from ${host} within ${Math.round(timedOutAfterMs / 1000)} s: the service may be overloaded or stuck. Try again in a moment.`;
  const code = findCode(error);
  switch (code) {
    case 'ECONNREFUSED':
      return `Connection refused by ${host}: nothing is listening there. Is the service running?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Host not found: ${host}. Check the URL and your network.`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return `The connection to ${host} was closed unexpectedly.`;
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `Could not connect to ${host} within 10 s.`;
    case 'UND_ERR_HEADERS_TIMEOUT':
      return `No answer from ${host}: it accepted the connection but sent nothing back in time.`;
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return `TLS certificate problem with ${host} (${code}).`;
    default:
      return `Could not reach ${host}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function findCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
