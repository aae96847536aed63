import { describe, expect, it } from 'vitest';
import type { KvMonitorLine } from '../../../../../shared/bridge/procedures/kv/live';
import { compileFilters, DEFAULT_FILTERS, LineRing, MonitorStore, RateCounter } from './monitor-model';

const line = (args: string[], extra: Partial<KvMonitorLine> = {}): KvMonitorLine => ({
  kind: 'line',
  raw: args.join(' '),
  at: 0,
  db: 0,
  client: '0.0.0.0:0',
  args,
  own: false,
  ...extra,
});

describe('LineRing', () => {
  it('keeps at most its cap, newest last, and counts evictions', () => {
    const ring = new LineRing(3);
    for (let i = 0; i < 5; i++) ring.push(line(['GET', `k${i}`]));
    expect(ring.length).toBe(3);
    expect(ring.evicted).toBe(2);
    expect(ring.toArray().map((l) => [l.args[1], l.seq])).toEqual([
      ['k2', 2],
      ['k3', 3],
      ['k4', 4],
    ]);
    ring.resize(2);
    expect(ring.toArray().map((l) => l.args[1])).toEqual(['k3', 'k4']);
    expect(ring.evicted).toBe(3);
    ring.push(line(['GET', 'k5']));
    expect(ring.toArray().map((l) => l.args[1])).toEqual(['k4', 'k5']);
    ring.clear();
    expect(ring.length).toBe(0);
  });
});

describe('compileFilters', () => {
  it('hides own traffic by default and filters by command, key pattern and client', () => {
    const lines = [
      line(['GET', 'user:1']),
      line(['SET', 'user:2', 'v']),
      line(['MGET', 'a', 'user:3']),
      line(['GET', 'order:1'], { own: true }),
      line(['get', 'k'], { client: 'lua' }),
    ];
    const pick = (filters: Partial<typeof DEFAULT_FILTERS>): string[] =>
      lines.filter(compileFilters({ ...DEFAULT_FILTERS, ...filters })).map((l) => l.args.join(' '));
    expect(pick({})).toEqual(['GET user:1', 'SET user:2 v', 'MGET a user:3', 'get k']);
    expect(pick({ showOwn: true })).toHaveLength(5);
    expect(pick({ commands: 'get, mget' })).toEqual(['GET user:1', 'MGET a user:3', 'get k']);
    expect(pick({ commands: '-get' })).toEqual(['SET user:2 v', 'MGET a user:3']);
    expect(pick({ keyPattern: 'user:*' })).toEqual(['GET user:1', 'SET user:2 v', 'MGET a user:3']);
    expect(pick({ client: 'lua' })).toEqual(['get k']);
  });
});

describe('RateCounter', () => {
  it('counts per second and shifts old seconds out', () => {
    const rate = new RateCounter(3, 10_000);
    rate.add(5, 10_100);
    rate.add(2, 10_900);
    rate.add(4, 11_000);
    expect(rate.series(11_500)).toEqual([0, 7, 4]);
    expect(rate.series(20_000)).toEqual([0, 0, 0]);
  });
});

describe('MonitorStore', () => {
  it('publishes one snapshot per scheduled tick, freezes while paused and counts both kinds of drops', () => {
    const ticks: (() => void)[] = [];
    const store = new MonitorStore(2, (run) => ticks.push(run));
    let notified = 0;
    store.subscribe(() => notified++);
    store.receive([line(['GET', 'a']), line(['GET', 'b'])], 3);
    store.receive([line(['GET', 'c']), { kind: 'serverDropped', count: 4 }], 0);
    expect(ticks).toHaveLength(1);
    expect(store.getSnapshot().kept).toHaveLength(0);
    ticks.shift()!();
    expect(notified).toBe(1);
    const snap = store.getSnapshot();
    expect(snap.kept.map((l) => l.args[1])).toEqual(['b', 'c']);
    expect(snap).toMatchObject({ evicted: 1, bridgeDropped: 3, serverDropped: 4, paused: false });
    store.setPaused(true);
    store.receive([line(['GET', 'd'])], 0);
    ticks.shift()!();
    expect(store.getSnapshot().kept.map((l) => l.args[1])).toEqual(['b', 'c']);
    expect(store.getSnapshot().paused).toBe(true);
    store.setPaused(false);
    expect(store.getSnapshot().kept.map((l) => l.args[1])).toEqual(['c', 'd']);
  });
});
