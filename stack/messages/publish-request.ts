// Turns a publish request (destination, headers, query configuration, body) into message specs. Pure apart
// from the clock value passed in: the HTTP routes, batch items, DLQ retries and callback messages all come
// through here, so every header rule lives in one place.
import { createHash } from 'node:crypto';
import {
  canonicalHeaderName,
  H,
  HEADER,
  HOP_BY_HOP,
  isValidHeaderName,
  isValidHeaderValue,
  normalizeHeaderName,
  SERVICE_PREFIX,
} from '../../shared/headers';
import { parseFlowControlValue } from '../../shared/messages/flow-control';
import {
  DEFAULT_RETRIES,
  MAX_DEDUP_ID_LENGTH,
  MAX_DELAY_MS,
  MAX_HEADER_BYTES,
  MAX_RETRIES,
  MESSAGE_METHODS,
} from '../../shared/messages/limits';
import { checkName, parseLabels } from '../../shared/messages/names';
import type { HeaderMap } from '../../shared/messages/types';
import { parseDelay, parseTimeout } from '../../shared/messages/settings';
import { checkRetryDelay } from '../../shared/retry-delay';
import type { RequestContext } from '../http/server';
import type { MessageSpec, RedactSpec } from '../store/messages';
import type { UrlGroupRecord } from '../store/url-groups';

export class PublishError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Request headers keyed by normalised lowercase name (`Svc-` already rewritten to `upstash-`). */
export type HeaderInput = Map<string, string[]>;

export const TOKEN_PARAMS = ['qstash_token', 'svc_token'] as const;
const METHODS: ReadonlySet<string> = new Set(MESSAGE_METHODS);

/**
 * Headers of a Node request (its `rawHeaders`: name, value, name, value…) plus `?upstash-…=` / `?svc-…=` query
 * configuration (headers win).
 */
export function collectHeaders(rawHeaders: string[], query?: URLSearchParams): HeaderInput {
  const headers: HeaderInput = new Map();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const key = normalizeHeaderName(rawHeaders[i] as string);
    const values = headers.get(key);
    if (values) values.push(rawHeaders[i + 1] as string);
    else headers.set(key, [rawHeaders[i + 1] as string]);
  }
  if (query) {
    for (const [name, value] of query) {
      const key = normalizeHeaderName(name);
      if (key.startsWith(SERVICE_PREFIX) && !headers.has(key)) headers.set(key, [value]);
    }
  }
  return headers;
}

/** Where a request's collected headers are kept in its RequestContext.shared. */
const COLLECTED = Symbol('collected headers');

/**
 * collectHeaders() of a request's headers and query, made once per request: a plain publish goes through two
 * routes — the workflow service's /v2/publish looks for a run id and hands it on, then the message service's
 * plans it — and both need the map. It is kept in the request's `shared` values, which both routes' contexts
 * carry. Nothing changes the map once collected (withDefaults copies it).
 */
export function requestHeaders(ctx: Pick<RequestContext, 'req' | 'query' | 'shared'>): HeaderInput {
  let headers = ctx.shared[COLLECTED] as HeaderInput | undefined;
  if (headers === undefined) {
    headers = collectHeaders(ctx.req.rawHeaders, ctx.query);
    ctx.shared[COLLECTED] = headers;
  }
  return headers;
}

/** `{name: value | [values]}` (batch items, URL-group defaults) as HeaderInput. */
export function headersFromRecord(record: Record<string, string | string[]>): HeaderInput {
  const headers: HeaderInput = new Map();
  for (const [name, value] of Object.entries(record)) {
    const key = normalizeHeaderName(name);
    headers.set(key, [...(headers.get(key) ?? []), ...(Array.isArray(value) ? value : [value])]);
  }
  return headers;
}

/**
 * The destination's own query string: the request's query minus the service's configuration
 * (`upstash-*`, `svc-*`) and token parameters, in their original encoding.
 */
export function destinationQuery(rawQuery: string): string {
  if (rawQuery === '') return '';
  const kept = rawQuery.split('&').filter((part) => {
    if (part === '') return false;
    const rawName = part.split('=')[0] as string;
    let name: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      return true;
    }
    const key = normalizeHeaderName(name);
    return (
      !key.startsWith(SERVICE_PREFIX) && !(TOKEN_PARAMS as readonly string[]).includes(name.toLowerCase())
    );
  });
  return kept.join('&');
}

