import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { FlowGate } from './flow-gate';

interface E {
  seq: number;
}

function gate() {
  const clock = new ManualClock(1_000_000);
  const released: number[] = [];
  const flows = new FlowGate<E>({ clock, release: (entry) => released.push(entry.seq) });
  /** What the engine does with a due entry: start it now, or let it wait. */
  const due = (flow: ReturnType<typeof flows.acquire>, entry: E): boolean => {
    if (flows.tryStart(flow)) return true;
    flows.wait(flow, entry);
    return false;
  };
  return { clock, flows, released, due };
}

describe('flow-control gate', () => {
  it('keeps at most `parallelism` attempts of a key in flight, releasing waiters in order', () => {
    const { flows, released, due } = gate();
    const entries = [1, 2, 3, 4].map((seq) => ({ seq }));
    const flow = flows.acquire({ key: 'k', parallelism: 2, period: 1 });
    for (let i = 1; i < entries.length; i++) flows.acquire({ key: 'k', parallelism: 2, period: 1 });
    expect(entries.map((entry) => due(flow, entry))).toEqual([true, true, false, false]);
    expect(released).toEqual([]);
    flows.attemptEnded(flow);
    flows.pump(flow);
    expect(released).toEqual([3]);
    expect(flow.inflight).toBe(2);
  });

  it('starts at most `rate` per period and wakes the waitlist when the window ends', () => {
    const { clock, flows, released, due } = gate();
    const spec = { key: 'r', rate: 2, period: 10 };
    const flow = flows.acquire(spec);
    flows.acquire(spec);
    flows.acquire(spec);
    expect(due(flow, { seq: 1 })).toBe(true);
    expect(due(flow, { seq: 2 })).toBe(true);
    expect(due(flow, { seq: 3 })).toBe(false);
    flows.attemptEnded(flow);
    flows.attemptEnded(flow);
    flows.pump(flow);
    expect(released).toEqual([]); // the window is full, whatever is in flight
    clock.advance(9_999);
    expect(released).toEqual([]);
    clock.advance(1);
    expect(released).toEqual([3]);
  });

  it('takes the newest settings, forgets an idle key, but keeps a rate window that is still open', () => {
    const { clock, flows, due } = gate();
    const first = flows.acquire({ key: 'n', parallelism: 1, period: 1 });
    const again = flows.acquire({ key: 'n', parallelism: 3, period: 1 });
    expect(again).toBe(first);
    expect(first.parallelism).toBe(3);

    const limited = flows.acquire({ key: 'w', rate: 1, period: 60 });
    expect(due(limited, { seq: 1 })).toBe(true);
    flows.attemptEnded(limited);
    flows.leave(limited, { seq: 1 }, false);
    // A burst right after must not get a fresh window.
    const next = flows.acquire({ key: 'w', rate: 1, period: 60 });
    expect(next).toBe(limited);
    expect(due(next, { seq: 2 })).toBe(false);
    clock.advance(60_000);
    expect(next.waitlist.size).toBe(0);
  });

  it('drops a waiting entry that leaves, and releases nothing once stopped', () => {
    const { flows, released, due } = gate();
    const flow = flows.acquire({ key: 's', parallelism: 1, period: 1 });
    flows.acquire({ key: 's', parallelism: 1, period: 1 });
    flows.acquire({ key: 's', parallelism: 1, period: 1 });
    due(flow, { seq: 1 });
    due(flow, { seq: 2 });
    due(flow, { seq: 3 });
    flows.leave(flow, { seq: 2 }, true);
    flows.attemptEnded(flow);
    flows.pump(flow);
    expect(released).toEqual([3]);
    flows.stop();
    flows.attemptEnded(flow);
    due(flow, { seq: 4 });
    flows.pump(flow);
    expect(released).toEqual([3]);
  });
});
