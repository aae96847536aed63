// A service that answers again is picked up at once by the queries backing off from it, and a call that
// keeps answering beside a failing one does not undo the back-off. Run on TanStack Query's own QueryClient
// and observers, the real BridgeClient over a scripted transport, on fake time.
import { focusManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallResult } from '../../../shared/bridge/frames';
import type { CallName } from '../../../shared/bridge/procedures';
import { BridgeClient } from './client';
import { pollEvery } from './polling';
import { askAgainOnRecovery } from './recovery';
import type { Transport } from './transport';

const DOWN: CallResult = {
  ok: false,
  error: { code: 'SERVICE_ERROR', message: 'internal boom', status: 500 },
};
const UP: CallResult = { ok: true, value: {} };

/** A bridge whose calls answer as `answer` says at the time, counting the calls of each procedure. */
function setUp(answer: (name: string, input: unknown) => CallResult) {
  const asked = new Map<string, number>();
  const transport: Transport = {
    call: (name, input) => {
      asked.set(name, (asked.get(name) ?? 0) + 1);
      return Promise.resolve(answer(name, input));
    },
    open: () => () => {},
    job: () => {
      throw new Error('no jobs in this test');
    },
    onConnection: () => () => {},
  };
  const bridge = new BridgeClient(transport);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const stop = askAgainOnRecovery(bridge, queryClient);
  const stops = [stop];
  /** A screen polling `name` of profile p every `every` ms. */
  const poll = (name: CallName, every: number) => {
    const input = { profileId: 'p' };
    const observer = new QueryObserver(queryClient, {
      queryKey: [name, input],
      queryFn: ({ signal }): Promise<unknown> => bridge.call(name, input as never, signal),
      refetchInterval: pollEvery(every),
    });
    stops.push(observer.subscribe(() => {}));
    return observer;
  };
  return {
    bridge,
    poll,
    asked: (name: string) => asked.get(name) ?? 0,
    stop: () => stops.forEach((s) => s()),
  };
}

/** The queues screen polling a service that is down, `ms` later; `bringUp()` makes the service answer. */
async function queuesDownFor(ms: number) {
  let up = false;
  const t = setUp(() => (up ? UP : DOWN));
  const queues = t.poll('messages.queues.list', 2000);
  await vi.advanceTimersByTimeAsync(ms);
  return {
    ...t,
    queues,
    bringUp: () => {
      up = true;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  focusManager.setFocused(undefined);
  vi.useRealTimers();
});

describe('askAgainOnRecovery', () => {
  it('asks a backed-off poll again as soon as another call to its service and profile answers', async () => {
    // Failed at 0, 4, 12 and 28 s: its next poll is at 58 s.
    const t = await queuesDownFor(40_000);
    expect(t.asked('messages.queues.list')).toBe(4);

    t.bringUp();
    // Another service, or the same service of another profile, says nothing about this one.
    await t.bridge.call('kv.info', { profileId: 'p' } as never).catch(() => undefined);
    await t.bridge.call('messages.schedules.list', { profileId: 'q' } as never).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(10);
    expect(t.asked('messages.queues.list')).toBe(4);

    await t.bridge.call('messages.schedules.list', { profileId: 'p' } as never);
    await vi.advanceTimersByTimeAsync(10);
    expect(t.asked('messages.queues.list')).toBe(5);
    expect(t.queues.getCurrentResult().status).toBe('success');
    // And it is back at its own rate.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.asked('messages.queues.list')).toBe(10);
    t.stop();
  });

  it('asks the polls of a service again at once when the first of them is answered again', async () => {
    const t = await queuesDownFor(10_000);
    const schedules = t.poll('messages.schedules.list', 5000);
    // Queues failed at 0, 4, 12, 28 s (next at 58 s); schedules at 10, 20, 40 s (next at 70 s).
    await vi.advanceTimersByTimeAsync(45_000);
    t.bringUp();
    // Queues' own poll at 58 s is answered: schedules is asked then, not at 70 s.
    await vi.advanceTimersByTimeAsync(3_100);
    expect(t.asked('messages.queues.list')).toBe(5);
    expect(t.asked('messages.schedules.list')).toBe(4);
    expect(schedules.getCurrentResult().status).toBe('success');
    t.stop();
  });

  it('leaves a failing poll on its back-off while another endpoint of its service keeps answering', async () => {
    const t = setUp((name) => (name === 'messages.flowControl.list' ? DOWN : UP));
    t.poll('messages.flowControl.get', 2000);
    t.poll('messages.flowControl.list', 2000);
    await vi.advanceTimersByTimeAsync(120_000);
    // The key: every 2 s. The list: 0 s, then 4, 8, 16, 30, 30, 30 s apart (7), plus at most one early ask
    // when the key first answered — where asking it on every answer of the key would be 60.
    expect(t.asked('messages.flowControl.get')).toBe(61);
    expect(t.asked('messages.flowControl.list')).toBeLessThanOrEqual(8);
    t.stop();
  });

  it('asks a failing poll early once per back-off step, however many calls answer meanwhile', async () => {
    const t = setUp((name) => (name === 'messages.queues.list' ? DOWN : UP));
    t.poll('messages.queues.list', 2000);
    await vi.advanceTimersByTimeAsync(13_000);
    // Failed at 0, 4, 12 s: the next poll is at 28 s.
    expect(t.asked('messages.queues.list')).toBe(3);
    // Three new calls answer: one early ask, which fails; the others do not ask again.
    for (const id of ['a', 'b', 'c']) {
      await t.bridge.call('messages.schedules.get', { profileId: 'p', scheduleId: id } as never);
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(t.asked('messages.queues.list')).toBe(4);
    // After its own next poll failed as well, a new answer asks early again.
    await vi.advanceTimersByTimeAsync(60_000);
    const before = t.asked('messages.queues.list');
    await t.bridge.call('messages.schedules.get', { profileId: 'p', scheduleId: 'd' } as never);
    await vi.advanceTimersByTimeAsync(10);
    expect(t.asked('messages.queues.list')).toBe(before + 1);
    t.stop();
  });

  it('leaves a refused query alone when its service answers: a 401 answers the same again', async () => {
    const refused: CallResult = {
      ok: false,
      error: { code: 'SERVICE_ERROR', message: 'Unauthorized', status: 401 },
    };
    const t = setUp((name) => (name === 'messages.queues.list' ? refused : UP));
    t.poll('messages.queues.list', 2000);
    await vi.advanceTimersByTimeAsync(13_000);
    const before = t.asked('messages.queues.list');
    for (const id of ['a', 'b', 'c']) {
      await t.bridge.call('messages.schedules.get', { profileId: 'p', scheduleId: id } as never);
      await vi.advanceTimersByTimeAsync(10);
    }
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await vi.advanceTimersByTimeAsync(10);
    expect(t.asked('messages.queues.list')).toBe(before);
    t.stop();
  });

  it('asks a backed-off poll again when the window is shown again', async () => {
    const t = await queuesDownFor(13_000);
    expect(t.asked('messages.queues.list')).toBe(3);
    t.bringUp();
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await vi.advanceTimersByTimeAsync(10);
    expect(t.asked('messages.queues.list')).toBe(4);
    expect(t.queues.getCurrentResult().status).toBe('success');
    t.stop();
  });
});
