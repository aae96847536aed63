// Test helper for main's stream handlers (the KV monitor, pub/sub): a sink that records what a stream
// pushed and how it ended, and lets a test wait for an event. Not a test file itself.
import type { BridgeErrorData } from '../../../../shared/bridge/errors';
import type { StreamSink } from '../../bridge/router';

export class Recorder<E> implements StreamSink<E> {
  readonly events: E[] = [];
  ended: { error?: BridgeErrorData } | undefined;
  private waiters: (() => void)[] = [];
  push(event: E): void {
    this.events.push(event);
    this.wake();
  }
  end(error?: BridgeErrorData): void {
    this.ended = { error };
    this.wake();
  }
  /** The first event that matches, once it arrived; rejects if the stream ends first. */
  async until(match: (event: E) => boolean): Promise<E> {
    for (;;) {
      const found = this.events.find(match);
      if (found !== undefined) return found;
      if (this.ended) throw new Error(`stream ended: ${JSON.stringify(this.ended)}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((w) => w());
  }
}
