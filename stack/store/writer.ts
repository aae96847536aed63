// Group commit for every write of the stack. Writes are named operations (functions of the store, listed in a
// registry) so that they can run either here on the main thread or in a dedicated writer thread:
//
// - InlineWriter: one SQLite transaction per turn of the event loop, on the main connection.
// - ThreadWriter: a worker thread owns the write connection. Whatever arrives while it is inside a transaction
//   (and its fsync) goes into the next one, and the main thread never blocks on the disk — that keeps HTTP
//   latency flat when fsync is slow.
//
// `commit()` resolves only after the transaction holding the write has committed: that is what lets a publish
// answer 200 only once the message is on disk. A failing write fails alone (its batch is retried op by op).
import { Worker, type MessagePort } from 'node:worker_threads';
import { openDatabase, type Db, type Durability } from './db';
import { StackStore } from './stack-store';

/**
 * A service's write operations: plain functions of the store whose arguments and results are structured-
 * cloneable (they may run in the writer thread). The stack merges every service's registry into one
 * (stack/writes.ts) so that all of them join the same group commits.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OpRegistry = Record<string, (store: StackStore, ...args: any[]) => unknown>;

type Args<F> = F extends (store: StackStore, ...args: infer A) => unknown ? A : never;
type Result<F> = F extends (...args: never[]) => infer R ? R : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * One registry from each service's (`{ messages: MESSAGE_WRITES, workflows: WORKFLOW_WRITES }`). Operation
 * names are one namespace: a name two services both define is refused when the stack loads.
 */
export function combineWrites<R extends Record<string, OpRegistry>>(byService: R): Intersection<R[keyof R]> {
  const combined: OpRegistry = {};
  for (const [service, ops] of Object.entries(byService)) {
    for (const [name, op] of Object.entries(ops)) {
      if (name in combined) throw new Error(`write operation '${name}' of ${service} is defined twice`);
      combined[name] = op;
    }
  }
  return combined as Intersection<R[keyof R]>;
}

/** One write: an operation name and its arguments (structured-cloneable). */
export type WriteCall<O extends OpRegistry> = { [K in keyof O & string]: [K, ...Args<O[K]>] }[keyof O &
  string];

/** The result of one write call: what its operation returns. */
export type WriteResult<O extends OpRegistry, C> = C extends [infer K, ...unknown[]]
  ? K extends keyof O
    ? Result<O[K]>
    : never
  : never;

/**
 * The results of a commitAll, call by call: a tuple of calls gives a tuple of their results (so that
 * `[finish, append]` resolves to `[string[] | null, AppendResult[]]`), an array the union of its results.
 */
export type WriteResults<O extends OpRegistry, C extends readonly unknown[]> = {
  -readonly [I in keyof C]: WriteResult<O, C[I]>;
};

export interface Writer<O extends OpRegistry> {
  /** Runs one operation in the next group transaction; resolves with its result once committed. */
  commit<K extends keyof O & string>(name: K, ...args: Args<O[K]>): Promise<Result<O[K]>>;
  /**
   * Several operations in the same transaction (all or nothing); resolves with their results, typed call by
   * call (the `[] |` lets a literal list of calls be read as a tuple).
   */
  commitAll<C extends [] | WriteCall<O>[]>(calls: C): Promise<WriteResults<O, C>>;
  /** Fire and forget (engine bookkeeping, log events); a failure is reported, never thrown. */
  enqueue(calls: WriteCall<O>[]): void;
  /** Commits what is queued, waits for it, and releases the writer. */
  close(): Promise<void>;
}

/**
 * Groups (commits of callers) settled in one turn of the event loop at most, and committed in one inline
 * transaction at most. A burst of 1,000 concurrent workflow triggers used to commit and settle in one turn: the
 * SQL of 1,000 groups plus each caller's continuation (its answer, its delivery's launch) held the event loop
 * for 2 s, so every other request of every service waited. Bounded turns keep one burst from blocking the loop;
 * a transaction still takes up to this many groups (few commits under load).
 */
export const GROUPS_PER_TURN = 64;

/**
 * Groups arriving this fast or faster (per ms since the previous transaction) mean the writer is saturated (see
 * busyIntervalMs). A rate, not a count per transaction: with a count, the longer busy interval itself gathered
 * enough groups to stay busy, so a steady 1,000 msg/s (about 2 groups a message: its publish and its delivery's
 * events) sat at 6 ms between commits for good, and publish answers took longer (p50 4.4 ms; 3.3–3.9 since).
 */
