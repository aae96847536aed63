// Model → the exact HTTP request. main sends what these functions return and the preview shows the same
// value, so what the user sees is what goes on the wire. The token is not part of it: main adds
// `Authorization` (the preview shows it masked).
import { HEADER } from '../headers';
import { parseLabels } from '../messages/names';
import { timeoutHeaderValue } from '../messages/settings';
import { type CallbackModel, type ComposerModel, type HeaderRow } from './model';
import { flowControlValueOf, validateComposer } from './validate';

/** Ordered header list: names may repeat, order is kept (previews and curl show it as built). */
export type HeaderList = [name: string, value: string][];

export interface BuiltRequest {
  method: 'POST';
  /** API path, destination not re-encoded (as the vendor SDKs send it): `/v2/publish/https://…`. */
  path: string;
  headers: HeaderList;
  body: string;
}

export class ComposerError extends Error {
  override name = 'ComposerError';
  constructor(readonly fields: Record<string, string>) {
    super(
      `The message has problems: ${Object.entries(fields)
        .map(([field, message]) => `${field}: ${message}`)
        .join('; ')}`,
    );
  }
}

/** Where the model publishes to, as the path segment after `/v2/publish/` (or `/v2/enqueue/<q>/`). */
export function destinationOf(model: ComposerModel): string {
  if (model.destinationKind === 'llm') return 'api/llm';
  const target = model.destinationKind === 'queue' ? model.queueTarget : model.destinationKind;
  return target === 'group' ? model.group.trim() : model.url.trim();
}

export function apiPathOf(model: ComposerModel): string {
  const destination = destinationOf(model);
  return model.destinationKind === 'queue'
    ? `/v2/enqueue/${model.queue.trim()}/${destination}`
    : `/v2/publish/${destination}`;
}

function enabledRows(rows: HeaderRow[]): HeaderList {
  return rows
    .filter((row) => row.enabled && row.name.trim() !== '')
    .map((row) => [row.name.trim(), row.value] as [string, string]);
}

function callbackHeaders(callback: CallbackModel, prefix: string): HeaderList {
  const out: HeaderList = [];
  if (callback.url.trim() === '') return out;
  out.push([prefix, callback.url.trim()]);
  if (callback.method) out.push([`${prefix}-Method`, callback.method]);
  if (callback.retries.trim()) out.push([`${prefix}-Retries`, callback.retries.trim()]);
  if (callback.retryDelay.trim()) out.push([`${prefix}-Retry-Delay`, callback.retryDelay.trim()]);
  if (callback.timeout.trim()) out.push([`${prefix}-Timeout`, timeoutHeaderValue(callback.timeout)]);
  for (const [name, value] of enabledRows(callback.headers)) out.push([`${prefix}-Forward-${name}`, value]);
  return out;
}

/**
 * The `Upstash-*` configuration headers of a model (and Content-Type), in a fixed order. Forwarded headers
 * come as `Upstash-Forward-<name>`, or unprefixed when Header-Forward is on (the service then forwards
 * every header of the request).
 */
export function configHeaders(model: ComposerModel): HeaderList {
  const out: HeaderList = [];
  if (model.contentType.trim()) out.push(['Content-Type', model.contentType.trim()]);
  out.push([HEADER.method, model.destinationKind === 'llm' ? 'POST' : model.method]);
  if (model.headerForward) {
    out.push([HEADER.headerForward, 'true']);
    out.push(...enabledRows(model.headers));
  } else {
    for (const [name, value] of enabledRows(model.headers))
      out.push([`${HEADER.forwardPrefix}${name}`, value]);
  }
  if (model.delay.trim()) out.push([HEADER.delay, model.delay.trim()]);
  if (model.notBefore !== null) out.push([HEADER.notBefore, String(model.notBefore)]);
  if (model.retries.trim()) out.push([HEADER.retries, model.retries.trim()]);
  if (model.retryDelay.trim()) out.push([HEADER.retryDelay, model.retryDelay.trim()]);
  if (model.timeout.trim()) out.push([HEADER.timeout, timeoutHeaderValue(model.timeout)]);
  out.push(...callbackHeaders(model.callback, HEADER.callback));
  out.push(...callbackHeaders(model.failureCallback, HEADER.failureCallback));
  if (model.dedupMode === 'id' && model.dedupId.trim()) {
    out.push([HEADER.deduplicationId, model.dedupId.trim()]);
  }
  if (model.dedupMode === 'content') out.push([HEADER.contentBasedDeduplication, 'true']);
  const labels = parseLabels(model.labels);
  if (labels.length > 0) out.push([HEADER.label, labels.join(',')]);
  if (model.flowControlKey.trim()) {
    out.push([HEADER.flowControlKey, model.flowControlKey.trim()]);
    const value = flowControlValueOf(model);
    if (value) out.push([HEADER.flowControlValue, value]);
  }
  return out;
}

