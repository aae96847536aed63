import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DlqBulkEvent,
  DlqBulkSummary,
  DlqPage,
} from '../../../../shared/bridge/procedures/messages/dlq';
import type { BridgeErrorData } from '../../../../shared/bridge/errors';
import {
  eventually,
  fillDlq,
  profileFor,
  startDestination,
  useStackBehindProxy,
} from '../test-stack/real-stack';
import { routerWith, valueOf } from '../test-stack/router';
import { dlqHandlers } from './dlq';

describe('DLQ handlers against the local stack', () => {
  const env = useStackBehindProxy();
  let failing: Awaited<ReturnType<typeof startDestination>>;
  let healthy: Awaited<ReturnType<typeof startDestination>>;
  beforeAll(async () => {
    failing = await startDestination(() => 500);
    healthy = await startDestination(() => 200);
  });
  afterAll(async () => {
    await Promise.all([failing.close(), healthy.close()]);
  });

  const router = (readOnly = new Set<string>()) =>
    routerWith(
      dlqHandlers({ profiles: { resolve: () => profileFor(env.proxy.url, env.stack.token) } }),
      readOnly,
    );

  /** Runs a bulk job to its end (or until `stopWhen` says stop); answers the events and the end error. */
  async function runBulk(
    input: unknown,
    stopWhen?: (event: DlqBulkEvent) => boolean,
  ): Promise<{ events: DlqBulkEvent[]; error?: BridgeErrorData }> {
    const events: DlqBulkEvent[] = [];
    return new Promise((resolve, reject) => {
      let stop: (() => void) | undefined;
      let stopped = false;
      router()
        .open('messages.dlq.bulk', input, {
          push: (event) => {
            events.push(event as DlqBulkEvent);
            if (!stopped && stopWhen?.(event as DlqBulkEvent)) {
              stopped = true;
              stop?.();
              // The renderer closing the stream: nothing more arrives; give a chunk in flight time to land.
              setTimeout(() => resolve({ events }), 500);
            }
          },
          end: (error) => resolve({ events, error }),
        })
        .then((s) => (stop = s), reject);
    });
  }

  it('lists with filters, shows the failing response, retries one with overrides', async () => {
    await fillDlq(env.stack, `${failing.url}/single`, 2, { 'Upstash-Label': 'single' });
    const page = valueOf<DlqPage>(
      await router().call('messages.dlq.list', { profileId: 'p', filters: { label: ['single'] } }),
    );
    expect(page.messages).toHaveLength(2);
    const entry = page.messages[0]!;
    expect(entry.responseStatus).toBe(500);
    expect(entry.responseBody).toBe('destination says no');
    expect(entry.url).toBe(`${failing.url}/single`);

    const { messageId } = valueOf<{ messageId: string }>(
      await router().call('messages.dlq.retry', {
        profileId: 'p',
        dlqId: entry.dlqId,
        overrides: { retries: 2, delay: '10s', forwardHeaders: { 'x-fixed': 'yes' } },
      }),
    );
    expect(messageId).toMatch(/^msg_/);
    const sent = env.proxy.requests.find((r) => r.url === `/v2/dlq/retry/${entry.dlqId}`)!;
    expect(sent.headers['upstash-retries']).toBe('2');
    expect(sent.headers['upstash-delay']).toBe('10s');
    expect(sent.headers['upstash-forward-x-fixed']).toBe('yes');
    const message = await fetch(`${env.stack.url}/v2/messages/${messageId}`, {
      headers: { authorization: `Bearer ${env.stack.token}` },
    }).then((r) => r.json() as Promise<{ maxRetries: number; header: Record<string, string[]> }>);
    expect(message.maxRetries).toBe(2);
    expect(message.header['X-Fixed']).toEqual(['yes']);

    // Gone from the DLQ; a second retry gets the service's 404 text.
    const again = await router().call('messages.dlq.retry', { profileId: 'p', dlqId: entry.dlqId });
    expect(again).toMatchObject({ ok: false, error: { code: 'SERVICE_ERROR', status: 404 } });
    expect(
      valueOf(await router().call('messages.dlq.delete', { profileId: 'p', dlqId: page.messages[1]!.dlqId })),
    ).toEqual({
      deleted: page.messages[1]!.dlqId,
    });
  });

  it('bulk retry by filter: previews the count, runs in chunks of 100 with progress, and every entry leaves the DLQ', async () => {
    await fillDlq(env.stack, `${failing.url}/bulk`, 230, { 'Upstash-Label': 'bulk' });
    const filters = { label: ['bulk'] };
    expect(valueOf(await router().call('messages.dlq.count', { profileId: 'p', filters }))).toEqual({
      count: 230,
      capped: false,
    });
    const before = env.proxy.requests.length;
    const { events, error } = await runBulk({
      profileId: 'p',
      action: 'retry',
      target: { filters },
      overrides: { retries: 0, forwardHeaders: { 'x-retry-run': '1' } },
    });
    expect(error).toBeUndefined();
    const retries = env.proxy.requests.slice(before).filter((r) => r.method === 'POST');
    expect(retries.map((r) => new URL(r.url, 'http://x').searchParams.getAll('dlqIds').length)).toEqual([
      100, 100, 30,
    ]);
    expect(retries.every((r) => r.headers['upstash-retries'] === '0')).toBe(true);
    const progress = events.filter((e) => e.type === 'progress').map((e) => e.processed);
    expect(progress).toEqual([0, 100, 200, 230]);
    const done = events.at(-1) as { type: 'done'; summary: DlqBulkSummary };
    expect(done.type).toBe('done');
    expect(done.summary).toMatchObject({ action: 'retry', total: 230, succeeded: 230, failures: [] });
    expect(new Set(done.summary.retried.map((r) => r.messageId)).size).toBe(230);
    // The new messages were delivered (and failed again) with the overriding header.
    await eventually(async () =>
      failing.received.filter((r) => r.headers['x-retry-run'] === '1').length === 230 ? true : undefined,
    );
  });

  it('stops before the next chunk when the stream is closed', async () => {
    await fillDlq(env.stack, `${failing.url}/stop`, 250, { 'Upstash-Label': 'stop' });
    const before = env.proxy.requests.length;
    const { events } = await runBulk(
      { profileId: 'p', action: 'delete', target: { filters: { label: ['stop'] } } },
      (event) => event.type === 'progress' && event.processed >= 100,
    );
    const deletes = env.proxy.requests.slice(before).filter((r) => r.method === 'DELETE');
    expect(deletes).toHaveLength(1);
    // The job's own account (the renderer has closed the stream and no longer listens): it stopped early.
    const done = events.find((e) => e.type === 'done') as { summary: DlqBulkSummary } | undefined;
    if (done) expect(done.summary).toMatchObject({ total: 250, succeeded: 100 });
    const left = valueOf<{ count: number }>(
      await router().call('messages.dlq.count', { profileId: 'p', filters: { label: ['stop'] } }),
    );
    expect(left.count).toBe(150);
  });

  it('bulk delete by ids counts entries that were already gone; bulk retry lists the missing ones', async () => {
    await fillDlq(env.stack, `${failing.url}/ids`, 3, { 'Upstash-Label': 'ids' });
    const page = valueOf<DlqPage>(
      await router().call('messages.dlq.list', { profileId: 'p', filters: { label: ['ids'] } }),
    );
    const ids = page.messages.map((m) => m.dlqId);
    const retried = await runBulk({
      profileId: 'p',
      action: 'retry',
      target: { dlqIds: [ids[0], 'no-such-entry'] },
    });
    const retrySummary = (retried.events.at(-1) as { summary: DlqBulkSummary }).summary;
    expect(retrySummary.succeeded).toBe(1);
    expect(retrySummary.failures).toEqual([
      { dlqId: 'no-such-entry', message: expect.stringContaining('not found') },
    ]);
    const deleted = await runBulk({
      profileId: 'p',
      action: 'delete',
      target: { dlqIds: [ids[1], ids[2], 'gone-already'] },
    });
    const deleteSummary = (deleted.events.at(-1) as { summary: DlqBulkSummary }).summary;
    expect(deleteSummary).toMatchObject({ total: 3, succeeded: 2, notFound: 1, failures: [] });
  });

  it('refuses every DLQ write for a read-only profile, in main', async () => {
    const readOnly = new Set(['ro']);
    const before = env.proxy.requests.length;
    for (const [name, input] of [
      ['messages.dlq.retry', { profileId: 'ro', dlqId: 'x' }],
      ['messages.dlq.delete', { profileId: 'ro', dlqId: 'x' }],
    ] as const) {
      expect(await router(readOnly).call(name, input)).toMatchObject({
        ok: false,
        error: { code: 'READ_ONLY' },
      });
    }
    await expect(
      router(readOnly).open(
        'messages.dlq.bulk',
        { profileId: 'ro', action: 'delete', target: { filters: {} } },
        { push: () => {}, end: () => {} },
      ),
    ).rejects.toMatchObject({ code: 'READ_ONLY' });
    expect(env.proxy.requests.length).toBe(before);
    // Reads still work.
    expect((await router(readOnly).call('messages.dlq.list', { profileId: 'ro' })).ok).toBe(true);
  });
});
