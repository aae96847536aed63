// "When would the retries happen?": the first retry times of a retry-delay expression, or of the default
// backoff when the field is empty, shown under the field as the user types.
import { formatDuration } from '../duration';
import { checkRetryDelay, defaultBackoffMs, MAX_RETRY_DELAY_MS, parseRetryDelay } from '../retry-delay';
import { DEFAULT_RETRIES } from '../messages/limits';

export interface RetryStep {
  /** 1 for the first retry. */
  retry: number;
  /** Wait after the previous attempt failed, ms. */
  waitMs: number;
  /** Sum of waits since the first attempt failed, ms (delivery time itself not counted). */
  totalMs: number;
  /** How the wait came about: the expression or the default curve. */
  source: 'expression' | 'default';
}

export type RetryPreview =
  { ok: true; deliveries: number; steps: RetryStep[]; usesDefault: boolean } | { ok: false; error: string };

/**
 * The plan for `retries` (a form string, '' = the default of 3) and a retry-delay expression ('' = the
 * default backoff). Shows at most `limit` steps. Values the service caps (over 1 day) are capped here too;
 * an expression that yields NaN, a negative or infinite value is an error, as it is for the service.
 */
export function retryPreview(retriesText: string, expression: string, limit = 5): RetryPreview {
  const retries = retriesText.trim() === '' ? DEFAULT_RETRIES : Number(retriesText.trim());
  if (!Number.isInteger(retries) || retries < 0) return { ok: false, error: 'retries is not a whole number' };
  const source = expression.trim();
  let evaluate: ((retried: number) => number) | undefined;
  if (source !== '') {
    const check = checkRetryDelay(source);
    if (!check.ok) return { ok: false, error: check.error };
    evaluate = parseRetryDelay(source).evaluate;
  }
  const steps: RetryStep[] = [];
  let total = 0;
  for (let retried = 0; retried < Math.min(retries, limit); retried++) {
    let waitMs: number;
    let kind: RetryStep['source'];
    if (evaluate) {
      // checkRetryDelay made sure every value is finite and not negative.
      waitMs = Math.min(Math.round(evaluate(retried)), MAX_RETRY_DELAY_MS);
      kind = 'expression';
    } else {
      waitMs = defaultBackoffMs(retried);
      kind = 'default';
    }
    total += waitMs;
    steps.push({ retry: retried + 1, waitMs, totalMs: total, source: kind });
  }
  return { ok: true, deliveries: 1 + retries, steps, usesDefault: evaluate === undefined };
}

/** `1.5s`, `250ms`, `2m28s`: readable waits, keeping sub-second precision where it matters. */
export function formatWait(ms: number): string {
  if (ms < 1_000) return `${ms}ms`;
  if (ms < 10_000 && ms % 1_000 !== 0) return `${(ms / 1_000).toFixed(1)}s`;
  return formatDuration(ms);
}
