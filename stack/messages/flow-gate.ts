// The flow-control gate of the delivery engine. Messages (and workflow steps) that share an
// `Upstash-Flow-Control-Key` share its limits: at most `parallelism` attempts in flight, and at most `rate`
// attempts started per `period`. Due messages over a limit — or of a paused key — wait in the key's
// waitlist (FIFO); finishing attempts, the end of a rate period and resume let the next ones through.
//
// The management API (flow-control-routes.ts) pauses and resumes a key, pins its settings (incoming
// messages then no longer change them) and resets its rate period. What must survive a restart — settings,
// pause, pins, the current rate period — is in the store's `flow_keys` table: the gate writes a key's row
// whenever one of these changes (routes commit theirs before answering; the engine's own changes, such as a
// new message's settings or an attempt counted in the period, are written with the next group commit).
import type { Clock, Timer } from '../clock';
import type { FlowKeyRecord } from '../store/flow-keys';
import type { FlowControlSpec } from '../store/messages';
import type { FlowControlInfo, FlowControlPin, FlowControlUnpin } from '../../shared/messages/flow-control';
import { FlowHistory } from './flow-history';

export interface FlowState<E> {
  key: string;
  parallelism?: number;
  rate?: number;
  periodMs: number;
  /** The seq of the message whose settings the key has (see FlowKeyRecord). */
  settingsSeq: number;
  paused: boolean;
  pinnedParallelism: boolean;
  pinnedRate: boolean;
  inflight: number;
  windowStart: number;
  windowCount: number;
  /** Due entries waiting for the key's limits, by seq, in FIFO order. */
  waitlist: Map<number, E>;
  /** Pending entries (waiting or not) that use the key. */
  refs: number;
  timer?: Timer;
  createdAt: number;
  /** Last time a message used the key or someone changed it (idle keys are forgotten after a while). */
  updatedAt: number;
  history: FlowHistory;
}

export interface FlowGateOptions<E> {
  clock: Clock;
  /** Called for a waiting entry the moment the key lets it start (the attempt counts as started). */
  release(entry: E): void;
  /** Hands the rows of keys whose stored state changed to the writer (fire and forget). */
  persist?(records: FlowKeyRecord[]): void;
  /** Hands the keys forgotten by prune() to the writer. */
  forget?(keys: string[]): void;
}

/** What the management routes (flow-control-routes.ts) and housekeeping do with the gate. */
export type FlowControl = Pick<
  FlowGate<{ seq: number }>,
  'has' | 'keys' | 'info' | 'history' | 'setPaused' | 'pin' | 'unpin' | 'resetRate' | 'prune'
>;

export class FlowGate<E extends { seq: number }> {
  private readonly flows = new Map<string, FlowState<E>>();
  private readonly dirty = new Set<FlowState<E>>();
  private flushScheduled = false;
  private stopped = false;

  constructor(private readonly options: FlowGateOptions<E>) {}

  /** The stored keys, at start-up before any message is added. */
  load(records: Iterable<FlowKeyRecord>): void {
    for (const record of records) {
      const flow = this.create(record.key, record.createdAt);
      flow.parallelism = record.parallelism;
      flow.rate = record.rate;
      flow.periodMs = record.period * 1_000;
      flow.settingsSeq = record.settingsSeq;
      flow.paused = record.paused;
      flow.pinnedParallelism = record.pinnedParallelism;
      flow.pinnedRate = record.pinnedRate;
      flow.windowStart = record.periodStart ?? -Infinity;
      flow.windowCount = record.periodCount;
      flow.updatedAt = record.updatedAt;
    }
  }

  /**
   * The key's state for a new pending entry (message `seq`). A message newer than the key's settings gives
   * the key its settings, except those that are pinned; at start-up the stored settings win over the older
   * messages that are still pending.
   */
  acquire(spec: FlowControlSpec, seq: number): FlowState<E> {
    const now = this.options.clock.now();
    let flow = this.flows.get(spec.key);
    const created = !flow;
    flow ??= this.create(spec.key, now);
    flow.refs++;
    flow.updatedAt = now;
    if (seq > flow.settingsSeq) {
      flow.settingsSeq = seq;
      let changed = created;
      if (!flow.pinnedParallelism && flow.parallelism !== spec.parallelism) {
        flow.parallelism = spec.parallelism;
        changed = true;
      }
      if (!flow.pinnedRate && (flow.rate !== spec.rate || flow.periodMs !== spec.period * 1_000)) {
        flow.rate = spec.rate;
        flow.periodMs = spec.period * 1_000;
        changed = true;
      }
      if (changed) {
        this.markDirty(flow);
        if (!created) this.pump(flow);
      }
    }
    return flow;
  }

  /** Starts an attempt now if nobody waits and the key lets it; false: the caller must wait(). */
  tryStart(flow: FlowState<E>): boolean {
    const now = this.options.clock.now();
    if (flow.waitlist.size > 0 || !this.canStart(flow, now)) return false;
    this.take(flow, now);
    return true;
  }