const BUSY_GROUPS_PER_MS = 3;

/**
 * The shortest time over which that rate is judged. Below saturation the inline writer commits at every turn, so
 * two transactions can be 0.2 ms apart with 2 groups each — a "rate" of 10 a ms that is no burst. Over at least
 * 5 ms, a transaction must carry 15 groups to count: a steady 1,000 msg/s (about 2 groups a ms) does not reach it
 * even after a short pause (a GC, a late timer), and a saturated stack (tens of groups a ms) always does.
 */
const SATURATION_WINDOW_MS = 5;

/** Whether a transaction of `groups` groups, `sinceLastMs` after the one before it, found the writer saturated. */
export function writerSaturated(groups: number, sinceLastMs: number): boolean {
  return groups >= BUSY_GROUPS_PER_MS * Math.max(sinceLastMs, SATURATION_WINDOW_MS);
}

interface Group {
  calls: [string, ...unknown[]][];
  resolve?: (results: unknown[]) => void;
  reject?: (error: Error) => void;
}

/** What became of one group: its operations' results, or the error that failed it (and only it). */
type Outcome = { ok: true; results: unknown[] } | { ok: false; error: string };

/**
 * Runs `work` in a transaction of `db`. better-sqlite3's `db.transaction(fn)` builds four wrapper functions and
 * their properties on every call (about 3 KB of garbage): made once per database here, not once per commit. At a
 * steady 1,000 msg/s the writer commits every turn, and those wrappers were the largest single allocation per
 * message (issue 26: 40.4 → 36.7 KB allocated a message, so fewer scavenges).
 */
const transactions = new WeakMap<Db, (work: () => void) => void>();
function inTransaction(db: Db, work: () => void): void {
  let run = transactions.get(db);
  if (!run) {
    run = db.transaction((inside: () => void) => inside());
    transactions.set(db, run);
  }
  run(work);
}

/** Runs groups in one transaction; if that fails, each group alone so that only the culprit fails. */
function runGroups(
  db: Db,
  store: StackStore,
  registry: OpRegistry,
  groups: { calls: [string, ...unknown[]][] }[],
): Outcome[] {
  const exec = (group: { calls: [string, ...unknown[]][] }): unknown[] =>
    group.calls.map(([name, ...args]) => {
      const op = registry[name];
      if (!op) throw new Error(`unknown write operation '${name}'`);
      return op(store, ...args);
    });
  try {
    let results: unknown[][] = [];
    inTransaction(db, () => {
      results = store.withLastWrites(() => groups.map(exec));
    });
    return results.map((value) => ({ ok: true as const, results: value }));
  } catch {
    return groups.map((group) => {
      try {
        let value: unknown[] = [];
        inTransaction(db, () => {
          value = store.withLastWrites(() => exec(group));
        });
        return { ok: true as const, results: value };
      } catch (error) {
        return { ok: false as const, error: error instanceof Error ? error.message : String(error) };
      }
    });
  }
}

abstract class BatchingWriter<O extends OpRegistry> implements Writer<O> {
  protected queue: Group[] = [];
  private scheduled: { cancel(): void; atNextTurn: boolean } | undefined;
  private lastFlush = -Infinity;
  protected closed = false;
  /**
   * Minimum time between two transactions below saturation. 0 for both writers: a write leaves at the next turn
   * of the event loop, so a publish is answered and delivered without waiting for a timer. (The inline writer
   * waited 2 ms until session 10, to make batches bigger; at a steady 1,000 msg/s that wait was the publish →
   * delivery p50 of 2.0 ms and most of its p99 of 6.4–6.9 ms. Without it, on a quiet machine: p50 0.7 ms, p99
   * 2.4 ms against BullMQ's 2.3–2.9 in the same runs (issue 26); a transaction then carries 1–3 groups, which
   * costs more CPU per message at that rate, and saturated runs are unchanged since busyIntervalMs applies.)
   */
  protected minIntervalMs = 0;
  /**
   * The minimum time between transactions once groups arrived at BUSY_GROUPS_PER_MS or faster: the stack is
   * saturated (a publish burst), and each commit's fixed cost — BEGIN/COMMIT and the WAL pages that every
   * transaction rewrites (the tail pages of the messages and events tables and their indexes) — is then
   * shared by more messages. Measured in `bench messages`' throughput run (issue 26): 2 → 6 ms cut the WAL
   * bytes and the server CPU per message and raised throughput; a steady 1,000 msg/s (about 2 groups per ms)
   * stays on `minIntervalMs` and keeps its latency.
   */
  protected busyIntervalMs = 0;
  /**
   * Queued groups that fill a transaction: once this many wait, the next one starts at the next turn instead of
   * after the interval, whose only purpose — sharing a commit's fixed cost among more groups — is then served.
   * Why it matters: the stack's callers are mostly closed loops (a publisher awaits its answer before its next
   * publish), so while a full queue sat out the 6 ms busy interval nothing new arrived and the main thread idled
   * at 50–70 %. Measured (issue 26, `bench messages`' throughput setup, 64 publishers): 9.2k → 12.0k msg/s, the
   * server's CPU per message unchanged (83–85 µs). Infinity for the writer thread, whose batch is not bounded
   * (one fsync for all of it).
   */
  protected fullTransaction = Infinity;
  /** Whether the last transaction found the writer saturated (writerSaturated). */
  private saturated = false;

