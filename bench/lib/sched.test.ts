import { describe, expect, it } from 'vitest';

import { readSched, schedShares } from './sched';

// The scheduler counters are Linux's (/proc); elsewhere readSched reports nothing rather than guess.
const linux = process.platform === 'linux';
// readSched reads a process's main thread. Vitest's default pool (`forks`, which vitest.config.ts keeps) runs
// each test file on the main thread of a child process, so that is the thread these tests keep busy or asleep.

describe('scheduler shares (bench/lib/sched.ts)', () => {
  it.runIf(linux)('counts a busy thread as running or waiting for a CPU the whole time', () => {
    const before = readSched([process.pid])!;
    const until = Date.now() + 200;
    while (Date.now() < until) {
      // Busy: the thread is runnable throughout, so the two shares add up to the wall time however
      // loaded the machine is; only how they split depends on the load.
    }
    const shares = schedShares(before, readSched([process.pid])!);
    const me = shares.threads.get(process.pid)!;
    expect(me.ran).toBeGreaterThan(0);
    expect(me.ran + me.waited).toBeGreaterThan(0.8);
    expect(me.ran + me.waited).toBeLessThan(1.05);
    expect(shares.idle).toBeGreaterThanOrEqual(0);
    expect(shares.idle).toBeLessThanOrEqual(1);
  });

  it.runIf(linux)('counts a sleeping thread as neither', async () => {
    const before = readSched([process.pid])!;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const me = schedShares(before, readSched([process.pid])!).threads.get(process.pid)!;
    expect(me.ran + me.waited).toBeLessThan(0.5);
  });

  it('reports nothing for a process it cannot read', () => {
    // Pid 2^22 + 1 is above Linux's pid_max limit, so no such process exists.
    expect(readSched([4_194_305])).toBeUndefined();
  });
});