/** What a publish path names: a URL, a URL group, or the LLM API. */
export type Destination = { kind: 'url'; url: string } | { kind: 'group'; name: string } | { kind: 'llm' };

export function parseDestination(raw: string): Destination {
  let text = raw.trim();
  if (text === '')
    throw new PublishError(400, 'missing destination: publish to a URL, a URL group name or api/llm');
  // Percent-encoded destinations (`https%3A%2F%2F…`) are decoded once.
  if (/^[a-z][a-z0-9+.-]*%3a/i.test(text)) {
    try {
      text = decodeURIComponent(text);
    } catch {
      throw new PublishError(400, `invalid destination url: bad percent-encoding in '${raw}'`);
    }
  }
  if (text === 'api/llm') return { kind: 'llm' };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
  if (scheme) {
    if (!/^https?$/i.test(scheme)) {
      throw new PublishError(
        400,
        'invalid destination url: endpoint has invalid scheme, add http:// or https://',
      );
    }
    // Some proxies collapse `//` to `/`; put it back.
    text = text.replace(/^(https?):\/(?!\/)/i, '$1://');
    return { kind: 'url', url: checkUrl(text, 'destination') };
  }
  const problem = checkName('URL group', text);
  if (problem) {
    throw new PublishError(
      400,
      `invalid destination url: '${text}' is neither a URL (add http:// or https://) nor a URL group name`,
    );
  }
  return { kind: 'group', name: text };
}

/** The last URL checkUrl accepted: publishes to one destination repeat it, and its `URL` parse showed in the profile. */
let lastValidUrl: string | undefined;

export function checkUrl(text: string, what: string): string {
  if (text === lastValidUrl) return text;
  if (Buffer.byteLength(text) > MAX_HEADER_BYTES) {
    throw new PublishError(
      400,
      `invalid ${what} url: it is ${Buffer.byteLength(text)} bytes, more than the ${MAX_HEADER_BYTES} a publish's request head may take`,
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PublishError(400, `invalid ${what} url: '${text}' is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PublishError(400, `invalid ${what} url: endpoint has invalid scheme, add http:// or https://`);
  }
  if (url.hostname === '') throw new PublishError(400, `invalid ${what} url: '${text}' has no host`);
  lastValidUrl = text;
  return text;
}

/** The message settings a request's headers can set, each kept as the message's spec keeps it. */
type SpecSettings = Pick<
  MessageSpec,
  | 'method'
  | 'timeoutMs'
  | 'retryDelay'
  | 'callback'
  | 'callbackConfig'
  | 'failureCallback'
  | 'failureCallbackConfig'
  | 'labels'
  | 'flowControl'
  | 'redact'
>;

/** The configuration a request's headers set; a field is present only when its header was. */
export interface ConfigPatch extends Partial<SpecSettings> {
  retries?: number;
  delayMs?: number;
  /** Unix ms. */
  notBefore?: number;
  deduplicationId?: string;
  contentBasedDeduplication?: boolean;
  headerForward?: boolean;
  /** From `Upstash-Forward-*` (canonical names). */
  forward: HeaderMap;
  contentType?: string;
}

/**
 * A setting's value, trimmed; an empty one is no setting. The reference says `Retries` "left empty" takes the
 * default, and a client that fills a header from an unset variable (`callback: process.env.X ?? ""`, a webhook
 * form's `?upstash-retries=`) means none: each was a 400.
 */
export function setting(headers: HeaderInput, name: string): string | undefined {
  const value = headers.get(name)?.[0]?.trim();
  return value === '' ? undefined : value;
}

function parseBool(name: string, value: string): boolean {
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  throw new PublishError(400, `invalid ${canonicalHeaderName(name)}: expected true or false, got '${value}'`);
}

function parseInteger(name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new PublishError(
      400,
      `invalid ${canonicalHeaderName(name)}: expected a whole number from ${min} to ${max}, got '${value}'`,
    );
  }
  return Number(value);
}

function parseRedact(value: string): RedactSpec {
  const redact: RedactSpec = {};
  for (const raw of value.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    if (part === 'body') redact.body = true;
    else if (part === 'header' || part === 'headers') redact.header = true;
    else {
      const match = /^headers?\[([^\]]+)\]$/.exec(part);
      if (!match) {
        throw new PublishError(
          400,
          `invalid Upstash-Redact-Fields: unknown field '${part}' (use body, header or header[Name])`,
        );
      }
      if (redact.header !== true)
        redact.header = [...(redact.header ?? []), (match[1] as string).toLowerCase()];
    }
  }
  return redact;
}

