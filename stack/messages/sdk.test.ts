// Compatibility: the vendor's own client (@upstash/qstash 2.12.0) drives the stack, and its Receiver verifies
// the deliveries a local sink receives.
import { type Client, QstashError, Receiver } from '@upstash/qstash';
import { beforeAll, describe, expect, it } from 'vitest';
import { sdkClient, settle, useStackAndSink, waitForState } from './test-support';

const env = useStackAndSink();
let client: Client;
let receiver: Receiver;

beforeAll(() => {
  client = sdkClient(env.stack);
  const keys = env.stack.stack.info.messages;
  receiver = new Receiver({ currentSigningKey: keys.currentSigningKey, nextSigningKey: keys.nextSigningKey });
});

async function verify(path: string, body: string): Promise<void> {
  const [delivery] = await env.sink.waitFor(1, { match: (r) => r.url === path });
  expect(delivery?.body.toString()).toBe(body);
  await expect(
    receiver.verify({
      signature: delivery?.headers['upstash-signature'] as string,
      body,
      url: `${env.sink.url}${path}`,
    }),
  ).resolves.toBe(true);
}

describe('@upstash/qstash client', () => {
  it('publish and publishJSON, with the SDK’s headers, verified by Receiver', async () => {
    const plain = await client.publish({
      url: `${env.sink.url}/plain`,
      body: 'hi',
      headers: { 'X-Custom': 'c' },
    });
    expect(plain.messageId).toMatch(/^msg_/);
    await verify('/plain', 'hi');
    expect(env.sink.received[0]?.headers['x-custom']).toBe('c');

    const json = await client.publishJSON({
      url: `${env.sink.url}/json?q=1`,
      body: { hello: 'world' },
      retries: 1,
      delay: 30,
      label: 'sdk',
      timeout: 10,
      flowControl: { key: 'sdk-key', parallelism: 2, rate: 5, period: '1m' },
      deduplicationId: 'sdk-dedup',
    });
    const message = await client.messages.get(json.messageId);
    expect(message).toMatchObject({
      messageId: json.messageId,
      url: `${env.sink.url}/json?q=1`,
      maxRetries: 1,
      labels: ['sdk'],
      flowControlKey: 'sdk-key',
      parallelism: 2,
      rate: 5,
      period: 60,
      timeout: 10_000,
    });
    expect((message.notBefore ?? 0) - message.createdAt).toBe(30_000);
    const again = await client.publishJSON({
      url: `${env.sink.url}/json?q=1`,
      body: { hello: 'world' },
      deduplicationId: 'sdk-dedup',
    });
    expect(again).toEqual({ messageId: json.messageId, url: `${env.sink.url}/json?q=1`, deduplicated: true });
    env.stack.clock.advance(30_000);
    await verify('/json?q=1', '{"hello":"world"}');
    expect(env.sink.received.find((r) => r.url === '/json?q=1')?.headers['content-type']).toBe(
      'application/json',
    );
  });

  it('batch and batchJSON, including a URL group and a queue', async () => {
    await client.urlGroups.addEndpoints({
      name: 'sdk-group',
      endpoints: [{ url: `${env.sink.url}/g1` }, { url: `${env.sink.url}/g2` }],
    });
    const results = await client.batchJSON([
      { url: `${env.sink.url}/b1`, body: { n: 1 } },
      { urlGroup: 'sdk-group', body: { n: 2 } },
      { url: `${env.sink.url}/b3`, body: { n: 3 }, queueName: 'sdk-batch-queue' },
    ]);
    expect(results).toHaveLength(3);
    expect(Array.isArray(results[1])).toBe(true);
    await env.sink.waitFor(4);
    await verify('/g2', '{"n":2}');
    expect((await client.queue({ queueName: 'sdk-batch-queue' }).get()).name).toBe('sdk-batch-queue');
    const raw = await client.batch([{ url: `${env.sink.url}/raw`, body: 'raw body' }]);
    expect(raw[0]).toMatchObject({ messageId: expect.stringMatching(/^msg_/) });
    await verify('/raw', 'raw body');
  });

  it('urlGroups: add, get, list, publish, remove, delete', async () => {
    await client.urlGroups.addEndpoints({
      name: 'sdk-ug',
      endpoints: [{ name: 'one', url: `${env.sink.url}/u1` }, { url: `${env.sink.url}/u2` }],
    });
    const group = await client.urlGroups.get('sdk-ug');
    expect(group).toMatchObject({
      name: 'sdk-ug',
      endpoints: [{ name: 'one', url: `${env.sink.url}/u1` }, { url: `${env.sink.url}/u2` }],
    });
    expect((await client.urlGroups.list()).map((g) => g.name)).toContain('sdk-ug');
    const published = await client.publishJSON({ urlGroup: 'sdk-ug', body: { to: 'group' } });
    expect(published).toHaveLength(2);
    await env.sink.waitFor(2);
    await client.urlGroups.removeEndpoints({ name: 'sdk-ug', endpoints: [{ name: 'one' }] });
    expect((await client.urlGroups.get('sdk-ug')).endpoints).toEqual([{ url: `${env.sink.url}/u2` }]);
    await client.urlGroups.delete('sdk-ug');
    await expect(client.urlGroups.get('sdk-ug')).rejects.toMatchObject({ status: 404 });
  });

  it('queues: upsert, get, list, enqueue, pause, resume, delete', async () => {
    const queue = client.queue({ queueName: 'sdk-queue' });
    await queue.upsert({ parallelism: 2, paused: true });
    await queue.enqueueJSON({ url: `${env.sink.url}/q1`, body: { q: 1 } });
    await queue.enqueue({ url: `${env.sink.url}/q2`, body: 'q2' });
    expect(await queue.get()).toEqual({
      name: 'sdk-queue',
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
      parallelism: 2,
      lag: 2,
      paused: true,
    });
    expect((await client.queue().list()).map((q) => q.name)).toContain('sdk-queue');
    await settle();
    expect(env.sink.received).toHaveLength(0);
    await queue.resume();
    await verify('/q1', '{"q":1}');
    await verify('/q2', 'q2');
    await queue.pause();
    expect((await queue.get()).paused).toBe(true);
    await queue.delete();
    await expect(queue.get()).rejects.toMatchObject({ status: 404 });
  });

  it('messages: get, cancel one, cancel many', async () => {
    const a = await client.publish({ url: `${env.sink.url}/m`, body: 'a', delay: 3600 });
    const b = await client.publish({ url: `${env.sink.url}/m`, body: 'b', delay: 3600 });
    const c = await client.publish({ url: `${env.sink.url}/m`, body: 'c', delay: 3600 });
    expect((await client.messages.get(a.messageId)).body).toBe('a');
    expect(await client.messages.cancel(a.messageId)).toEqual({ cancelled: 1 });
    expect(await client.messages.cancel([b.messageId])).toEqual({ cancelled: 1 });
    await client.messages.delete(c.messageId);
    await expect(client.messages.get(c.messageId)).rejects.toBeInstanceOf(QstashError);
    // cancel({all: true}) and deleteAll(): bulk-all.test.ts (they would cancel the other tests' messages).
  });

  it('dlq: list, retry, delete', async () => {
    env.behaviour = (path) => (path === '/sdk-dlq' ? { status: 500, body: 'nope' } : {});
    const failed = await client.publish({
      url: `${env.sink.url}/sdk-dlq`,
      body: 'dead',
      retries: 0,
      label: 'sdk-dlq',
    });
    await waitForState(env.stack, failed.messageId, 'FAILED');
    const list = await client.dlq.listMessages({ filter: { label: 'sdk-dlq' } });
    expect(list.messages).toHaveLength(1);
    expect(list.messages[0]).toMatchObject({
      messageId: failed.messageId,
      responseStatus: 500,
      responseBody: 'nope',
    });
    const dlqId = list.messages[0]?.dlqId as string;
    env.behaviour = () => ({});
    const retried = await client.dlq.retry(dlqId);
    expect(retried.responses).toHaveLength(1);
    expect(retried.cursor).toBeUndefined();
    await env.sink.waitFor(2, { match: (r) => r.url === '/sdk-dlq' });

    env.behaviour = () => ({ status: 500 });
    const second = await client.publish({ url: `${env.sink.url}/sdk-dlq2`, body: 'dead', retries: 0 });
    await waitForState(env.stack, second.messageId, 'FAILED');
    const [entry] = (await client.dlq.listMessages({ filter: { messageId: second.messageId } })).messages;
    expect(await client.dlq.delete(entry?.dlqId as string)).toEqual({ deleted: 1 });
    await expect(client.dlq.delete(entry?.dlqId as string)).rejects.toMatchObject({ status: 404 });
  });

  it('logs and events', async () => {
    const published = await client.publish({ url: `${env.sink.url}/logs`, body: 'l' });
    await waitForState(env.stack, published.messageId, 'DELIVERED');
    const logs = await client.logs({ filter: { messageId: published.messageId } });
    expect(logs.logs.map((log) => log.state)).toEqual(['DELIVERED', 'ACTIVE', 'CREATED']);
    const delivered = await client.events({ filter: { messageId: published.messageId, state: 'DELIVERED' } });
    expect(delivered.events).toHaveLength(1);
    expect(delivered.events[0]).toMatchObject({
      messageId: published.messageId,
      url: `${env.sink.url}/logs`,
    });
  });
});
