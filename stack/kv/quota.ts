/**
 * The optional daily request limit (off by default). Every command counts as one request, as on the
 * hosted service, whose quotas count commands; a pipeline of 100 uses 100. The count restarts at 00:00
 * UTC and lives in memory only (a restart of the stack forgives the day).
 */
export class DailyQuota {
  private day = '';
  private used = 0;

  constructor(readonly limit: number) {}

  private roll(): void {
    const today = new Date().toISOString().slice(0, 10);
    if (today !== this.day) {
      this.day = today;
      this.used = 0;
    }
  }

  /** Takes up to `n` requests; returns how many were granted (the first ones run, the rest fail). */
  take(n: number): number {
    this.roll();
    const granted = Math.max(0, Math.min(n, this.limit - this.used));
    this.used += granted;
    return granted;
  }

  /** Takes `n` requests or none (a transaction runs whole or not at all). */
  takeAll(n: number): boolean {
    this.roll();
    if (this.used + n > this.limit) return false;
    this.used += n;
    return true;
  }
}

export const DAILY_LIMIT_ERROR = 'ERR max daily request limit exceeded';
export const REQUEST_SIZE_ERROR = 'ERR max request size exceeded';

/**
 * The hosted service's key size limit, 32 KB, fixed (Redis's own is 512 MB): a command naming a longer key is
 * refused and not run. Bytes of the key as sent to Redis.
 */
export const MAX_KEY_BYTES = 32_768;

/** The hosted service's refusal of a key over MAX_KEY_BYTES; `actual` is that key's length in bytes. */
export function keySizeError(actual: number): string {
  return `ERR max key size exceeded. Limit: ${MAX_KEY_BYTES} bytes, Actual: ${actual} bytes`;
}