/** Collects `prefix*` configuration headers as `upstash-*` (the callback's own settings). */
function subConfig(headers: HeaderInput, prefix: string): Record<string, string> | undefined {
  const config: Record<string, string> = {};
  for (const [name, values] of headers) {
    if (name.startsWith(prefix) && values[0] !== undefined)
      config[SERVICE_PREFIX + name.slice(prefix.length)] = values[0];
  }
  return Object.keys(config).length > 0 ? config : undefined;
}

/**
 * Every header must be one that can be sent, and all of them together (with the destination URL) no larger
 * than a single publish's request head: batch items and URL-group defaults come in JSON, where nothing else
 * stops a "\u0100" value (every delivery would then fail) or a 500 KB header.
 */
export function checkHeaders(headers: HeaderInput, url: string): void {
  let size = Buffer.byteLength(url);
  for (const [name, values] of headers) {
    if (!isValidHeaderName(name)) throw new PublishError(400, `invalid header name '${name}'`);
    for (const value of values) {
      if (!isValidHeaderValue(value)) {
        throw new PublishError(
          400,
          `invalid value for header '${canonicalHeaderName(name)}': only tab, printable ASCII and characters up to U+00FF can be sent`,
        );
      }
      size += name.length + Buffer.byteLength(value) + 4;
    }
  }
  if (size > MAX_HEADER_BYTES) {
    throw new PublishError(
      400,
      `the destination URL and headers take ${size} bytes, more than the ${MAX_HEADER_BYTES} a publish's request head may take`,
    );
  }
}