  constructor(protected readonly onBackgroundError: (error: Error) => void) {}

  commit<K extends keyof O & string>(name: K, ...args: Args<O[K]>): Promise<Result<O[K]>> {
    return this.commitAll([[name, ...args] as WriteCall<O>]).then((results) => results[0] as Result<O[K]>);
  }

  commitAll<C extends [] | WriteCall<O>[]>(calls: C): Promise<WriteResults<O, C>> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    return new Promise<unknown[]>((resolve, reject) => {
      this.queue.push({ calls: calls as [string, ...unknown[]][], resolve, reject });
      this.schedule();
    }).then((results) => results as WriteResults<O, C>);
  }

  enqueue(calls: WriteCall<O>[]): void {
    if (this.closed || calls.length === 0) return;
    this.queue.push({ calls: calls as [string, ...unknown[]][] });
    this.schedule();
  }

  private schedule(): void {
    const full = this.queue.length >= this.fullTransaction;
    if (this.scheduled) {
      if (!full || this.scheduled.atNextTurn) return;
      this.scheduled.cancel();
    }
    const interval = this.saturated ? this.busyIntervalMs : this.minIntervalMs;
    this.scheduleFlush(full ? 0 : this.lastFlush + interval - performance.now());
  }

  /** The next flush: after `waitMs`, or at the next turn of the event loop when there is nothing to wait for. */
  private scheduleFlush(waitMs: number): void {
    const run = (): void => {
      this.scheduled = undefined;
      this.flushQueue();
    };
    if (waitMs > 0) {
      const timer = setTimeout(run, waitMs);
      this.scheduled = { cancel: () => clearTimeout(timer), atNextTurn: false };
    } else {
      const immediate = setImmediate(run);
      this.scheduled = { cancel: () => clearImmediate(immediate), atNextTurn: true };
    }
  }

  /** The queued groups (at most `limit`, oldest first); the rest stay queued. */
  protected takeQueue(limit = Infinity): Group[] {
    if (this.scheduled) {
      this.scheduled.cancel();
      this.scheduled = undefined;
    }
    const groups = this.queue.length > limit ? this.queue.splice(0, limit) : this.queue;
    if (groups === this.queue) this.queue = [];
    if (groups.length > 0) {
      const now = performance.now();
      this.saturated = writerSaturated(groups.length, now - this.lastFlush);
      this.lastFlush = now;
    }
    return groups;
  }

  /** Flushes again at the next turn, without the minimum interval: the rest of a burst is already waiting. */
  protected flushNextTurn(): void {
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduleFlush(0);
  }

  protected settle(group: Group, outcome: Outcome): void {
    if (outcome.ok) group.resolve?.(outcome.results);
    else if (group.reject) group.reject(new Error(outcome.error));
    else this.onBackgroundError(new Error(outcome.error));
  }

  protected abstract flushQueue(): void;
  abstract close(): Promise<void>;
}

/** Group commit on the main thread's connection. */
export class InlineWriter<O extends OpRegistry> extends BatchingWriter<O> {
  private readonly store: StackStore;

