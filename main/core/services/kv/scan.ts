// SCAN over the REST API: one call at a time, with the `WITHTYPE` extension where the server answers it
// (the hosted service does; plain Redis answers a syntax error, after which this URL is never asked
// again), and a walker that paces calls and stops between them when cancelled.
import { BridgeError } from '../../../../shared/bridge/errors';
import type { KvClient } from './client';

export interface ScanOptions {
  match: string;
  type?: string;
  count: number;
  /** Aborts the SCAN in flight (a job being cancelled). */
  signal?: AbortSignal;
}

export interface ScanPage {
  cursor: string;
  keys: string[];
  /** Present when the server answered WITHTYPE, or a TYPE filter fixes the type. */
  types?: string[];
}

/** Per KV URL: whether the server answers `SCAN … WITHTYPE`. */
const withTypeSupport = new Map<string, boolean>();

export function knowsWithType(client: KvClient): boolean {
  return withTypeSupport.get(client.url('/')) === true;
}

export async function scanPage(client: KvClient, cursor: string, options: ScanOptions): Promise<ScanPage> {
  const base: string[] = ['SCAN', cursor, 'MATCH', options.match || '*', 'COUNT', String(options.count)];
  if (options.type) base.push('TYPE', options.type);
  const url = client.url('/');
  const tryWithType = withTypeSupport.get(url) !== false;
  if (tryWithType) {
    const reply = await client.command([...base, 'WITHTYPE'], 'json', { signal: options.signal });
    if (reply.ok) {
      withTypeSupport.set(url, true);
      const [next, flat] = reply.result as [string, string[]];
      const keys: string[] = [];
      const types: string[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        keys.push(flat[i]!);
        types.push(flat[i + 1]!);
      }
      return { cursor: String(next), keys, types };
    }
    if (!/syntax|WITHTYPE/i.test(reply.error)) {
      throw new BridgeError({ code: 'SERVICE_ERROR', status: reply.status, message: reply.error });
    }
    withTypeSupport.set(url, false);
  }
  const [next, keys] = await client.call<[string, string[]]>(base, { signal: options.signal });
  return {
    cursor: String(next),
    keys,
    types: options.type ? keys.map(() => options.type!) : undefined,
  };
}

/**
 * Walks the keyspace from `cursor`, calling `onPage` after every SCAN. Stops when the walk is complete,
 * when `onPage` answers false, or when `signal` aborts (between calls, never mid-request).
 */
export async function walkKeys(
  client: KvClient,
  options: ScanOptions & {
    cursor?: string;
    paceMs?: number;
    signal: AbortSignal;
    /** COUNT of the first call (when smaller than `count`), so the first page comes back sooner. */
    firstCount?: number;
  },
  onPage: (page: ScanPage, calls: number) => boolean | Promise<boolean>,
): Promise<{ cursor: string; calls: number; complete: boolean }> {
  let cursor = options.cursor ?? '0';
  let calls = 0;
  const first = { ...options, count: Math.min(options.count, options.firstCount ?? options.count) };
  for (;;) {
    if (options.signal.aborted) return { cursor, calls, complete: false };
    const page = await scanPage(client, cursor, calls === 0 ? first : options);
    calls += 1;
    cursor = page.cursor;
    const more = await onPage(page, calls);
    if (cursor === '0') return { cursor, calls, complete: true };
    if (!more) return { cursor, calls, complete: false };
    if (options.paceMs) await new Promise((resolve) => setTimeout(resolve, options.paceMs));
  }
}
