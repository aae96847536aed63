// TTLs that count down (issue 19 item 6). PTTL (a key's) or HPTTL (a hash field's) is read once; from then on
// the view counts from the moment the answer arrived, so "9 m 42 s" keeps moving without a request per
// second. A TTL whose count reaches zero is asked about again rather than dropped on the estimate: another
// client may have changed it meanwhile, and only the service knows whether the key or field is gone.
import type { KvKeyMeta } from '../../../../../shared/bridge/procedures/kv/key-browser';

/** A TTL as read (ms left; -1 without expiry, -2 missing), with the wall-clock time (ms) at which it ends. */
export interface TimedTtl {
  ttlMs: number;
  /** Absent without expiry. */
  expiresAt?: number;
}

export interface TimedKeyMeta extends KvKeyMeta, TimedTtl {}

/** The row (a key's meta, a field's TTL) as received at `receivedAt`, with the time its TTL ends. */
export function stampExpiry<T extends { ttlMs: number }>(row: T, receivedAt: number): T & TimedTtl {
  return row.ttlMs >= 0 ? { ...row, expiresAt: receivedAt + row.ttlMs } : row;
}

/** The TTL left at `now`: -1 (no expiry) and -2 (missing) as PTTL says them, else never below 0. */
export function ttlLeft(meta: TimedTtl, now: number): number {
  return meta.expiresAt === undefined ? meta.ttlMs : Math.max(0, meta.expiresAt - now);
}

/** The rows (keys, fields) whose count has reached zero by `now`: the ones to ask the service about again. */
export function countedOut(meta: ReadonlyMap<string, TimedTtl>, now: number): string[] {
  const keys: string[] = [];
  for (const [key, row] of meta) if (row.expiresAt !== undefined && row.expiresAt <= now) keys.push(key);
  return keys;
}

/** Whether any row shown counts down (the view then ticks every second, otherwise it need not). */
export function anyCountingDown(meta: ReadonlyMap<string, TimedTtl>): boolean {
  for (const row of meta.values()) if (row.expiresAt !== undefined) return true;
  return false;
}
