// Group commit: every write asked for during one turn of the event loop runs in one SQLite transaction, so
// a burst of publishes costs one fsync instead of one each. `commit()` resolves only after the transaction
// holding the write has committed — that is what lets a publish answer 200 only once the message is on disk.
import type { Db } from './db';

interface Op {
  run: () => unknown;
  resolve?: (value: unknown) => void;
  reject?: (error: unknown) => void;
}

export class WriteBatcher {
  private ops: Op[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    /** Called when a fire-and-forget write fails; such a failure means a log line, never a lost message. */
    private readonly onBackgroundError: (error: unknown) => void,
  ) {}

  /** Runs `fn` inside the next group transaction and resolves with its result once that has committed. */
  commit<T>(fn: () => T): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    return new Promise<T>((resolve, reject) => {
      this.ops.push({ run: fn, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Runs `fn` in the next group transaction; nobody waits for it (engine bookkeeping, event logs). */
  enqueue(fn: () => void): void {
    if (this.closed) return;
    this.ops.push({ run: fn });
    this.schedule();
  }

  /** Commits everything queued now, synchronously. */
  flush(): void {
    if (this.scheduled) {
      clearImmediate(this.scheduled);
      this.scheduled = undefined;
    }
    while (this.ops.length > 0) {
      const ops = this.ops;
      this.ops = [];
      this.runBatch(ops);
    }
  }

  /** Flushes and refuses further writes. */
  close(): void {
    this.flush();
    this.closed = true;
  }

  private schedule(): void {
    if (!this.scheduled) this.scheduled = setImmediate(() => this.flush());
  }

  private runBatch(ops: Op[]): void {
    let results: unknown[] = [];
    try {
      this.db.transaction(() => {
        results = ops.map((op) => op.run());
      })();
    } catch {
      // One bad write must not sink the others: retry each alone so that only the culprit fails.
      for (const op of ops) this.runAlone(op);
      return;
    }
    ops.forEach((op, index) => op.resolve?.(results[index]));
  }

  private runAlone(op: Op): void {
    let result: unknown;
    try {
      result = this.db.transaction(() => op.run())();
    } catch (error) {
      if (op.reject) op.reject(error);
      else this.onBackgroundError(error);
      return;
    }
    op.resolve?.(result);
  }
}
