// Header names of the message service and the two spellings of its prefix. The real service says `Upstash-`;
// the seed documents say `Svc-`. Everything that reads headers normalises to lowercase `upstash-` first.

export const PREFIX = 'Upstash-';
/** The lowercase prefix every configuration header (and query parameter) has after normalizing. */
export const SERVICE_PREFIX = 'upstash-';
const REAL = SERVICE_PREFIX;
const SEED = 'svc-';

/** Lowercases a header (or query-parameter) name and rewrites a leading `svc-` to `upstash-`. */
export function normalizeHeaderName(name: string): string {
  const lower = name.toLowerCase();
  return lower.startsWith(SEED) ? REAL + lower.slice(SEED.length) : lower;
}

/** True for names that configure the service (`Upstash-…` / `Svc-…`, any case). */
export function isServiceHeader(name: string): boolean {
  return normalizeHeaderName(name).startsWith(REAL);
}

/** Canonical lowercase names of the configuration headers a publish request may carry. */
export const H = {
  method: 'upstash-method',
  timeout: 'upstash-timeout',
  retries: 'upstash-retries',
  retryDelay: 'upstash-retry-delay',
  delay: 'upstash-delay',
  notBefore: 'upstash-not-before',
  callback: 'upstash-callback',
  failureCallback: 'upstash-failure-callback',
  deduplicationId: 'upstash-deduplication-id',
  contentBasedDeduplication: 'upstash-content-based-deduplication',
  headerForward: 'upstash-header-forward',
  label: 'upstash-label',
  flowControlKey: 'upstash-flow-control-key',
  flowControlValue: 'upstash-flow-control-value',
  redactFields: 'upstash-redact-fields',
  queueName: 'upstash-queue-name',
  scheduleId: 'upstash-schedule-id',
  cron: 'upstash-cron',
  forwardPrefix: 'upstash-forward-',
  callbackPrefix: 'upstash-callback-',
  failureCallbackPrefix: 'upstash-failure-callback-',
  telemetryPrefix: 'upstash-telemetry-',
  workflowPrefix: 'upstash-workflow-',
} as const;

/** The same names in the case requests are written with (`Upstash-Retries`): composer, curl, DLQ retries. */
export const HEADER = Object.fromEntries(
  Object.entries(H).map(([key, name]) => [key, canonicalHeaderName(name)]),
) as { readonly [K in keyof typeof H]: string };

/** Headers the service adds to every delivery (canonical case, as sent on the wire). */
export const DELIVERY = {
  signature: 'Upstash-Signature',
  messageId: 'Upstash-Message-Id',
  retried: 'Upstash-Retried',
  topicName: 'Upstash-Topic-Name',
  scheduleId: 'Upstash-Schedule-Id',
  callerIp: 'Upstash-Caller-Ip',
  nonRetryable: 'Upstash-NonRetryable-Error',
  userAgent: 'Upstash-QStash',
} as const;

/**
 * Connection-level headers that describe one hop and must never be forwarded to a destination
 * (RFC 9110 §7.6.1), plus the ones the outgoing client computes itself.
 */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

/** `content-type` → `Content-Type`, `x-api-key` → `X-Api-Key`: the case records and deliveries show. */
export function canonicalHeaderName(name: string): string {
  return name
    .toLowerCase()
    .split('-')
    .map((part) => (part ? (part[0] as string).toUpperCase() + part.slice(1) : part))
    .join('-');
}

/** RFC 9110 token characters: what a header name may contain. */
export function isValidHeaderName(name: string): boolean {
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name);
}

/**
 * A header value that can be sent: bytes (characters up to U+00FF — HTTP clients refuse "\u0100") without
 * control characters other than tab (no CR, LF or NUL). The same rule as Node's and undici's.
 */
export function isValidHeaderValue(value: string): boolean {
  return !/[^\t\u0020-\u007e\u0080-\u00ff]/.test(value);
}

/**
 * What is wrong with a header value, said so that the user can fix it — or undefined when it can be sent.
 * `acme-Ω` is not a line-break problem: it is a character beyond Latin-1, which no HTTP client sends.
 */
export function headerValueProblem(value: string): string | undefined {
  const bad = /[^\t\u0020-\u007e\u0080-\u00ff]/u.exec(value);
  if (!bad) return undefined;
  const char = bad[0];
  if (char === '\r' || char === '\n') return 'header values may not contain line breaks';
  const point = char.codePointAt(0) ?? 0;
  const code = `U+${point.toString(16).toUpperCase().padStart(4, '0')}`;
  if (point < 0x20 || point === 0x7f) {
    return `header values may not contain control characters (${code} at position ${bad.index + 1})`;
  }
  return `“${char}” (${code}) cannot be sent in a header: header values are limited to Latin-1 characters (ASCII, é, ü, …); put such text in the body, or percent-encode it`;
}
