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
