// The per-message settings as text (header values, form fields) → checked values. One parser per setting,
// so the composer, the DLQ retry overrides, the bridge schemas and the local stack accept exactly the same
// values and say the same thing about the rest.
import { tryParseDuration } from '../duration';
import {
  MAX_BODY_BYTES,
  MAX_DELAY_DAYS,
  MAX_DELAY_MS,
  MAX_RETRIES,
  MAX_TIMEOUT_MS,
  MIN_TIMEOUT_MS,
} from './limits';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** `Upstash-Retries`: a whole number from 0 to MAX_RETRIES. */
export function parseRetries(text: string): Checked<number> {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) > MAX_RETRIES) {
    return { ok: false, error: `a whole number from 0 to ${MAX_RETRIES}` };
  }
  return { ok: true, value: Number(trimmed) };
}

/** What the form says about a delay: the same limit parseDelay enforces (and the local stack applies). */
export const DELAY_HINT = `Units s, m, h, d; combine them as 1h30m. Up to ${MAX_DELAY_DAYS}d (the pay-as-you-go maximum).`;

/** `Upstash-Delay`: s/m/h/d units (`1h30m`), at most MAX_DELAY_DAYS; the value is milliseconds. */
export function parseDelay(text: string): Checked<number> {
  const parsed = tryParseDuration(text);
  if (!parsed.ok) return parsed;
  if (parsed.ms > MAX_DELAY_MS) {
    return { ok: false, error: `at most ${MAX_DELAY_DAYS}d (the pay-as-you-go maximum)` };
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

/**
 * UTF-8 size of a string without encoding it: a multi-megabyte body is measured on every keystroke, so
 * this must not allocate a copy.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

const MIB = 1_048_576;

/** `1,048,576 bytes (1 MiB)`. */
export function formatBytes(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  if (bytes >= MIB && bytes % MIB === 0) return `${exact} (${bytes / MIB} MiB)`;
  if (bytes >= MIB) return `${exact} (${(bytes / MIB).toFixed(1)} MiB)`;
  return exact;
}

/** The message body against the service's size limit (UTF-8 bytes). */
export function checkBodySize(bytes: number, limit = MAX_BODY_BYTES): string | undefined {
  if (bytes <= limit) return undefined;
  return `${formatBytes(bytes)}: over the service's limit of ${formatBytes(limit)}; it cannot be sent`;
}
