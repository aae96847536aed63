import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import type { FlowKeyRecord } from '../store/flow-keys';
import { FlowGate } from './flow-gate';

interface E {
  seq: number;
}

function gate() {
  const clock = new ManualClock(1_000_000);
  const released: number[] = [];
  const persisted: FlowKeyRecord[][] = [];
  const forgotten: string[][] = [];
  const flows = new FlowGate<E>({
    clock,
    release: (entry) => released.push(entry.seq),
    persist: (records) => persisted.push(records),
    forget: (keys) => forgotten.push(keys),
  });
  /** What the engine does with a due entry: start it now, or let it wait. */
  const due = (flow: ReturnType<typeof flows.acquire>, entry: E): boolean => {
    if (flows.tryStart(flow)) return true;
    flows.wait(flow, entry);
    return false;
  };
  /** Entries `seqs` of `spec`'s key arrive, in order; returns the key's flow. */
  const arrive = (spec: Parameters<typeof flows.acquire>[0], seqs: readonly number[]) => {
    const flow = flows.acquire(spec, seqs[0]!);
    for (const seq of seqs.slice(1)) flows.acquire(spec, seq);
    return flow;
  };
  /** Entries `seqs` come due in order: whether each started at once. */
  const dueAll = (flow: ReturnType<typeof flows.acquire>, seqs: readonly number[]): boolean[] =>
    seqs.map((seq) => due(flow, { seq }));
  return { clock, flows, released, persisted, forgotten, due, arrive, dueAll };
}