/**
 * One entry per header name (case-insensitive, first spelling kept), repeated values joined with ", "
 * (RFC 9110 §5.3): what goes on the wire, so the preview lists exactly what is sent.
 */
export function mergeHeaders(list: HeaderList): HeaderList {
  const out: HeaderList = [];
  for (const [name, value] of list) {
    const existing = out.find(([seen]) => seen.toLowerCase() === name.toLowerCase());
    if (existing) existing[1] = `${existing[1]}, ${value}`;
    else out.push([name, value]);
  }
  return out;
}

/** The publish (or enqueue) request for a valid model; throws ComposerError listing every problem. */
export function buildPublishRequest(model: ComposerModel, now: number): BuiltRequest {
  const { errors } = validateComposer(model, now);
  if (Object.keys(errors).length > 0) throw new ComposerError(errors);
  return {
    method: 'POST',
    path: apiPathOf(model),
    headers: mergeHeaders(configHeaders(model)),
    body: model.body,
  };
}

/** One element of `POST /v2/batch`. */
export interface BatchItemWire {
  destination: string;
  queue?: string;
  headers: Record<string, string>;
  body: string;
}

/** Headers of a batch item are a JSON object: a repeated name keeps its values joined with ", " (RFC 9110). */
export function batchItemOf(model: ComposerModel): BatchItemWire {
  const headers = Object.fromEntries(mergeHeaders(configHeaders(model)));
  const item: BatchItemWire = { destination: destinationOf(model), headers, body: model.body };
  if (model.destinationKind === 'queue') item.queue = model.queue.trim();
  return item;
}

/**
 * Validates every item of a batch. Returns per-item errors (index → field → message); an empty object
 * means the whole batch may be sent.
 */
export function validateBatch(models: ComposerModel[], now: number): Record<number, Record<string, string>> {
  const problems: Record<number, Record<string, string>> = {};
  models.forEach((model, index) => {
    const { errors } = validateComposer(model, now);
    if (Object.keys(errors).length > 0) problems[index] = errors;
  });
  return problems;
}

export function buildBatchRequest(models: ComposerModel[]): BuiltRequest {
  return {
    method: 'POST',
    path: '/v2/batch',
    headers: [['Content-Type', 'application/json']],
    body: JSON.stringify(models.map(batchItemOf)),
  };
}

/**
 * Query parameters of a webhook intake URL: the configuration headers as lowercase names
 * (`upstash-retries=3`), which the service reads like headers. Content-Type comes from whoever calls the
 * webhook, so it is left out.
 */
export function webhookQuery(model: ComposerModel): HeaderList {
  // Table headers always travel as `upstash-forward-<name>`: a URL cannot carry unprefixed headers, and
  // with Header-Forward they are added to whatever the sender's own headers are.
  const list = configHeaders({ ...model, headerForward: false })
    .filter(([name]) => name.toLowerCase() !== 'content-type')
    .map(([name, value]) => [name.toLowerCase(), value] as [string, string]);
  if (model.headerForward) list.splice(1, 0, [HEADER.headerForward.toLowerCase(), 'true']);
  return list;
}

/** `<base>/v2/publish/<destination>?qstash_token=<token>&upstash-…`; pass a masked token for display. */
export function webhookUrl(model: ComposerModel, baseUrl: string, token: string): string {
  const params = new URLSearchParams();
  params.append('qstash_token', token);
  for (const [name, value] of webhookQuery(model)) params.append(name, value);
  const path = apiPathOf(model);
  // A destination URL with its own query string keeps it; the service strips only its own parameters.
  return `${baseUrl.replace(/\/+$/, '')}${path}${path.includes('?') ? '&' : '?'}${params.toString()}`;
}
