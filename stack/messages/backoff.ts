// How long to wait before the next attempt: a `Retry-After`-like response header first, then the message's
// Retry-Delay expression, then the default exponential backoff min(86400, e^(k·n)) seconds.
import { parseRetryDelay } from '../../shared/retry-delay';
import { waitFromHeaderValue } from '../../shared/retry-after';
import type { HeaderMap } from '../../shared/messages/types';

export const MAX_BACKOFF_MS = 86_400_000;
/** The vendor documents e^(2.5·n) (its table 12 s, 2m28s, 30m8s, 6h7m, 24h matches 2.5); the seed says 2. */
export const DEFAULT_BACKOFF_FACTOR = 2.5;

/**
 * The default backoff as an `Upstash-Retry-Delay` expression (milliseconds; `retried` = retries made so far):
 * what a workflow step's `retryDelay` shows when its run set none.
 */
export function defaultBackoffExpression(factor: number): string {
  return `min(${MAX_BACKOFF_MS}, 1000 * exp(${factor} * (retried + 1)))`;
}

const RETRY_AFTER_HEADERS = [
  'retry-after',
  'x-ratelimit-reset',
  'x-ratelimit-reset-requests',
  'x-ratelimit-reset-tokens',
];

/** Milliseconds the destination asked us to wait, or undefined when it did not (or asked for over a day). */
export function retryAfterFromResponse(header: HeaderMap | undefined, now: number): number | undefined {
  if (!header) return undefined;
  const lower = new Map(Object.entries(header).map(([name, values]) => [name.toLowerCase(), values[0]]));
  for (const name of RETRY_AFTER_HEADERS) {
    const ms = waitFromHeaderValue(lower.get(name), now);
    if (ms === undefined) continue;
    return ms <= MAX_BACKOFF_MS ? ms : undefined;
  }
  return undefined;
}

/**
 * The delay before the next attempt, when `retried` retries were made before the attempt that just failed
 * (0 after the first attempt).
 */
export function nextDelayMs(options: {
  retried: number;
  factor: number;
  retryDelay?: string;
  responseHeader?: HeaderMap;
  now: number;
}): number {
  const fromResponse = retryAfterFromResponse(options.responseHeader, options.now);
  if (fromResponse !== undefined) return fromResponse;
  if (options.retryDelay !== undefined) {
    try {
      const value = parseRetryDelay(options.retryDelay).evaluate(options.retried);
      if (Number.isFinite(value) && value >= 0) return Math.min(Math.round(value), MAX_BACKOFF_MS);
    } catch {
      // Checked at publish time; an expression that cannot run falls back to the default below.
    }
  }
  return Math.round(
    Math.min(MAX_BACKOFF_MS / 1_000, Math.exp(options.factor * (options.retried + 1))) * 1_000,
  );
}
