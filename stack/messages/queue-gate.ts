// The queue gate of the delivery engine: FIFO admission per queue. A queue admits at most `parallelism`
// messages at once — admitted means due-waiting, in flight, or waiting for a retry (a retry keeps its slot,
// so the next message waits behind the head) — and a paused queue admits none. Entries leave when they
// finish, which admits the next one.

/** A queue as the engine tracks it in memory (its settings are also in the store's `queues` table). */
export interface QueueState<E> {
  name: string;
  parallelism: number;
  paused: boolean;
  /** Not yet admitted, in FIFO order, by seq (Map keeps insertion order; deletes are O(1)). */
  waiting: Map<number, E>;
  /** Admitted: holds the queue's parallelism slots. */
  active: Set<E>;
}

export interface QueueSettings {
  parallelism: number;
  paused: boolean;
}

export interface QueueGateOptions<E> {
  /** The stored settings of a queue met for the first time (undefined: a new queue, parallelism 1). */
  settings(name: string): QueueSettings | undefined;
  /** Called for each entry the moment its queue admits it. */
  admit(entry: E): void;
}

export class QueueGate<E extends { seq: number }> {
  private readonly queues = new Map<string, QueueState<E>>();
  private stopped = false;

  constructor(private readonly options: QueueGateOptions<E>) {}

  /** Known settings (at start-up, from the store). */
  load(queues: Iterable<QueueSettings & { name: string }>): void {
    for (const queue of queues) this.queues.set(queue.name, newQueue(queue.name, queue));
  }

  /** The queue's state, created (from its stored settings) on first use. */
  queue(name: string): QueueState<E> {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = newQueue(name, this.options.settings(name) ?? { parallelism: 1, paused: false });
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** Puts an entry at the end of its queue's line; admits it at once if a slot is free. */
  enqueue(queue: QueueState<E>, entry: E): void {
    queue.waiting.set(entry.seq, entry);
    this.pump(queue);
  }

  /** A finished (or cancelled) entry gives up its place or slot, which admits the next one. */
  leave(queue: QueueState<E>, entry: E): void {
    queue.waiting.delete(entry.seq);
    queue.active.delete(entry);
    this.pump(queue);
  }

  /** Applies a queue's (new) settings: parallelism and paused. */
  configure(name: string, parallelism: number, paused: boolean): void {
    const queue = this.queue(name);
    queue.parallelism = parallelism;
    queue.paused = paused;
    this.pump(queue);
  }

  /** A deleted queue keeps delivering what it still holds, one at a time, then disappears. */
  forget(name: string): void {
    const queue = this.queues.get(name);
    if (!queue) return;
    if (queue.waiting.size === 0 && queue.active.size === 0) this.queues.delete(name);
    else this.configure(name, 1, false);
  }

  /** Messages of the queue not yet delivered or failed. */
  lag(name: string): number {
    const queue = this.queues.get(name);
    return queue ? queue.waiting.size + queue.active.size : 0;
  }

  /** Admits nothing more (the engine is shutting down). */
  stop(): void {
    this.stopped = true;
  }

  private pump(queue: QueueState<E>): void {
    while (
      !queue.paused &&
      !this.stopped &&
      queue.active.size < queue.parallelism &&
      queue.waiting.size > 0
    ) {
      const entry = queue.waiting.values().next().value as E;
      queue.waiting.delete(entry.seq);
      queue.active.add(entry);
      this.options.admit(entry);
    }
  }
}

function newQueue<E>(name: string, settings: QueueSettings): QueueState<E> {
  return {
    name,
    parallelism: settings.parallelism,
    paused: settings.paused,
    waiting: new Map(),
    active: new Set(),
  };
}
