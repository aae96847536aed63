// The recent past of one flow-control key, for the console's chart: per 10-second bucket of the last ten
// minutes (clock time), the most messages that were waiting at once and how many were delivered. Kept in
// memory only (a restart starts a new history); two small arrays used as rings.
import type { FlowControlHistoryPoint } from '../../shared/messages/flow-control';

export const HISTORY_BUCKET_MS = 10_000;
export const HISTORY_BUCKETS = 60;

export class FlowHistory {
  private waiting: Uint32Array | undefined;
  private delivered: Uint32Array | undefined;
  /** Bucket number (clock ms / bucket size) of the newest slot, and of the first one ever used. */
  private current = -1;
  private first = -1;

  /**
   * Moves the newest slot up to `now`. Call it before the waitlist changes: buckets skipped on the way saw
   * no change, so `size` (the waitlist's size until now) is what they held all along.
   */
  roll(now: number, size: number): void {
    const bucket = Math.floor(now / HISTORY_BUCKET_MS);
    if (!this.waiting || !this.delivered) {
      this.waiting = new Uint32Array(HISTORY_BUCKETS);
      this.delivered = new Uint32Array(HISTORY_BUCKETS);
      this.current = this.first = bucket;
      this.waiting[bucket % HISTORY_BUCKETS] = size;
      return;
    }
    if (bucket <= this.current) return;
    for (let next = Math.max(this.current + 1, bucket - HISTORY_BUCKETS + 1); next <= bucket; next++) {
      this.waiting[next % HISTORY_BUCKETS] = size;
      this.delivered[next % HISTORY_BUCKETS] = 0;
    }
    this.current = bucket;
  }

  /** The waitlist has grown to `size` (after roll()). */
  noteWaiting(size: number): void {
    if (!this.waiting) return;
    const slot = this.current % HISTORY_BUCKETS;
    if (size > (this.waiting[slot] as number)) this.waiting[slot] = size;
  }

  /** A message of the key was delivered (after roll()). */
  noteDelivered(): void {
    if (this.delivered) this.delivered[this.current % HISTORY_BUCKETS]! += 1;
  }

  /** The buckets up to `now`, oldest first (call roll(now, size) first). */
  points(): FlowControlHistoryPoint[] {
    const points: FlowControlHistoryPoint[] = [];
    if (!this.waiting || !this.delivered) return points;
    for (
      let bucket = Math.max(this.first, this.current - HISTORY_BUCKETS + 1);
      bucket <= this.current;
      bucket++
    ) {
      const slot = bucket % HISTORY_BUCKETS;
      points.push({
        at: bucket * HISTORY_BUCKET_MS,
        waiting: this.waiting[slot] as number,
        delivered: this.delivered[slot] as number,
      });
    }
    return points;
  }
}