  /** Joins the key's waitlist; release() is called once it may start. */
  wait(flow: FlowState<E>, entry: E): void {
    flow.history.roll(this.options.clock.now(), flow.waitlist.size);
    flow.waitlist.set(entry.seq, entry);
    flow.history.noteWaiting(flow.waitlist.size);
    this.pump(flow);
  }

  /** An attempt of the key has ended (whatever its outcome): frees its parallelism slot. Call pump() after. */
  attemptEnded(flow: FlowState<E>): void {
    flow.inflight--;
  }

  /** A message of the key was delivered (for the key's history). */
  delivered(flow: FlowState<E>): void {
    flow.history.roll(this.options.clock.now(), flow.waitlist.size);
    flow.history.noteDelivered();
  }

  /** Lets waiting entries start as far as the key allows; arms a timer for the end of a full rate period. */
  pump(flow: FlowState<E>): void {
    if (this.stopped || flow.paused) return;
    const now = this.options.clock.now();
    if (flow.waitlist.size > 0) flow.history.roll(now, flow.waitlist.size);
    while (flow.waitlist.size > 0 && this.canStart(flow, now)) {
      const entry = flow.waitlist.values().next().value as E;
      flow.waitlist.delete(entry.seq);
      this.take(flow, now);
      this.options.release(entry);
    }
    const rateFull =
      flow.rate !== undefined && now < flow.windowStart + flow.periodMs && flow.windowCount >= flow.rate;
    if (flow.waitlist.size > 0 && !flow.timer && rateFull) {
      // Rate-limited: wake up when the period ends. (Parallelism waits are woken by finishing attempts: once
      // the period is over, a timer at its end would fire at once and again for as long as they run — a
      // busy loop on the wall clock, and one that never ends inside an advance of the stack clock.)
      flow.timer = this.options.clock.setTimer(
        () => {
          flow.timer = undefined;
          this.pump(flow);
        },
        Math.max(0, flow.windowStart + flow.periodMs - now),
      );
    }
  }

  /** A pending entry of the key is finished or cancelled; `waiting` when it was still in the waitlist. */
  leave(flow: FlowState<E>, entry: E, waiting: boolean): void {
    if (waiting) {
      flow.history.roll(this.options.clock.now(), flow.waitlist.size);
      flow.waitlist.delete(entry.seq);
    }
    flow.refs--;
    if (flow.refs <= 0 && flow.waitlist.size === 0) {
      flow.timer?.cancel();
      flow.timer = undefined;
    }
  }

  // ---------------------------------------------------------------- management (flow-control-routes.ts)

  has(key: string): boolean {
    return this.flows.has(key);
  }

  /** Every key, by name. */
  keys(): string[] {
    return [...this.flows.keys()].sort();
  }

  info(key: string): FlowControlInfo | undefined {
    const flow = this.flows.get(key);
    if (!flow) return undefined;
    const now = this.options.clock.now();
    const inPeriod = flow.rate !== undefined && now < flow.windowStart + flow.periodMs;
    return {
      flowControlKey: flow.key,
      waitListSize: flow.waitlist.size,
      parallelismMax: flow.parallelism ?? 0,
      parallelismCount: flow.inflight,
      rateMax: flow.rate ?? 0,
      rateCount: inPeriod ? flow.windowCount : 0,
      ratePeriod: Math.round(flow.periodMs / 1_000),
      ratePeriodStart: inPeriod ? Math.floor(flow.windowStart / 1_000) : 0,
      isPaused: flow.paused,
      isPinnedParallelism: flow.pinnedParallelism,
      isPinnedRate: flow.pinnedRate,
    };
  }

  /** The key's waiting and delivered counts over the last minutes (flow-history.ts). */
  history(key: string): FlowHistory | undefined {
    const flow = this.flows.get(key);
    flow?.history.roll(this.options.clock.now(), flow.waitlist.size);
    return flow?.history;
  }

  /** How many entries wait ahead of the one with `seq`, or undefined when the key does not hold it. */
  ahead(key: string, seq: number): number | undefined {
    const flow = this.flows.get(key);
    if (!flow?.waitlist.has(seq)) return undefined;
    let ahead = 0;
    for (const waiting of flow.waitlist.keys()) {
      if (waiting === seq) return ahead;
      ahead++;
    }
    return undefined;
  }

  /**
   * Holds (or releases, in order) the key's due messages; attempts in flight go on. Answers the key's row to
   * commit, or undefined for an unknown key.
   */
  setPaused(key: string, paused: boolean): FlowKeyRecord | undefined {
    return this.change(key, (flow) => {
      flow.paused = paused;
      if (paused) {
        flow.timer?.cancel();
        flow.timer = undefined;
      }
    });
  }