export function parseConfig(headers: HeaderInput, now: number): ConfigPatch {
  const patch: ConfigPatch = { forward: {} };
  const method = setting(headers, H.method);
  if (method !== undefined) {
    const upper = method.toUpperCase();
    if (!METHODS.has(upper)) {
      throw new PublishError(400, `invalid Upstash-Method '${method}': use ${[...METHODS].join(', ')}`);
    }
    patch.method = upper;
  }
  const retries = setting(headers, H.retries);
  if (retries !== undefined) patch.retries = parseInteger(H.retries, retries, 0, MAX_RETRIES);
  const timeout = setting(headers, H.timeout);
  if (timeout !== undefined) {
    const parsed = parseTimeout(timeout);
    if (!parsed.ok) throw new PublishError(400, `invalid Upstash-Timeout '${timeout}': ${parsed.error}`);
    patch.timeoutMs = parsed.value;
  }
  const retryDelay = setting(headers, H.retryDelay);
  if (retryDelay !== undefined) {
    const check = checkRetryDelay(retryDelay);
    if (!check.ok) throw new PublishError(400, `invalid Upstash-Retry-Delay '${retryDelay}': ${check.error}`);
    patch.retryDelay = retryDelay;
  }
  const delay = setting(headers, H.delay);
  if (delay !== undefined) {
    const parsed = parseDelay(delay);
    if (!parsed.ok) throw new PublishError(400, `invalid Upstash-Delay: ${parsed.error}`);
    patch.delayMs = parsed.value;
  }
  const notBefore = setting(headers, H.notBefore);
  if (notBefore !== undefined) {
    if (!/^\d{1,12}$/.test(notBefore)) {
      throw new PublishError(
        400,
        `invalid Upstash-Not-Before '${notBefore}': expected a unix time in seconds`,
      );
    }
    const ms = Number(notBefore) * 1_000;
    if (ms - now > MAX_DELAY_MS) {
      throw new PublishError(400, `invalid Upstash-Not-Before '${notBefore}': more than 365 days ahead`);
    }
    patch.notBefore = ms;
  }
  const callback = setting(headers, H.callback);
  if (callback !== undefined) patch.callback = checkCallbackUrl(callback, 'callback');
  const failureCallback = setting(headers, H.failureCallback);
  if (failureCallback !== undefined)
    patch.failureCallback = checkCallbackUrl(failureCallback, 'failure callback');
  // Set only when present (not set and then deleted: a `delete` makes the patch a slow dictionary object, and
  // every publish comes through here).
  const callbackConfig = subConfig(headers, H.callbackPrefix);
  if (callbackConfig) patch.callbackConfig = callbackConfig;
  const failureCallbackConfig = subConfig(headers, H.failureCallbackPrefix);
  if (failureCallbackConfig) patch.failureCallbackConfig = failureCallbackConfig;
  for (const [what, config] of [
    [`${HEADER.callback}-`, callbackConfig],
    [`${HEADER.failureCallback}-`, failureCallbackConfig],
  ] as const) {
    if (!config) continue;
    try {
      parseConfig(new Map(Object.entries(config).map(([k, v]) => [k, [v]])), now);
    } catch (error) {
      if (error instanceof PublishError) throw new PublishError(400, `${what}*: ${error.message}`);
      throw error;
    }
  }
  const dedupId = setting(headers, H.deduplicationId);
  if (dedupId !== undefined) {
    if (dedupId.length > MAX_DEDUP_ID_LENGTH) {
      throw new PublishError(
        400,
        `invalid Upstash-Deduplication-Id: must be 1 to ${MAX_DEDUP_ID_LENGTH} characters`,
      );
    }
    patch.deduplicationId = dedupId;
  }
  const contentDedup = setting(headers, H.contentBasedDeduplication);
  if (contentDedup !== undefined)
    patch.contentBasedDeduplication = parseBool(H.contentBasedDeduplication, contentDedup);
  const headerForward = setting(headers, H.headerForward);
  if (headerForward !== undefined) patch.headerForward = parseBool(H.headerForward, headerForward);
  const label = headers.get(H.label);
  if (label !== undefined) patch.labels = label.flatMap(parseLabels);
  const flowKey = setting(headers, H.flowControlKey);
  const flowValue = setting(headers, H.flowControlValue);
  if (flowValue !== undefined && flowKey === undefined) {
    throw new PublishError(400, 'Upstash-Flow-Control-Value needs an Upstash-Flow-Control-Key');
  }
  if (flowKey !== undefined) {
    if (flowKey.length > 200) {
      throw new PublishError(400, 'invalid Upstash-Flow-Control-Key: must be 1 to 200 characters');
    }
    if (flowValue === undefined) {
      throw new PublishError(
        400,
        'Upstash-Flow-Control-Key needs an Upstash-Flow-Control-Value (e.g. parallelism=2, rate=10, period=1m)',
      );
    }
    const parsed = parseFlowControlValue(flowValue);
    if (!parsed.ok) throw new PublishError(400, `invalid Upstash-Flow-Control-Value: ${parsed.error}`);
    patch.flowControl = { key: flowKey, ...parsed.value };
  }
  const redact = setting(headers, H.redactFields);
  if (redact !== undefined) patch.redact = parseRedact(redact);
  for (const [name, values] of headers) {
    if (!name.startsWith(H.forwardPrefix)) continue;
    const target = name.slice(H.forwardPrefix.length);
    if (target === '' || !isValidHeaderName(target)) {
      throw new PublishError(400, `invalid forwarded header name '${target}'`);
    }
    if (HOP_BY_HOP.has(target)) continue;
    addHeader(patch.forward, target, values);
  }
  const contentType = setting(headers, 'content-type');
  if (contentType !== undefined) patch.contentType = contentType;
  return patch;
}

function checkCallbackUrl(value: string, what: string): string {
  if (!/^https?:\/\//i.test(value)) {
    throw new PublishError(400, `invalid ${what} url: '${value}' must start with http:// or https://`);
  }
  return checkUrl(value, what);
}

function addHeader(map: HeaderMap, name: string, values: string[]): void {
  for (const value of values) {
    if (!isValidHeaderValue(value)) throw new PublishError(400, `invalid value for header '${name}'`);
  }
  const key = canonicalHeaderName(name);
  // A valid header name, but not a key a plain object can hold (it is the prototype's accessor): refused,
  // rather than lost on the way to the destination.
  if (key === '__proto__') throw new PublishError(400, `header name '${name}' cannot be forwarded`);
  map[key] = [...(map[key] ?? []), ...values];
}

/** Group defaults (`PATCH /v2/topics/{name}`) fill in whatever the request did not set itself. */
export function withDefaults(headers: HeaderInput, defaults: HeaderMap | undefined): HeaderInput {
  if (!defaults) return headers;
  const merged: HeaderInput = new Map(headers);
  for (const [name, values] of Object.entries(defaults)) {
    const key = normalizeHeaderName(name);
    if (!merged.has(key)) merged.set(key, values);
  }
  return merged;
}

export interface PublishContext {
  now: number;
  callerIp?: string;
  /** The token the request authenticated with; never forwarded by Header-Forward. */
  token?: string;
  queueName?: string;
  llm?: { url: string; key?: string };
}

