// The stack.clock.* procedures against the real local stack (a child process), through a recording proxy:
// what main sends, and that it sends it only for the Local profile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClockState, DueItem } from '../../../../shared/local-stack/clock';
import { LOCAL_PROFILE_ID } from '../../../../shared/profiles';
import type { ResolvedProfile } from '../../profiles/profiles-service';
import {
  eventually,
  profileFor,
  type RealStack,
  startDestination,
  startRealStack,
  startRecordingProxy,
} from '../test-stack/real-stack';
import { profileCaller, routerWith } from '../test-stack/router';
import { stackClockHandlers } from './handlers';

const HOUR = 3_600_000;

describe('stack clock handlers against the local stack', () => {
  let stack: RealStack;
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
  let sink: Awaited<ReturnType<typeof startDestination>>;
  /** What the Local profile resolves to (null: the stack is not running). */
  let local: ResolvedProfile | null = null;
  const resolved: string[] = [];
  beforeAll(async () => {
    stack = await startRealStack();
    proxy = await startRecordingProxy(stack.url);
    sink = await startDestination();
    local = profileFor(proxy.url, stack.token, LOCAL_PROFILE_ID);
  });
  afterAll(async () => {
    await sink.close();
    await proxy.close();
    await stack.stop();
  });

  const router = () =>
    routerWith(
      stackClockHandlers({
        profiles: {
          resolve: (id) => {
            resolved.push(id);
            return local ?? { ...profileFor('', ''), id };
          },
        },
      }),
    );
  const call = profileCaller(router, LOCAL_PROFILE_ID);
  const failure = async (name: string, input: object, profileId = LOCAL_PROFILE_ID) => {
    const result = await router().call(name, { profileId, ...input });
    if (result.ok) throw new Error(`${name} succeeded`);
    return result.error;
  };

  it('reads and advances the clock: a duration as given, milliseconds as whole seconds rounded up', async () => {
    const before = await call<ClockState>('stack.clock.get', {});
    expect(before).toMatchObject({ offsetMs: 0, next: null });
    const hour = await call<ClockState>('stack.clock.advance', { by: { duration: '1h' } });
    expect(hour.offsetMs).toBe(HOUR);
    const bit = await call<ClockState>('stack.clock.advance', { by: { ms: 1_500 } });
    expect(bit.offsetMs).toBe(HOUR + 2_000);
    const sent = proxy.requests.filter((request) => request.url === '/local/clock/advance');
    expect(sent.map((request) => JSON.parse(request.body))).toEqual([{ by: '1h' }, { by: '2s' }]);
    expect(sent[0]?.headers.authorization).toBe(`Bearer ${stack.token}`);
  });

  it('advances to a clock time measured from a fresh reading; a time already reached moves nothing', async () => {
    const before = await call<ClockState>('stack.clock.get', {});
    const moved = await call<ClockState>('stack.clock.advance', { by: { to: before.now + 10 * 60_000 } });
    // Rounded up to whole seconds, and never short of the target.
    expect(moved.now).toBeGreaterThanOrEqual(before.now + 10 * 60_000);
    expect(moved.offsetMs - before.offsetMs).toBeGreaterThanOrEqual(10 * 60_000);
    expect(moved.offsetMs - before.offsetMs).toBeLessThanOrEqual(10 * 60_000 + 1_000);
    const same = await call<ClockState>('stack.clock.advance', { by: { to: before.now } });
    expect(same.offsetMs).toBe(moved.offsetMs);
  });

  it('passes the stack’s refusal on with its own words', async () => {
    const error = await failure('stack.clock.advance', { by: { duration: '-1h' } });
    expect(error).toMatchObject({ code: 'SERVICE_ERROR', status: 400 });
    expect(error.message).toMatch(/negative/);
    expect((await failure('stack.clock.advance', { by: { ms: 0 } })).code).toBe('INVALID_INPUT');
  });

  it('lists what an item waits for and runs it now', async () => {
    const published = await fetch(`${stack.url}/v2/publish/${sink.url}/later`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'upstash-delay': '2h' },
      body: 'x',
    });
    const { messageId } = (await published.json()) as { messageId: string };
    const item = { kind: 'message', messageId };
    const due = await call<DueItem[]>('stack.clock.due', { item });
    expect(due).toEqual([{ kind: 'message', messageId, retried: 0, dueAt: expect.any(Number) }]);
    const clock = await call<ClockState>('stack.clock.get', {});
    expect(clock.next).toEqual(due[0]);
    expect(await call<DueItem>('stack.clock.runNow', { item })).toEqual(due[0]);
    await eventually(async () => (sink.received.length === 1 ? true : undefined));
    const again = await failure('stack.clock.runNow', { item });
    expect(again).toMatchObject({ code: 'SERVICE_ERROR', status: 404 });
    expect(proxy.requests.some((request) => request.url === `/local/messages/${messageId}/run-now`)).toBe(
      true,
    );
  });

  it('refuses every profile but Local, and says when the stack is not running', async () => {
    resolved.length = 0;
    const before = proxy.requests.length;
    for (const name of ['stack.clock.get', 'stack.clock.advance', 'stack.clock.runNow', 'stack.clock.due']) {
      const error = await failure(
        name,
        { by: { duration: '1h' }, item: { kind: 'workflowRun', workflowRunId: 'wfr_x' } },
        'cloud-profile',
      );
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toMatch(/Switch to the Local profile/);
    }
    expect(resolved).toEqual([]);
    expect(proxy.requests.length).toBe(before);
    local = null;
    try {
      expect(await failure('stack.clock.get', {})).toMatchObject({
        code: 'NOT_CONFIGURED',
        message: expect.stringMatching(/not running/),
      });
    } finally {
      local = profileFor(proxy.url, stack.token, LOCAL_PROFILE_ID);
    }
  });
});
