// TTLs that count down (issue 19 item 6). PTTL is read once per key; from then on the view counts from the
// moment the answer arrived, so "9 m 42 s" keeps moving without a request per second. A key whose count
// reaches zero is asked about again rather than dropped on the estimate: another client may have changed its
// TTL meanwhile, and only the service knows whether it is gone.
import type { KvKeyMeta } from '../../../../../shared/bridge/procedures/kv/key-browser';

export interface TimedKeyMeta extends KvKeyMeta {
  /** Wall-clock time (ms) at which the key's TTL ends, by the PTTL answer; absent without expiry. */
  expiresAt?: number;
}

/** The meta row as received at `receivedAt`, with the time its TTL ends. */
export function stampExpiry(row: KvKeyMeta, receivedAt: number): TimedKeyMeta {
  return row.ttlMs >= 0 ? { ...row, expiresAt: receivedAt + row.ttlMs } : row;
}

/** The TTL left at `now`: -1 (no expiry) and -2 (missing) as PTTL says them, else never below 0. */
export function ttlLeft(meta: TimedKeyMeta, now: number): number {
  return meta.expiresAt === undefined ? meta.ttlMs : Math.max(0, meta.expiresAt - now);
}

/** Keys whose count has reached zero by `now`: the ones to ask the service about again. */
export function countedOut(meta: ReadonlyMap<string, TimedKeyMeta>, now: number): string[] {
  const keys: string[] = [];
  for (const [key, row] of meta) if (row.expiresAt !== undefined && row.expiresAt <= now) keys.push(key);
  return keys;
}

/** Whether any key shown counts down (the view then ticks every second, otherwise it need not). */
export function anyCountingDown(meta: ReadonlyMap<string, TimedKeyMeta>): boolean {
  for (const row of meta.values()) if (row.expiresAt !== undefined) return true;
  return false;
}