export interface PlannedMessage {
  spec: MessageSpec;
  dueAt: number;
  body: Buffer;
  /** Deduplication key, when the request asked for deduplication. */
  dedupKey?: string;
}

/** Headers delivered to the destination: forwarded ones, Content-Type, or everything with Header-Forward. */
export function deliveredHeaders(
  headers: HeaderInput,
  patch: ConfigPatch,
  token: string | undefined,
): HeaderMap {
  const out: HeaderMap = {};
  if (patch.headerForward) {
    for (const [name, values] of headers) {
      if (name.startsWith(SERVICE_PREFIX) || HOP_BY_HOP.has(name)) continue;
      if (name === 'authorization' && token !== undefined && values.some((v) => v.trim().endsWith(token)))
        continue;
      addHeader(out, name, values);
    }
  }
  for (const [name, values] of Object.entries(patch.forward)) out[name] = values;
  if (patch.contentType !== undefined) out['Content-Type'] = [patch.contentType];
  return out;
}

function contentHash(destination: string, body: Buffer, header: HeaderMap): string {
  const hash = createHash('sha256');
  hash.update(destination).update('\n');
  for (const name of Object.keys(header).sort())
    hash.update(`${name}:${(header[name] as string[]).join(',')}\n`);
  hash.update(body);
  return hash.digest('hex');
}

/**
 * Plans the messages of one publish: one for a URL or the LLM API, one per endpoint for a URL group (whose
 * default headers must already be merged into `headers`).
 */
export function planPublish(
  destination: Destination,
  group: UrlGroupRecord | undefined,
  headers: HeaderInput,
  body: Buffer,
  context: PublishContext,
): PlannedMessage[] {
  const longestUrl =
    destination.kind === 'url'
      ? destination.url
      : (group?.endpoints ?? []).reduce(
          (longest, e) => (e.url.length > longest.length ? e.url : longest),
          '',
        );
  checkHeaders(headers, longestUrl);
  const patch = parseConfig(headers, context.now);
  if (context.queueName !== undefined) {
    const problem = checkName('queue', context.queueName);
    if (problem) throw new PublishError(400, problem);
  }
  const header = deliveredHeaders(headers, patch, context.token);
  const dueAt = patch.notBefore ?? context.now + (patch.delayMs ?? 0);
  let targets: { url: string; endpointName?: string }[];
  let destinationKey: string;
  let api: 'llm' | undefined;
  if (destination.kind === 'url') {
    targets = [{ url: destination.url }];
    destinationKey = destination.url;
  } else if (destination.kind === 'llm') {
    if (!context.llm) {
      throw new PublishError(
        400,
        'api/llm is not configured on this stack: start it with --llm-url <OpenAI-compatible base URL> (and --llm-key)',
      );
    }
    if (!patch.callback) {
      throw new PublishError(
        400,
        'api/llm needs an Upstash-Callback: the model answer is delivered to the callback',
      );
    }
    api = 'llm';
    targets = [{ url: `${context.llm.url.replace(/\/+$/, '')}/chat/completions` }];
    destinationKey = 'api/llm';
    delete header.Authorization;
    if (context.llm.key) header.Authorization = [`Bearer ${context.llm.key}`];
  } else {
    if (!group || group.endpoints.length === 0) {
      throw new PublishError(404, `URL group '${destination.name}' not found`);
    }
    targets = group.endpoints.map((endpoint) => ({ url: endpoint.url, endpointName: endpoint.name }));
    destinationKey = `group:${group.name}`;
  }
  let dedupBase: string | undefined;
  if (patch.deduplicationId !== undefined) dedupBase = `id:${patch.deduplicationId}`;
  else if (patch.contentBasedDeduplication)
    dedupBase = `content:${contentHash(destinationKey, body, header)}`;
  return targets.map((target) => {
    const spec: MessageSpec = {
      url: target.url,
      method: patch.method ?? 'POST',
      header,
      notBefore: dueAt,
      maxRetries: patch.retries ?? DEFAULT_RETRIES,
    };
    if (destination.kind === 'group') spec.topicName = destination.name;
    if (target.endpointName !== undefined) spec.endpointName = target.endpointName;
    if (context.queueName !== undefined) spec.queueName = context.queueName;
    if (context.callerIp) spec.callerIp = context.callerIp;
    if (patch.labels && patch.labels.length > 0) spec.labels = patch.labels;
    applyDeliverySettings(spec, patch);
    if (patch.flowControl) spec.flowControl = patch.flowControl;
    if (patch.redact) spec.redact = patch.redact;
    if (api) spec.api = api;
    const planned: PlannedMessage = { spec, dueAt, body };
    if (dedupBase !== undefined) {
      planned.dedupKey = destination.kind === 'group' ? `${dedupBase}|${target.url}` : dedupBase;
    }
    return planned;
  });
}

