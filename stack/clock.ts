// Time for the engine. Production uses the system clock; tests inject a ManualClock and move it forward so
// that delays, backoff and rate windows of hours run in milliseconds.

export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Unix milliseconds. */
  now(): number;
  /** Calls `callback` once `ms` milliseconds have passed on this clock. */
  setTimer(callback: () => void, ms: number): Timer;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, ms) {
    // Node timers cap at 2^31-1 ms (~24.8 days); longer waits re-arm themselves.
    const MAX = 2_147_483_647;
    let handle: NodeJS.Timeout;
    const arm = (remaining: number): void => {
      handle = setTimeout(
        () => (remaining > MAX ? arm(remaining - MAX) : callback()),
        Math.max(0, Math.min(remaining, MAX)),
      );
    };
    arm(ms);
    return { cancel: () => clearTimeout(handle) };
  },
};

/** A clock that only moves when told to. Timers fire, in due order, inside advance()/set(). */
export class ManualClock implements Clock {
  private current: number;
  private timers: { due: number; order: number; callback: () => void; cancelled: boolean }[] = [];
  private order = 0;

  constructor(start = Date.now()) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(callback: () => void, ms: number): Timer {
    const timer = { due: this.current + Math.max(0, ms), order: this.order++, callback, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => void (timer.cancelled = true) };
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way (each at its own time). */
  advance(ms: number): void {
    this.set(this.current + ms);
  }

  set(time: number): void {
    for (;;) {
      this.timers = this.timers.filter((timer) => !timer.cancelled);
      const next = this.timers
        .filter((timer) => timer.due <= time)
        .sort((a, b) => a.due - b.due || a.order - b.order)[0];
      if (!next) break;
      this.current = Math.max(this.current, next.due);
      next.cancelled = true;
      next.callback();
    }
    this.current = Math.max(this.current, time);
  }
}
