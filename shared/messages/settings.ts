// The per-message settings as text (header values, form fields) → checked values. One parser per setting,
// so the composer, the DLQ retry overrides, the bridge schemas and the local stack accept exactly the same
// values and say the same thing about the rest.
import { tryParseDuration } from '../duration';
import { MAX_DELAY_MS, MAX_RETRIES, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from './limits';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** `Upstash-Retries`: a whole number from 0 to MAX_RETRIES. */
export function parseRetries(text: string): Checked<number> {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) > MAX_RETRIES) {
    return { ok: false, error: `a whole number from 0 to ${MAX_RETRIES}` };
  }
  return { ok: true, value: Number(trimmed) };
}

/** `Upstash-Delay`: s/m/h/d units (`1h30m`), at most 365 days; the value is milliseconds. */
export function parseDelay(text: string): Checked<number> {
  const parsed = tryParseDuration(text);
  if (!parsed.ok) return parsed;
  if (parsed.ms > MAX_DELAY_MS) {
    return { ok: false, error: 'at most 365d (the pay-as-you-go maximum; the free plan allows 7d)' };
  }
  return { ok: true, value: parsed.ms };
}

/** `Upstash-Timeout`: a duration (a bare number is seconds), from 1s to 1d; the value is milliseconds. */
export function parseTimeout(text: string): Checked<number> {
  const parsed = tryParseDuration(text, { bareNumberAsSeconds: true });
  if (!parsed.ok) return parsed;
  if (parsed.ms < MIN_TIMEOUT_MS || parsed.ms > MAX_TIMEOUT_MS) {
    return { ok: false, error: 'must be between 1s and 1d' };
  }
  return { ok: true, value: parsed.ms };
}

/**
 * `Upstash-Timeout` as sent: a bare number gets its `s`, and a value with days is written in seconds (the
 * service documents s/m/h units for timeouts); anything else goes as typed.
 */
export function timeoutHeaderValue(text: string): string {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return `${trimmed}s`;
  if (!/d/.test(trimmed)) return trimmed;
  const parsed = tryParseDuration(trimmed);
  return parsed.ok ? `${Math.round(parsed.ms / 1_000)}s` : trimmed;
}

/** The first problem of a Checked, or undefined (form fields show it). */
export function problemOf(result: Checked<unknown>): string | undefined {
  return result.ok ? undefined : result.error;
}
