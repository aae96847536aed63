import { describe, expect, it } from 'vitest';
import type { Queue } from '../../../../shared/messages/types';
import { eventually, useStackWithDestination } from '../test-stack/real-stack';
import { profileCaller, routerWith } from '../test-stack/router';
import { queueHandlers } from './queues';

describe('queue handlers against the local stack', () => {
  const env = useStackWithDestination();

  const router = () => routerWith(queueHandlers({ profiles: env.profiles }));
  const call = profileCaller(router);

  it('creates, pauses (lag grows, nothing delivered), resumes (delivered), updates and deletes a queue', async () => {
    const created = await call<Queue>('messages.queues.upsert', {
      name: 'emails',
      parallelism: 2,
      paused: false,
    });
    expect(created).toMatchObject({ name: 'emails', parallelism: 2, paused: false, lag: 0 });
    expect((await call<Queue>('messages.queues.setPaused', { name: 'emails', paused: true })).paused).toBe(
      true,
    );

    for (let i = 0; i < 3; i += 1) {
      await fetch(`${env.stack.url}/v2/enqueue/emails/${env.sink.url}/q`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.stack.token}` },
        body: `m${i}`,
      });
    }
    const [paused] = await call<Queue[]>('messages.queues.list', {});
    expect(paused).toMatchObject({ name: 'emails', paused: true, lag: 3 });
    expect(env.sink.received).toHaveLength(0);

    await call('messages.queues.setPaused', { name: 'emails', paused: false });
    await eventually(async () => (env.sink.received.length === 3 ? true : undefined));
    const updated = await call<Queue>('messages.queues.upsert', {
      name: 'emails',
      parallelism: 5,
      paused: false,
    });
    expect(updated.parallelism).toBe(5);
    expect(await call('messages.queues.delete', { name: 'emails' })).toEqual({ deleted: 'emails' });
    expect(await call<Queue[]>('messages.queues.list', {})).toEqual([]);
  });

  it('refuses bad names and parallelism before sending', async () => {
    const result = await router().call('messages.queues.upsert', {
      profileId: 'p',
      name: 'a b',
      parallelism: 0,
      paused: false,
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    if (!result.ok) expect(Object.keys(result.error.fields ?? {}).sort()).toEqual(['name', 'parallelism']);
  });
});
