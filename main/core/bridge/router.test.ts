import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, stream } from '../../../shared/bridge/define';
import { BridgeError } from '../../../shared/bridge/errors';
import { createRouter, type Handlers } from './router';

// A registry of its own lets these tests cover every effect kind, whatever procedures exist today.
const registry = {
  'test.echo': call<{ text: string }>()(z.object({ text: z.string().min(1, 'say something') })),
  'test.write': call<{ written: true }>()(z.object({ profileId: z.string(), value: z.number() }), 'write'),
  'test.fails': call<never>()(z.object({})),
  'test.service': call<never>()(z.object({})),
  'test.ticks': stream<number>()(z.object({ count: z.number().int().max(10) })),
};

function makeRouter(readOnly: Set<string> = new Set()) {
  const logged: unknown[] = [];
  const handlers = {
    'test.echo': ({ text }: { text: string }) => ({ text }),
    'test.write': () => ({ written: true }),
    'test.fails': () => {
      throw new TypeError('secret internals at /home/user/app.ts:12');
    },
    'test.service': () => {
      throw new BridgeError({ code: 'SERVICE_ERROR', status: 400, message: 'invalid destination url' });
    },
    'test.ticks': ({ count }: { count: number }, sink: { push(n: number): void }) => {
      for (let i = 0; i < count; i += 1) sink.push(i);
      return () => {};
    },
  } as unknown as Handlers;
  const router = createRouter({
    handlers,
    registry,
    isReadOnly: (id) => readOnly.has(id),
    logError: (_message, error) => logged.push(error),
  });
  return { router, logged };
}

describe('bridge router', () => {
  it('validates input and names the offending fields', async () => {
    const { router } = makeRouter();
    const result = await router.call('test.echo', { text: '' });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', fields: { text: 'say something' } },
    });
    const wrongType = await router.call('test.echo', { text: 42 });
    expect(wrongType.ok).toBe(false);
    expect(await router.call('test.echo', { text: 'hi' })).toEqual({ ok: true, value: { text: 'hi' } });
  });

  it('refuses unknown procedures and calls used as streams', async () => {
    const { router } = makeRouter();
    expect(await router.call('nope', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_PROCEDURE' } });
    expect(await router.call('test.ticks', { count: 1 })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_PROCEDURE' },
    });
    expect(await router.call('constructor', {})).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_PROCEDURE' },
    });
  });

  it('refuses writes for read-only profiles in main, whatever the UI does', async () => {
    const { router } = makeRouter(new Set(['prod-ro']));
    expect(await router.call('test.write', { profileId: 'prod-ro', value: 1 })).toMatchObject({
      ok: false,
      error: { code: 'READ_ONLY' },
    });
    expect(await router.call('test.write', { profileId: 'dev', value: 1 })).toEqual({
      ok: true,
      value: { written: true },
    });
  });

  it('never sends stack traces: unexpected errors become INTERNAL and are logged in main', async () => {
    const { router, logged } = makeRouter();
    const result = await router.call('test.fails', {});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INTERNAL');
    expect(JSON.stringify(result)).not.toContain('/home/user');
    expect(logged).toHaveLength(1);
  });

  it('passes service errors through with their own text and status', async () => {
    const { router } = makeRouter();
    expect(await router.call('test.service', {})).toEqual({
      ok: false,
      error: { code: 'SERVICE_ERROR', status: 400, message: 'invalid destination url' },
    });
  });

  it('validates stream input before starting the source', async () => {
    const { router } = makeRouter();
    const events: unknown[] = [];
    const sink = { push: (e: unknown) => events.push(e), end: () => {} };
    await expect(router.open('test.ticks', { count: 99 }, sink)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(events).toEqual([]);
    await router.open('test.ticks', { count: 3 }, sink);
    expect(events).toEqual([0, 1, 2]);
  });
});
