import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, StackClock, type Timer } from './clock';

const HOUR = 3_600_000;

/** Timers a test set on a StackClock, cancelled after it so that no real timeout outlives the test. */
const armed: Timer[] = [];
afterEach(() => {
  for (const timer of armed.splice(0)) timer.cancel();
});

function fired(): {
  log: { name: string; at: number }[];
  timer: (clock: StackClock, name: string, ms: number) => void;
} {
  const log: { name: string; at: number }[] = [];
  return {
    log,
    timer: (clock, name, ms) => armed.push(clock.setTimer(() => log.push({ name, at: clock.now() }), ms)),
  };
}

describe('StackClock', () => {
  it('is the wall clock plus its offset', () => {
    let wall = 1_000_000;
    const clock = new StackClock(5_000, () => wall);
    expect(clock.now()).toBe(1_005_000);
    wall += 10;
    expect(clock.now()).toBe(1_005_010);
    expect(clock.offsetMs()).toBe(5_000);
  });

  it('fires what falls due in an advance at once, in due order, each at its own time; later timers wait', () => {
    const wall = 1_000_000;
    const clock = new StackClock(0, () => wall);
    const { log, timer } = fired();
    timer(clock, '2h', 2 * HOUR);
    timer(clock, '1h', HOUR);
    timer(clock, '1h again', HOUR);
    timer(clock, '9h', 9 * HOUR);
    clock.advance(3 * HOUR);
    expect(log).toEqual([
      { name: '1h', at: wall + HOUR },
      { name: '1h again', at: wall + HOUR },
      { name: '2h', at: wall + 2 * HOUR },
    ]);
    expect(clock.now()).toBe(wall + 3 * HOUR);
    expect(clock.offsetMs()).toBe(3 * HOUR);
    clock.advance(6 * HOUR - 1);
    expect(log).toHaveLength(3);
    clock.advance(1);
    expect(log.map((entry) => entry.name)).toEqual(['1h', '1h again', '2h', '9h']);
    expect(log[3]?.at).toBe(wall + 9 * HOUR);
  });

  it('fires timers set by callbacks during the advance when they fall inside it', () => {
    const wall = 5_000_000;
    const clock = new StackClock(0, () => wall);
    const { log, timer } = fired();
    // A retry chain: each attempt 1 h after the one before, as backoff arms it.
    let attempts = 0;
    const attempt = (): void => {
      attempts++;
      log.push({ name: `attempt ${attempts}`, at: clock.now() });
      if (attempts < 5) armed.push(clock.setTimer(attempt, HOUR));
    };
    armed.push(clock.setTimer(attempt, HOUR));
    timer(clock, 'between', 2.5 * HOUR);
    clock.advance(3 * HOUR);
    expect(log).toEqual([
      { name: 'attempt 1', at: wall + HOUR },
      { name: 'attempt 2', at: wall + 2 * HOUR },
      { name: 'between', at: wall + 2.5 * HOUR },
      { name: 'attempt 3', at: wall + 3 * HOUR },
    ]);
    clock.advance(2 * HOUR);
    expect(log.map((entry) => entry.name).slice(4)).toEqual(['attempt 4', 'attempt 5']);
  });

  it('re-arms pending timers against the new time: a timer an advance brought close fires on its own', async () => {
    const clock = new StackClock();
    // Read before the timer is set: its due time counts from then (read after, it could be a millisecond later).
    const before = clock.now();
    const fire = new Promise<number>((resolve) =>
      armed.push(clock.setTimer(() => resolve(clock.now()), HOUR + 50)),
    );
    clock.advance(HOUR);
    // Due 50 ms after the advance, in real time: without the re-arm it would wait an hour.
    const at = await fire;
    expect(at).toBeGreaterThanOrEqual(before + HOUR + 50);
  });

  it('fires a timer on the wall clock when nothing advances it', async () => {
    const clock = new StackClock(7 * 86_400_000);
    const start = clock.now();
    const fired = await new Promise<{ at: number; wall: number }>((resolve) =>
      armed.push(clock.setTimer(() => resolve({ at: clock.now(), wall: Date.now() }), 20)),
    );
    expect(fired.at).toBeGreaterThanOrEqual(start + 20);
    // Read a moment apart: the wall clock may have ticked in between.
    expect(fired.at - fired.wall).toBeLessThanOrEqual(7 * 86_400_000);
    expect(fired.at - fired.wall).toBeGreaterThan(7 * 86_400_000 - 50);
  });

  it('never fires a cancelled timer, nor one twice (advanced past, then its real timeout)', async () => {
    const clock = new StackClock();
    const { log, timer } = fired();
    timer(clock, 'once', 30);
    const cancelled = clock.setTimer(() => log.push({ name: 'cancelled', at: clock.now() }), 10);
    cancelled.cancel();
    clock.advance(1_000);
    expect(log.map((entry) => entry.name)).toEqual(['once']);
    // Long enough for both real timeouts to have run had they been left armed.
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(log.map((entry) => entry.name)).toEqual(['once']);
  });

  it('refuses to move back, and an advance from inside a timer', () => {
    const clock = new StackClock();
    expect(() => clock.advance(-1)).toThrow(/only moves forward/);
    expect(() => clock.advance(Number.NaN)).toThrow(/only moves forward/);
    expect(() => new StackClock(-5)).toThrow(/invalid clock offset/);
    let inner: unknown;
    armed.push(
      clock.setTimer(() => {
        try {
          clock.advance(1);
        } catch (error) {
          inner = error;
        }
      }, 10),
    );
    clock.advance(10);
    expect(String(inner)).toMatch(/from a timer callback/);
  });

  it('keeps firing the others when a callback throws, and reports the first error after', () => {
    const clock = new StackClock(0, () => 0);
    const { log, timer } = fired();
    armed.push(
      clock.setTimer(() => {
        throw new Error('boom');
      }, 10),
    );
    timer(clock, 'after', 20);
    expect(() => clock.advance(100)).toThrow('boom');
    expect(log.map((entry) => entry.name)).toEqual(['after']);
    expect(clock.now()).toBe(100);
  });
});

describe('ManualClock', () => {
  it('moves only when told, firing in due order, and set() never moves back', () => {
    const clock = new ManualClock(1_000);
    const log: number[] = [];
    clock.setTimer(() => log.push(clock.now()), 50);
    clock.set(500);
    expect(clock.now()).toBe(1_000);
    expect(log).toEqual([]);
    clock.set(2_000);
    expect(log).toEqual([1_050]);
    expect(clock.now()).toBe(2_000);
  });
});
