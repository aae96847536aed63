// Time for the stack. Every timer of the stack (delays and not-before, retry backoff, callback retries, workflow
// sleeps, wait timeouts, flow-control rate windows, housekeeping) and every time it records reads one Clock.
//
// - StackClock, the production clock: the wall clock plus an offset that only grows. `advance()` (the local
//   stack's `POST /local/clock/advance`, stack/local/) moves it forward and fires at once everything that fell
//   due on the way; the offset is persisted by the caller, so a restart never moves time back.
// - ManualClock, for tests: time moves only when told, so hours of delays run in milliseconds.
// - systemClock: the plain wall clock (the warm-up's scratch service, which must not follow the stack clock).
import { MinHeap } from './messages/heap';

export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Unix milliseconds. */
  now(): number;
  /** Calls `callback` once `ms` milliseconds have passed on this clock. */
  setTimer(callback: () => void, ms: number): Timer;
}

/** A clock that can be moved forward (never back) on request. */
export interface AdvanceableClock extends Clock {
  /** How far this clock is ahead of the wall clock, in milliseconds. */
  offsetMs(): number;
  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way — timers set by those callbacks
   * included — in due order, each seeing its own due time as now(). Nothing fires twice.
   */
  advance(ms: number): void;
}

/** Node timers cap at 2^31-1 ms (~24.8 days); longer waits re-arm themselves. */
const MAX_TIMEOUT_MS = 2_147_483_647;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, ms) {
    let handle: NodeJS.Timeout;
    const arm = (remaining: number): void => {
      handle = setTimeout(
        () => (remaining > MAX_TIMEOUT_MS ? arm(remaining - MAX_TIMEOUT_MS) : callback()),
        Math.max(0, Math.min(remaining, MAX_TIMEOUT_MS)),
      );
    };
    arm(ms);
    return { cancel: () => clearTimeout(handle) };
  },
};

interface PendingTimer {
  /** Clock time it falls due. */
  dueAt: number;
  /** Creation order: timers due at the same time fire in the order they were set. */
  seq: number;
  callback: () => void;
  done: boolean;
  /** The real wake-up armed for it (StackClock only). */
  handle?: NodeJS.Timeout;
}

/** The timer table and the advance() of both advanceable clocks; they differ in what "now" is. */
abstract class TimerClock implements AdvanceableClock {
  private readonly pending = new Set<PendingTimer>();
  private sequence = 0;
  /** While advance() fires what fell due: the time callbacks see, the end of the move, what is left to fire. */
  private firing: { at: number; target: number; due: MinHeap<PendingTimer> } | undefined;

  /** The time outside an advance. */
  protected abstract current(): number;
  /** Moves current() forward by `ms` (once every due timer has fired). */
  protected abstract moveBy(ms: number): void;
  abstract offsetMs(): number;
  /** Arms whatever wakes the timer up at its due time (nothing for a manual clock). */
  protected wake(_timer: PendingTimer): void {}
  /** Disarms it. */
  protected sleep(_timer: PendingTimer): void {}

  now(): number {
    return this.firing?.at ?? this.current();
  }

  setTimer(callback: () => void, ms: number): Timer {
    const timer: PendingTimer = {
      dueAt: this.now() + Math.max(0, ms),
      seq: this.sequence++,
      callback,
      done: false,
    };
    this.pending.add(timer);
    if (!this.firing) this.wake(timer);
    else if (timer.dueAt <= this.firing.target) this.firing.due.push(timer);
    return { cancel: () => this.drop(timer) };
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`a clock only moves forward (asked: ${ms} ms)`);
    if (this.firing) throw new Error('advance() was called from a timer callback');
    const start = this.now();
    const due = new MinHeap<PendingTimer>();
    for (const timer of this.pending) if (timer.dueAt <= start + ms) due.push(timer);
    this.firing = { at: start, target: start + ms, due };
    let failure: { error: unknown } | undefined;
    try {
      for (let timer = due.pop(); timer; timer = due.pop()) {
        if (timer.done) continue;
        this.firing.at = Math.max(this.firing.at, timer.dueAt);
        try {
          this.fire(timer);
        } catch (error) {
          // One failing callback must not keep the others from firing; the first error is rethrown after.
          failure ??= { error };
        }
      }
    } finally {
      this.firing = undefined;
      this.moveBy(ms);
      // What is still pending was armed against the old time: re-arm it against the new one.
      for (const timer of this.pending) {
        this.sleep(timer);
        this.wake(timer);
      }
    }
    if (failure) throw failure.error;
  }

  protected fire(timer: PendingTimer): void {
    if (timer.done) return;
    this.drop(timer);
    timer.callback();
  }

  private drop(timer: PendingTimer): void {
    timer.done = true;
    this.pending.delete(timer);
    this.sleep(timer);
  }
}

/**
 * The stack's production clock: the wall clock plus an offset that only grows. Timers sleep on real timeouts;
 * advance() fires the ones that fell due and re-arms the rest against the new time.
 */
export class StackClock extends TimerClock {
  constructor(
    private offset = 0,
    private readonly wall: () => number = Date.now,
  ) {
    super();
    if (!Number.isFinite(offset) || offset < 0) throw new RangeError(`invalid clock offset ${offset}`);
  }

  offsetMs(): number {
    return this.offset;
  }

  protected current(): number {
    return this.wall() + this.offset;
  }

  protected moveBy(ms: number): void {
    this.offset += ms;
  }

  protected override wake(timer: PendingTimer): void {
    const remaining = timer.dueAt - this.current();
    timer.handle = setTimeout(
      () => {
        timer.handle = undefined;
        // Not due yet: a wait beyond Node's timer limit, or a wake-up a millisecond early.
        if (timer.dueAt > this.current()) this.wake(timer);
        else this.fire(timer);
      },
      Math.max(0, Math.min(remaining, MAX_TIMEOUT_MS)),
    );
  }

  protected override sleep(timer: PendingTimer): void {
    if (timer.handle === undefined) return;
    clearTimeout(timer.handle);
    timer.handle = undefined;
  }
}

/** A clock that only moves when told to. Timers fire, in due order, inside advance()/set(). */
export class ManualClock extends TimerClock {
  private time: number;

  constructor(start = Date.now()) {
    super();
    this.time = start;
  }

  offsetMs(): number {
    return this.time - Date.now();
  }

  protected current(): number {
    return this.time;
  }

  protected moveBy(ms: number): void {
    this.time += ms;
  }

  /** Moves time forward to `time` (never back), firing what falls due on the way. */
  set(time: number): void {
    this.advance(Math.max(0, time - this.now()));
  }
}
