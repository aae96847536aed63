// One open stream on its way to the renderer: a bounded buffer that drops the oldest events when full
// (counting them), flushed as one batch at most about every 50 ms so a fast source never means one IPC or
// socket message per event. After a quiet spell (and so for a stream's first events) the batch goes out on
// the next turn of the event loop: a screen waiting for its first rows never waits out the interval.
import type { BridgeErrorData } from '../../../shared/bridge/errors';
import type { ServerFrame } from '../../../shared/bridge/frames';

export interface StreamChannelOptions {
  /** Most events held between flushes; beyond it the oldest are dropped. */
  capacity?: number;
  flushIntervalMs?: number;
  /** When the transport is backed up, flushes are postponed and the bounded buffer absorbs the burst. */
  isCongested?: () => boolean;
}

export class StreamChannel {
  private buffer: unknown[] = [];
  private head = 0;
  private dropped = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** When the last batch was sent (performance.now()); -Infinity before the first. */
  private lastFlush = -Infinity;
  private ended = false;
  private readonly capacity: number;
  private readonly flushIntervalMs: number;

  constructor(
    readonly id: number,
    private readonly emit: (frame: ServerFrame) => void,
    private readonly options: StreamChannelOptions = {},
  ) {
    this.capacity = options.capacity ?? 2000;
    this.flushIntervalMs = options.flushIntervalMs ?? 50;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  get pending(): number {
    return this.buffer.length - this.head;
  }

  push(event: unknown): void {
    if (this.ended) return;
    if (this.pending >= this.capacity) {
      this.head += 1;
      this.dropped += 1;
      // Compact now and then so dropped slots do not accumulate.
      if (this.head > this.capacity) {
        this.buffer = this.buffer.slice(this.head);
        this.head = 0;
      }
    }
    this.buffer.push(event);
    this.schedule();
  }

  /** Sends what is buffered now (unless the transport is congested and `force` is false). */
  flush(force = false): void {
    this.timer = null;
    if (this.pending === 0 && this.dropped === 0) return;
    if (!force && this.options.isCongested?.()) {
      this.timer = setTimeout(() => this.flush(), this.flushIntervalMs);
      return;
    }
    const events = this.buffer.slice(this.head);
    const dropped = this.dropped;
    this.buffer = [];
    this.head = 0;
    this.dropped = 0;
    this.lastFlush = performance.now();
    this.emit({ type: 'events', id: this.id, events, dropped });
  }

  /** Flushes what is left and tells the renderer the stream is over. Idempotent. */
  end(error?: BridgeErrorData): void {
    if (this.ended) return;
    if (this.timer) clearTimeout(this.timer);
    this.flush(true);
    this.ended = true;
    this.emit(error ? { type: 'end', id: this.id, error } : { type: 'end', id: this.id });
  }

  /** Drops everything without telling the renderer (the renderer is gone). */
  discard(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.ended = true;
    this.buffer = [];
  }

  private schedule(): void {
    if (this.timer || this.ended) return;
    // Events pushed in the same turn still travel together: the soonest flush is a 0 ms timer.
    const wait = Math.max(0, this.lastFlush + this.flushIntervalMs - performance.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }
}