  constructor(
    private readonly db: Db,
    private readonly registry: O,
    onBackgroundError: (error: Error) => void,
  ) {
    super(onBackgroundError);
    this.store = new StackStore(db);
    this.busyIntervalMs = 6;
    this.fullTransaction = GROUPS_PER_TURN;
  }

  /**
   * Leaves checkpoints to a Checkpointer thread (the WAL is then only checkpointed here as a safety net, past
   * 128 MiB), so that commits on this thread never include one.
   */
  withCheckpointer(): this {
    this.db.pragma('wal_autocheckpoint = 32768');
    return this;
  }

  protected flushQueue(): void {
    // A bounded transaction per turn: its SQL and its callers' continuations run before the next one starts.
    const groups = this.takeQueue(GROUPS_PER_TURN);
    if (groups.length === 0) return;
    const outcomes = runGroups(this.db, this.store, this.registry, groups);
    groups.forEach((group, index) => this.settle(group, outcomes[index] as Outcome));
    this.flushNextTurn();
  }

  async close(): Promise<void> {
    while (this.queue.length > 0) this.flushQueue();
    this.closed = true;
  }
}

/** Batches handed to the writer thread and not yet committed; more wait on the main thread and join the next. */
const MAX_BATCHES_IN_FLIGHT = Number(process.env.SWITCHYARD_WRITER_DEPTH ?? 2);

interface ThreadRequest {
  batch: number;
  groups: { calls: [string, ...unknown[]][] }[];
}

/** Group commit in a worker thread that owns the write connection. */
export class ThreadWriter<O extends OpRegistry> extends BatchingWriter<O> {
  private readonly worker: Worker;
  private readonly inflight = new Map<number, Group[]>();
  private nextBatch = 0;
  private failure: Error | undefined;
  private drained: (() => void) | undefined;
  /** Resolves once the thread has opened its connection; rejects if it could not. */
  readonly ready: Promise<void>;

  constructor(
    /**
     * A script that calls runWriterThread() when started as a worker (the stack's bundled CLI does, with the
     * stack's registry of write operations: stack/writes.ts).
     */
    script: string,
    options: { file: string; durability: Durability },
    onBackgroundError: (error: Error) => void,
  ) {
    super(onBackgroundError);
    // A small heap: the writer holds only the batches in flight.
    this.worker = new Worker(script, {
      workerData: { role: 'sqlite-writer', ...options },
      resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 },
    });
    this.worker.unref();
    let markReady: () => void = () => undefined;
    let markFailed: (error: Error) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    this.ready.catch(() => undefined);
    this.worker.on('message', (message: { ready?: true; batch: number; outcomes: Outcome[] }) => {
      if (message.ready) {
        markReady();
        return;
      }
      const groups = this.inflight.get(message.batch) ?? [];
      this.settleInTurns(message.batch, groups, message.outcomes);
    });
    const fail = (error: Error): void => {
      this.failure = error;
      markFailed(error);
      for (const groups of this.inflight.values()) {
        for (const group of groups)
          this.settle(group, { ok: false, error: `writer thread failed: ${error.message}` });
      }
      this.inflight.clear();
      this.drained?.();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => {
      if (!this.closed) fail(new Error(`writer thread exited with code ${code}`));
    });
  }

  /**
   * Settles a committed batch GROUPS_PER_TURN groups per turn (the batch itself may be big: one fsync for all
   * of it); the batch counts as in flight until its last group is settled.
   */
  private settleInTurns(batch: number, groups: Group[], outcomes: Outcome[], from = 0): void {
    if (!this.inflight.has(batch)) return; // the thread failed meanwhile and settled the rest
    const to = Math.min(groups.length, from + GROUPS_PER_TURN);
    for (let index = from; index < to; index++)
      this.settle(groups[index] as Group, outcomes[index] as Outcome);
    if (to < groups.length) {
      // Only the unsettled ones stay in flight: a failure of the thread before the next turn settles those.
      this.inflight.set(batch, groups.slice(to));
      setImmediate(() => this.settleInTurns(batch, groups, outcomes, to));
      return;
    }
    this.inflight.delete(batch);
    if (this.queue.length > 0) this.flushQueue();
    else if (this.inflight.size === 0) this.drained?.();
  }

  protected flushQueue(): void {
    // One batch in flight at a time: whatever queues up meanwhile goes in the next one. Under load that makes
    // batches big (few messages between threads, few transactions); when idle a write leaves at once.
    if (this.inflight.size >= MAX_BATCHES_IN_FLIGHT && !this.failure && !this.closed) return;
    const groups = this.takeQueue();
    if (groups.length === 0) return;
    if (this.failure) {
      for (const group of groups)
        this.settle(group, { ok: false, error: `writer thread failed: ${this.failure.message}` });
      return;
    }
    const batch = this.nextBatch++;
    this.inflight.set(batch, groups);
    const request: ThreadRequest = { batch, groups: groups.map((group) => ({ calls: group.calls })) };
    this.worker.postMessage(request);
  }

  async close(): Promise<void> {
    // The worker is unref'd while it runs. Waiting for its last commits and its exit must keep the process
    // alive, or a shutdown with nothing else left to do would end the process here, before its last log line.
    this.worker.ref();
    this.flushQueue();
    this.closed = true;
    if (this.inflight.size > 0 && !this.failure) {
      await new Promise<void>((resolve) => (this.drained = resolve));
    }
    if (this.failure) {
      await this.worker.terminate();
      return;
    }
    // Let the thread close its connection (which checkpoints the WAL) before it ends.
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage({ close: true });
    await exited;
  }
}

