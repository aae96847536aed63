import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { FlowControlOverview } from '../../../../shared/bridge/procedures/messages/flow-control';
import type {
  FlowControlHistory,
  FlowControlMessageHold,
  FlowControlInfo,
} from '../../../../shared/messages/flow-control';
import { eventually, profileFor, useStackWithDestination } from '../test-stack/real-stack';
import { testJobRunner } from '../../testing/jobs';
import { useSuiteTempDir } from '../../../../shared/testing/temp-dir';
import { profileCaller, routerWith, valueOf } from '../test-stack/router';
import { flowControlHandlers } from './flow-control';

// The key changes only; the job over many keys is flow-control-job.test.ts.
const jobs = testJobRunner(useSuiteTempDir());

function routerFor(url: string, token: string) {
  return routerWith(flowControlHandlers({ profiles: { resolve: () => profileFor(url, token) }, jobs }));
}

describe('flow-control handlers against the local stack', () => {
  const env = useStackWithDestination();

  const call = profileCaller(() => routerFor(env.stack.url, env.stack.token));
  const publish = (key: string, path: string) =>
    env.sdk.publish({
      url: `${env.sink.url}${path}`,
      body: path,
      flowControl: { key, parallelism: 2, rate: 50, period: '1m' },
    });

  it('lists an SDK-made key with its numbers; a pause and resume here are what flowControl.get sees', async () => {
    await publish('tenant-1', '/first');
    await eventually(async () => (env.sink.received.length === 1 ? true : undefined));
    const paused = await call<FlowControlInfo>('messages.flowControl.setPaused', {
      key: 'tenant-1',
      paused: true,
    });
    expect(paused).toMatchObject({ flowControlKey: 'tenant-1', isPaused: true });
    expect((await env.sdk.flowControl.get('tenant-1')).isPaused).toBe(true);

    const held = await publish('tenant-1', '/held');
    await publish('tenant-1', '/held-too');
    const overview = await eventually(async () => {
      const value = await call<FlowControlOverview>('messages.flowControl.list', {});
      return value.keys[0]?.waitListSize === 2 ? value : undefined;
    });
    expect(overview.detailed).toBe(true);
    expect(overview.global).toEqual({ parallelismMax: 256, parallelismCount: 0 });
    expect(overview.keys).toEqual([
      {
        flowControlKey: 'tenant-1',
        waitListSize: 2,
        parallelismMax: 2,
        parallelismCount: 0,
        rateMax: 50,
        rateCount: 1,
        ratePeriod: 60,
        ratePeriodStart: expect.any(Number) as number,
        isPaused: true,
        isPinnedParallelism: false,
        isPinnedRate: false,
      },
    ]);
    expect(
      await call<FlowControlMessageHold>('messages.flowControl.hold', {
        key: 'tenant-1',
        messageId: held.messageId,
      }),
    ).toEqual({
      flowControlKey: 'tenant-1',
      messageId: held.messageId,
      waiting: true,
      ahead: 0,
      isPaused: true,
    });

    const resumed = await call<FlowControlInfo>('messages.flowControl.setPaused', {
      key: 'tenant-1',
      paused: false,
    });
    expect(resumed.isPaused).toBe(false);
    expect((await env.sdk.flowControl.get('tenant-1')).isPaused).toBe(false);
    await eventually(async () => (env.sink.received.length === 3 ? true : undefined));
    expect(env.sink.received.map((r) => r.url)).toEqual(['/first', '/held', '/held-too']);
    const history = await call<FlowControlHistory>('messages.flowControl.history', { key: 'tenant-1' });
    expect(history.bucketMs).toBe(10_000);
    expect(history.points.reduce((sum, point) => sum + point.delivered, 0)).toBe(3);
    expect(Math.max(...history.points.map((point) => point.waiting))).toBe(2);
  });

  it('pins, unpins and resets the rate, answering the key as it now is (a key with a slash too)', async () => {
    await publish('pinned/by-console', '/p');
    expect(
      await call<FlowControlInfo>('messages.flowControl.pin', {
        key: 'pinned/by-console',
        parallelism: 7,
        rate: 3,
        period: 120,
      }),
    ).toMatchObject({
      parallelismMax: 7,
      rateMax: 3,
      ratePeriod: 120,
      rateCount: 0,
      isPinnedParallelism: true,
      isPinnedRate: true,
    });
    expect(
      await call<FlowControlInfo>('messages.flowControl.unpin', {
        key: 'pinned/by-console',
        parallelism: true,
        rate: false,
      }),
    ).toMatchObject({ isPinnedParallelism: false, isPinnedRate: true });
    expect(
      await call<FlowControlInfo>('messages.flowControl.resetRate', { key: 'pinned/by-console' }),
    ).toMatchObject({ rateCount: 0 });
  });

  it('refuses bad input before the service sees it, and shows the service’s 404 for an unknown key', async () => {
    const router = routerFor(env.stack.url, env.stack.token);
    const pin = await router.call('messages.flowControl.pin', {
      profileId: 'p',
      key: 'pinned',
      parallelism: 0,
    });
    expect(pin.ok).toBe(false);
    expect(!pin.ok && pin.error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(!pin.ok && pin.error.message).toMatch(/parallelism must be a whole number/);
    const unpin = await router.call('messages.flowControl.unpin', {
      profileId: 'p',
      key: 'pinned',
      parallelism: false,
      rate: false,
    });
    expect(!unpin.ok && unpin.error.message).toMatch(/choose parallelism, rate or both/);
    const empty = await router.call('messages.flowControl.get', { profileId: 'p', key: '' });
    expect(!empty.ok && empty.error.message).toMatch(/a flow-control key is required/);
    const unknown = await router.call('messages.flowControl.get', { profileId: 'p', key: 'nobody' });
    expect(!unknown.ok && unknown.error).toMatchObject({ code: 'SERVICE_ERROR', status: 404 });
    expect(!unknown.ok && unknown.error.message).toBe("flow-control key 'nobody' not found");
    const history = await router.call('messages.flowControl.history', { profileId: 'p', key: 'nobody' });
    expect(!history.ok && history.error).toMatchObject({ status: 404 });
  });
});

describe('flow-control handlers against a service shaped like the vendor’s docs', () => {
  it('reads the documented list item, fills what the service leaves out, and has no history', async () => {
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      res.setHeader('content-type', 'application/json');
      if (path === '/v2/flowControl')
        res.end(JSON.stringify([{ flowControlKey: 'b', waitlistSize: 3 }, { flowControlKey: 'a' }]));
      else if (path === '/v2/globalParallelism') res.end(JSON.stringify({ parallelismMax: 100 }));
      else res.writeHead(404).end(JSON.stringify({ error: 'Not found' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const router = routerFor(url, 'token');
      const overview = valueOf<FlowControlOverview>(
        await router.call('messages.flowControl.list', { profileId: 'p' }),
      );
      expect(overview.detailed).toBe(false);
      expect(overview.global).toEqual({ parallelismMax: 100, parallelismCount: 0 });
      expect(overview.keys.map((key) => [key.flowControlKey, key.waitListSize, key.isPaused])).toEqual([
        ['a', 0, false],
        ['b', 3, false],
      ]);
      expect(
        valueOf(await router.call('messages.flowControl.history', { profileId: 'p', key: 'a' })),
      ).toBeNull();
      expect(
        valueOf(
          await router.call('messages.flowControl.hold', { profileId: 'p', key: 'a', messageId: 'msg_1' }),
        ),
      ).toBeNull();
    } finally {
      server.close();
    }
  });
});