/** Lets the gate's once-per-turn write happen. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('flow-control gate', () => {
  it('keeps at most `parallelism` attempts of a key in flight, releasing waiters in order', () => {
    const { flows, released, arrive, dueAll } = gate();
    const flow = arrive({ key: 'k', parallelism: 2, period: 1 }, [1, 2, 3, 4]);
    expect(dueAll(flow, [1, 2, 3, 4])).toEqual([true, true, false, false]);
    expect(released).toEqual([]);
    expect(flows.info('k')).toMatchObject({ waitListSize: 2, parallelismMax: 2, parallelismCount: 2 });
    flows.attemptEnded(flow);
    flows.pump(flow);
    expect(released).toEqual([3]);
    expect(flow.inflight).toBe(2);
  });

  it('starts at most `rate` per period and wakes the waitlist when the period ends', () => {
    const { clock, flows, released, arrive, dueAll } = gate();
    const flow = arrive({ key: 'r', rate: 2, period: 10 }, [1, 2, 3]);
    expect(dueAll(flow, [1, 2, 3])).toEqual([true, true, false]);
    expect(flows.info('r')).toMatchObject({
      rateMax: 2,
      rateCount: 2,
      ratePeriod: 10,
      ratePeriodStart: 1_000,
    });
    flows.attemptEnded(flow);
    flows.attemptEnded(flow);
    flows.pump(flow);
    expect(released).toEqual([]); // the period is full, whatever is in flight
    clock.advance(9_999);
    expect(released).toEqual([]);
    clock.advance(1);
    expect(released).toEqual([3]);
  });

  it('does not wake a key at the end of its rate period while its parallelism is what holds it', () => {
    const { clock, flows, released, arrive, dueAll } = gate();
    // Counts the gate's timers; a timer re-armed at the same instant would otherwise spin forever here.
    let timers = 0;
    const setTimer = clock.setTimer.bind(clock);
    clock.setTimer = (callback, ms) => {
      if (++timers > 50) throw new Error('the gate keeps arming timers');
      return setTimer(callback, ms);
    };
    const flow = arrive({ key: 'pr', parallelism: 2, rate: 2, period: 10 }, [1, 2, 3]);
    expect(dueAll(flow, [1, 2, 3])).toEqual([true, true, false]);
    clock.advance(10_000); // the period ends; both attempts are still in flight
    expect(released).toEqual([]);
    expect(timers).toBeLessThanOrEqual(1);
    flows.attemptEnded(flow);
    flows.pump(flow);
    expect(released).toEqual([3]);
    expect(flows.info('pr')).toMatchObject({ waitListSize: 0, parallelismCount: 2, rateCount: 1 });
  });

  it('takes the newest message’s settings and remembers an idle key (with its open rate period)', () => {
    const { clock, flows, due } = gate();
    const first = flows.acquire({ key: 'n', parallelism: 1, period: 1 }, 1);
    const again = flows.acquire({ key: 'n', parallelism: 3, period: 1 }, 2);
    expect(again).toBe(first);
    expect(first.parallelism).toBe(3);

    const limited = flows.acquire({ key: 'w', rate: 1, period: 60 }, 3);
    expect(due(limited, { seq: 3 })).toBe(true);
    flows.attemptEnded(limited);
    flows.leave(limited, { seq: 3 }, false);
    expect(flows.has('w')).toBe(true);
    // A burst right after must not get a fresh period.
    const next = flows.acquire({ key: 'w', rate: 1, period: 60 }, 4);
    expect(next).toBe(limited);
    expect(due(next, { seq: 4 })).toBe(false);
    clock.advance(60_000);
    expect(next.waitlist.size).toBe(0);
  });

  it('pause holds due messages (counted as waiting) and resume releases them in order', () => {
    const { flows, released, arrive, dueAll } = gate();
    const flow = arrive({ key: 'p', parallelism: 5, period: 1 }, [1, 2, 3, 4]);
    expect(flows.setPaused('p', true)).toMatchObject({ key: 'p', paused: true });
    expect(dueAll(flow, [1, 2, 3, 4])).toEqual([false, false, false, false]);
    expect(flows.info('p')).toMatchObject({ isPaused: true, waitListSize: 4, parallelismCount: 0 });
    expect(released).toEqual([]);
    expect(flows.setPaused('p', false)).toMatchObject({ paused: false });
    expect(released).toEqual([1, 2, 3, 4]);
    expect(flows.setPaused('nope', true)).toBeUndefined();
  });

  it('a pin overrides what messages say until it is unpinned, and starts a new rate period', () => {
    const { clock, flows, released, due } = gate();
    const flow = flows.acquire({ key: 'q', parallelism: 1, rate: 2, period: 60 }, 1);
    expect(due(flow, { seq: 1 })).toBe(true);
    flows.acquire({ key: 'q', parallelism: 1, rate: 2, period: 60 }, 2);
    expect(due(flow, { seq: 2 })).toBe(false);

    clock.advance(5_000);
    const pinned = flows.pin('q', { parallelism: 3, rate: 20, period: 120 });
    expect(pinned).toMatchObject({
      parallelism: 3,
      rate: 20,
      period: 120,
      pinnedParallelism: true,
      pinnedRate: true,
    });
    expect(pinned).toMatchObject({ periodStart: 1_005_000, periodCount: 1 });
    expect(released).toEqual([2]); // parallelism 3 lets the waiting one go
    // A new message's settings no longer change a pinned key.
    flows.acquire({ key: 'q', parallelism: 1, rate: 1, period: 1 }, 3);
    expect(flows.info('q')).toMatchObject({ parallelismMax: 3, rateMax: 20, ratePeriod: 120 });

    flows.unpin('q', { parallelism: true });
    expect(flows.info('q')).toMatchObject({
      isPinnedParallelism: false,
      isPinnedRate: true,
      parallelismMax: 3,
    });
    flows.acquire({ key: 'q', parallelism: 2, rate: 1, period: 1 }, 4);
    expect(flows.info('q')).toMatchObject({ parallelismMax: 2, rateMax: 20 });
    flows.unpin('q', { rate: true });
    expect(flows.info('q')).toMatchObject({ rateMax: 20 }); // as pinned until a message says otherwise
    flows.acquire({ key: 'q', parallelism: 2, rate: 7, period: 30 }, 5);
    expect(flows.info('q')).toMatchObject({ rateMax: 7, ratePeriod: 30, isPinnedRate: false });
  });

  it('resetRate clears the period’s count and lets rate-held messages go', () => {
    const { clock, flows, released, due } = gate();
    const spec = { key: 'z', rate: 1, period: 3_600 };
    const flow = flows.acquire(spec, 1);
    flows.acquire(spec, 2);
    expect(due(flow, { seq: 1 })).toBe(true);
    expect(due(flow, { seq: 2 })).toBe(false);
    clock.advance(1_000);
    expect(flows.resetRate('z')).toMatchObject({ periodStart: 1_001_000, periodCount: 1 });
    expect(released).toEqual([2]);
    expect(flows.info('z')).toMatchObject({ rateCount: 1, ratePeriodStart: 1_001 });
  });

  it('writes a key’s row once per turn when the engine changes it, and restores it on load', async () => {
    const first = gate();
    const flow = first.flows.acquire({ key: 's', parallelism: 1, rate: 5, period: 60 }, 7);
    first.due(flow, { seq: 7 });
    await nextTurn();
    expect(first.persisted).toHaveLength(1);
    const [record] = first.persisted[0] as FlowKeyRecord[];
    expect(record).toMatchObject({
      key: 's',
      parallelism: 1,
      rate: 5,
      period: 60,
      settingsSeq: 7,
      periodCount: 1,
    });

    // A restart: the stored row wins over an older message still pending, a newer one changes it.
    const second = gate();
    second.flows.load([{ ...(record as FlowKeyRecord), paused: true, pinnedRate: true, rate: 9 }]);
    const reloaded = second.flows.acquire({ key: 's', parallelism: 4, rate: 1, period: 1 }, 6);
    expect(second.flows.info('s')).toMatchObject({
      parallelismMax: 1,
      rateMax: 9,
      rateCount: 1,
      isPaused: true,
    });
    expect(second.due(reloaded, { seq: 6 })).toBe(false);
    second.flows.acquire({ key: 's', parallelism: 4, rate: 1, period: 1 }, 8);
    expect(second.flows.info('s')).toMatchObject({ parallelismMax: 4, rateMax: 9, isPinnedRate: true });
  });

  it('forgets idle keys only: not paused, nothing pinned or pending', () => {
    const { clock, flows, forgotten, due } = gate();
    const idle = flows.acquire({ key: 'idle', parallelism: 1, period: 1 }, 1);
    due(idle, { seq: 1 });
    flows.attemptEnded(idle);
    flows.leave(idle, { seq: 1 }, false);
    flows.acquire({ key: 'busy', parallelism: 1, period: 1 }, 2);
    const paused = flows.acquire({ key: 'paused', parallelism: 1, period: 1 }, 3);
    flows.leave(paused, { seq: 3 }, false);
    flows.setPaused('paused', true);
    clock.advance(10_000);
    expect(flows.prune(clock.now() - 5_000)).toEqual(['idle']);
    expect(forgotten).toEqual([['idle']]);
    expect(flows.keys()).toEqual(['busy', 'paused']);
  });

  it('keeps a history of waiting and delivered per 10 s', () => {
    const { clock, flows, arrive, dueAll } = gate();
    const flow = arrive({ key: 'h', parallelism: 1, period: 1 }, [1, 2, 3]);
    expect(dueAll(flow, [1, 2, 3])).toEqual([true, false, false]);
    clock.advance(25_000);
    flows.attemptEnded(flow);
    flows.delivered(flow);
    flows.leave(flow, { seq: 1 }, false);
    flows.pump(flow);
    const points = flows.history('h')?.points() ?? [];
    expect(points.map((point) => [point.at, point.waiting, point.delivered])).toEqual([
      [1_000_000, 2, 0],
      [1_010_000, 2, 0],
      [1_020_000, 2, 1],
    ]);
  });

  it('drops a waiting entry that leaves, and releases nothing once stopped', () => {
    const { flows, released, due, arrive, dueAll } = gate();
    const flow = arrive({ key: 's', parallelism: 1, period: 1 }, [1, 2, 3]);
    expect(dueAll(flow, [1, 2, 3])).toEqual([true, false, false]);
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