/** Structured clone turns Buffers into Uint8Arrays; SQLite BLOB bindings want Buffers back. */
function revive(value: unknown): unknown {
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) {
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  if (Array.isArray(value)) return value.map(revive);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = revive(inner);
    return out;
  }
  return value;
}

/**
 * The worker side: opens its own connection (the schema is already migrated by the main thread) and commits
 * every batch that arrives, coalescing those that queued up during the previous transaction.
 */
export function runWriterThread(
  port: MessagePort,
  options: { file: string; durability: Durability },
  registry: OpRegistry,
): void {
  const db = openDatabase(options.file, options.durability);
  // The checkpointer thread keeps the WAL short; this is only a safety net if it falls far behind (128 MiB).
  db.pragma('wal_autocheckpoint = 32768');
  const store = new StackStore(db);
  let pending: ThreadRequest[] = [];
  let scheduled = false;
  port.postMessage({ ready: true });
  port.on('message', (request: ThreadRequest | { close: true }) => {
    if ('close' in request) {
      db.close();
      port.close();
      return;
    }
    pending.push(request);
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const requests = pending;
      pending = [];
      const groups = requests.flatMap((r) =>
        r.groups.map((g) => ({ calls: revive(g.calls) as [string, ...unknown[]][] })),
      );
      const outcomes = runGroups(db, store, registry, groups);
      let index = 0;
      for (const r of requests) {
        port.postMessage({ batch: r.batch, outcomes: outcomes.slice(index, index + r.groups.length) });
        index += r.groups.length;
      }
    });
  });
}

/**
 * Runs WAL checkpoints (copying the WAL into the database file, with its fsync) in a thread of their own, so
 * that they never hold up a commit: a checkpoint inside a commit stalled publishes by tens of milliseconds.
 * With `--durability normal` its checkpoints are also what fsyncs the WAL, within about 100 ms of a commit.
 */
export class Checkpointer {
  private readonly worker: Worker;

  constructor(script: string, file: string, onError: (error: Error) => void) {
    this.worker = new Worker(script, {
      workerData: { role: 'sqlite-checkpointer', file },
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 32 },
    });
    this.worker.unref();
    this.worker.on('error', (error) => onError(new Error(`checkpointer: ${error.message}`)));
  }

  /** A last checkpoint, then the thread ends. */
  async close(): Promise<void> {
    if (this.worker.threadId === -1) return;
    // Keep the process alive until the thread is gone (see ThreadWriter.close).
    this.worker.ref();
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage({ close: true });
    await exited;
  }
}

/**
 * The checkpointer thread: a PASSIVE checkpoint every `intervalMs` on its own connection. PASSIVE never waits
 * for the writer or readers; it copies what it can, and the writer rewinds the WAL once all of it is copied.
 */
export function runCheckpointerThread(port: MessagePort, options: { file: string }, intervalMs = 100): void {
  const db = openDatabase(options.file, 'full');
  const checkpoint = (): void => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy or locked: try again next time.
    }
  };
  const timer = setInterval(checkpoint, intervalMs);
  port.on('message', (message: { close?: boolean }) => {
    if (!message.close) return;
    clearInterval(timer);
    checkpoint();
    db.close();
    port.close();
  });
}
