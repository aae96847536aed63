// The flow-control gate of the delivery engine. Messages that share an `Upstash-Flow-Control-Key` share its
// limits: at most `parallelism` attempts in flight, and at most `rate` attempts started per `period`. Due
// messages over a limit wait in the key's waitlist (FIFO); finishing attempts and the end of a rate window
// let the next ones through.
import type { Clock, Timer } from '../clock';
import type { FlowControlSpec } from '../store/messages';

export interface FlowState<E> {
  key: string;
  parallelism?: number;
  rate?: number;
  periodMs: number;
  inflight: number;
  windowStart: number;
  windowCount: number;
  /** Due entries waiting for the key's limits, by seq, in FIFO order. */
  waitlist: Map<number, E>;
  /** Pending entries (waiting or not) that use the key. */
  refs: number;
  timer?: Timer;
}

export interface FlowGateOptions<E> {
  clock: Clock;
  /** Called for a waiting entry the moment the key lets it start (the attempt counts as started). */
  release(entry: E): void;
}

export class FlowGate<E extends { seq: number }> {
  private readonly flows = new Map<string, FlowState<E>>();
  private stopped = false;

  constructor(private readonly options: FlowGateOptions<E>) {}

  /** The key's state for a new pending entry; the most recent message's settings are the key's settings. */
  acquire(spec: FlowControlSpec): FlowState<E> {
    let flow = this.flows.get(spec.key);
    if (!flow) {
      flow = {
        key: spec.key,
        periodMs: spec.period * 1_000,
        inflight: 0,
        windowStart: -Infinity,
        windowCount: 0,
        waitlist: new Map(),
        refs: 0,
      };
      this.flows.set(spec.key, flow);
    }
    flow.parallelism = spec.parallelism;
    flow.rate = spec.rate;
    flow.periodMs = spec.period * 1_000;
    flow.refs++;
    return flow;
  }

  /** Starts an attempt now if nobody waits and the limits allow it; false: the caller must wait(). */
  tryStart(flow: FlowState<E>): boolean {
    const now = this.options.clock.now();
    if (flow.waitlist.size > 0 || !this.canStart(flow, now)) return false;
    this.take(flow, now);
    return true;
  }

  /** Joins the key's waitlist; release() is called once it may start. */
  wait(flow: FlowState<E>, entry: E): void {
    flow.waitlist.set(entry.seq, entry);
    this.pump(flow);
  }

  /** An attempt of the key has ended (whatever its outcome): frees its parallelism slot. Call pump() after. */
  attemptEnded(flow: FlowState<E>): void {
    flow.inflight--;
  }

  /** Lets waiting entries start as far as the limits allow; arms a timer for the end of a full rate window. */
  pump(flow: FlowState<E>): void {
    if (this.stopped) return;
    const now = this.options.clock.now();
    while (flow.waitlist.size > 0 && this.canStart(flow, now)) {
      const entry = flow.waitlist.values().next().value as E;
      flow.waitlist.delete(entry.seq);
      this.take(flow, now);
      this.options.release(entry);
    }
    if (flow.waitlist.size > 0 && !flow.timer && flow.rate !== undefined && flow.windowCount >= flow.rate) {
      // Rate-limited: wake up when the window ends. (Parallelism waits are woken by finishing attempts.)
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
    if (waiting) flow.waitlist.delete(entry.seq);
    flow.refs--;
    if (flow.refs <= 0 && flow.inflight === 0 && flow.waitlist.size === 0) {
      flow.timer?.cancel();
      // Keep the rate window of a key that is still inside it, so that a burst right after does not exceed it.
      if (flow.rate === undefined || this.options.clock.now() >= flow.windowStart + flow.periodMs) {
        this.flows.delete(flow.key);
      }
    }
  }

  /** Releases nothing more and cancels the rate timers (the engine is shutting down). */
  stop(): void {
    this.stopped = true;
    for (const flow of this.flows.values()) flow.timer?.cancel();
  }

  private canStart(flow: FlowState<E>, now: number): boolean {
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
    }
    flow.inflight++;
  }
}