  /**
   * Fixes the key's parallelism and/or rate and period (incoming messages no longer change them) and starts
   * a new rate period, as the real service does. A period alone changes the pinned rate's period.
   */
  pin(key: string, pin: FlowControlPin): FlowKeyRecord | undefined {
    return this.change(key, (flow) => {
      if (pin.parallelism !== undefined) {
        flow.parallelism = pin.parallelism;
        flow.pinnedParallelism = true;
      }
      if (pin.rate !== undefined || pin.period !== undefined) {
        if (pin.rate !== undefined) flow.rate = pin.rate;
        if (pin.period !== undefined) flow.periodMs = pin.period * 1_000;
        flow.pinnedRate = true;
      }
      this.newPeriod(flow);
    });
  }

  /** Lets incoming messages change the key's settings again; they stay as pinned until a message does. */
  unpin(key: string, unpin: FlowControlUnpin): FlowKeyRecord | undefined {
    return this.change(key, (flow) => {
      if (unpin.parallelism) flow.pinnedParallelism = false;
      if (unpin.rate) flow.pinnedRate = false;
    });
  }

  /** Clears the current period's count: the period starts again now. */
  resetRate(key: string): FlowKeyRecord | undefined {
    return this.change(key, (flow) => this.newPeriod(flow));
  }

  /**
   * Forgets keys nobody has used since `before`: no pending message, nothing in flight, not paused, nothing
   * pinned, no rate period running. Answers their names (the caller deletes their rows).
   */
  prune(before: number): string[] {
    const now = this.options.clock.now();
    const gone: string[] = [];
    for (const flow of this.flows.values()) {
      const idle =
        flow.refs <= 0 &&
        flow.inflight <= 0 &&
        flow.waitlist.size === 0 &&
        !flow.paused &&
        !flow.pinnedParallelism &&
        !flow.pinnedRate &&
        flow.updatedAt < before &&
        (flow.rate === undefined || now >= flow.windowStart + flow.periodMs);
      if (!idle) continue;
      this.flows.delete(flow.key);
      this.dirty.delete(flow);
      gone.push(flow.key);
    }
    if (gone.length > 0) this.options.forget?.(gone);
    return gone;
  }

  /** Releases nothing more, cancels the rate timers and writes what changed (the engine is shutting down). */
  stop(): void {
    this.stopped = true;
    for (const flow of this.flows.values()) flow.timer?.cancel();
    this.flush();
  }

  // ---------------------------------------------------------------- internals

  private create(key: string, now: number): FlowState<E> {
    const flow: FlowState<E> = {
      key,
      periodMs: 1_000,
      settingsSeq: -1,
      paused: false,
      pinnedParallelism: false,
      pinnedRate: false,
      inflight: 0,
      windowStart: -Infinity,
      windowCount: 0,
      waitlist: new Map(),
      refs: 0,
      createdAt: now,
      updatedAt: now,
      history: new FlowHistory(),
    };
    this.flows.set(key, flow);
    return flow;
  }

  private change(key: string, apply: (flow: FlowState<E>) => void): FlowKeyRecord | undefined {
    const flow = this.flows.get(key);
    if (!flow) return undefined;
    apply(flow);
    flow.updatedAt = this.options.clock.now();
    // The caller commits this row before it answers; a pending lazy write would only repeat it.
    this.dirty.delete(flow);
    this.pump(flow);
    return this.record(flow);
  }

  private newPeriod(flow: FlowState<E>): void {
    flow.windowStart = this.options.clock.now();
    flow.windowCount = 0;
    flow.timer?.cancel();
    flow.timer = undefined;
  }

  private canStart(flow: FlowState<E>, now: number): boolean {
    if (flow.paused) return false;
    if (flow.parallelism !== undefined && flow.inflight >= flow.parallelism) return false;
    if (flow.rate !== undefined && now < flow.windowStart + flow.periodMs && flow.windowCount >= flow.rate)
      return false;
    return true;
  }

  private take(flow: FlowState<E>, now: number): void {
    if (flow.rate !== undefined) {
      if (now >= flow.windowStart + flow.periodMs) {
        flow.windowStart = now;
        flow.windowCount = 0;
      }
      flow.windowCount++;
      // The period's count survives a restart (written with the next group commit).
      this.markDirty(flow);
    }
    flow.inflight++;
  }

  private markDirty(flow: FlowState<E>): void {
    if (!this.options.persist) return;
    this.dirty.add(flow);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // One write per turn of the event loop, however many attempts of however many keys started in it.
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.dirty.size === 0) return;
    const records = [...this.dirty].map((flow) => this.record(flow));
    this.dirty.clear();
    this.options.persist?.(records);
  }

  private record(flow: FlowState<E>): FlowKeyRecord {
    return {
      key: flow.key,
      parallelism: flow.parallelism,
      rate: flow.rate,
      period: Math.round(flow.periodMs / 1_000),
      settingsSeq: flow.settingsSeq,
      paused: flow.paused,
      pinnedParallelism: flow.pinnedParallelism,
      pinnedRate: flow.pinnedRate,
      periodStart: Number.isFinite(flow.windowStart) ? flow.windowStart : undefined,
      periodCount: flow.windowCount,
      createdAt: flow.createdAt,
      updatedAt: flow.updatedAt,
    };
  }
}