/** Timeout, retry delay and callbacks, where the headers give them (a publish and a DLQ retry alike). */
function applyDeliverySettings(spec: MessageSpec, patch: ConfigPatch): void {
  if (patch.timeoutMs !== undefined) spec.timeoutMs = patch.timeoutMs;
  if (patch.retryDelay !== undefined) spec.retryDelay = patch.retryDelay;
  if (patch.callback !== undefined) spec.callback = patch.callback;
  if (patch.callbackConfig) spec.callbackConfig = patch.callbackConfig;
  if (patch.failureCallback !== undefined) spec.failureCallback = patch.failureCallback;
  if (patch.failureCallbackConfig) spec.failureCallbackConfig = patch.failureCallbackConfig;
}

/**
 * A DLQ retry: the original message with the settings of the retry request's headers laid over it (e.g.
 * `Upstash-Retries: 0`, `Upstash-Forward-X`), due now unless the overrides delay it.
 */
export function planOverride(
  original: MessageSpec,
  headers: HeaderInput,
  now: number,
): { spec: MessageSpec; dueAt: number } {
  checkHeaders(headers, original.url);
  const patch = parseConfig(headers, now);
  const spec: MessageSpec = { ...original, header: { ...original.header, ...patch.forward } };
  if (patch.contentType !== undefined) spec.header['Content-Type'] = [patch.contentType];
  if (patch.method !== undefined) spec.method = patch.method;
  if (patch.retries !== undefined) spec.maxRetries = patch.retries;
  applyDeliverySettings(spec, patch);
  if (patch.labels !== undefined) spec.labels = patch.labels;
  if (patch.flowControl) spec.flowControl = patch.flowControl;
  if (patch.redact) spec.redact = patch.redact;
  const dueAt = patch.notBefore ?? now + (patch.delayMs ?? 0);
  spec.notBefore = dueAt;
  return { spec, dueAt };
}

/**
 * The message a callback (or failure callback) becomes: POST of a JSON payload to the callback URL, with the
 * `Upstash-Callback-*` settings of the original request, its retry settings unless those override them.
 */
export function planCallback(
  parent: MessageSpec,
  kind: 'callback' | 'failureCallback',
  payload: unknown,
  now: number,
): { spec: MessageSpec; dueAt: number; body: Buffer } {
  const url = (kind === 'callback' ? parent.callback : parent.failureCallback) as string;
  const config = (kind === 'callback' ? parent.callbackConfig : parent.failureCallbackConfig) ?? {};
  const headers: HeaderInput = new Map(Object.entries(config).map(([name, value]) => [name, [value]]));
  const patch = parseConfig(headers, now);
  const header: HeaderMap = { 'Content-Type': ['application/json'], ...patch.forward };
  if (patch.contentType !== undefined) header['Content-Type'] = [patch.contentType];
  const dueAt = patch.notBefore ?? now + (patch.delayMs ?? 0);
  const spec: MessageSpec = {
    url,
    method: patch.method ?? 'POST',
    header,
    notBefore: dueAt,
    maxRetries: patch.retries ?? parent.maxRetries,
  };
  const retryDelay = patch.retryDelay ?? parent.retryDelay;
  if (retryDelay !== undefined) spec.retryDelay = retryDelay;
  const timeout = patch.timeoutMs ?? parent.timeoutMs;
  if (timeout !== undefined) spec.timeoutMs = timeout;
  if (patch.callback !== undefined) spec.callback = patch.callback;
  if (patch.callbackConfig) spec.callbackConfig = patch.callbackConfig;
  if (patch.failureCallback !== undefined) spec.failureCallback = patch.failureCallback;
  if (patch.failureCallbackConfig) spec.failureCallbackConfig = patch.failureCallbackConfig;
  if (patch.labels && patch.labels.length > 0) spec.labels = patch.labels;
  if (patch.flowControl) spec.flowControl = patch.flowControl;
  if (parent.callerIp) spec.callerIp = parent.callerIp;
  return { spec, dueAt, body: Buffer.from(JSON.stringify(payload)) };
}
