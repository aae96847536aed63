// The message DLQ against the real local stack behind a recording proxy: list, inspect, retry one with
// overrides, and the job over many — its preview is the listing it acts on (no second scan), chunks of
// JOB_CHUNK with progress, cancel between chunks, missing entries, an "all" target, read-only refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_CHUNK } from '../../../../shared/bridge/job';
import type { DlqPage } from '../../../../shared/bridge/procedures/messages/dlq';
import { doneByLostAnswers, runJob, testJobRunner } from '../../testing/jobs';
import { useSuiteTempDir } from '../../../../shared/testing/temp-dir';
import { eventually, fillDlq, startDestination, useStackBehindProxy } from '../test-stack/real-stack';
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

  const jobs = testJobRunner(useSuiteTempDir());
  const router = (readOnly = new Set<string>()) =>
    routerWith(dlqHandlers({ profiles: env.profiles, jobs }), readOnly);
  /** `count` entries labelled `label` in the DLQ (messages to the failing destination under /label). */
  const failedWithLabel = (label: string, count: number) =>
    fillDlq(env.stack, `${failing.url}/${label}`, count, { 'Upstash-Label': label });
  /** The DLQ job of profile p. */
  const dlqJob = (action: 'retry' | 'delete', target: object, options?: Parameters<typeof runJob>[3]) =>
    runJob(router(), 'messages.dlq.job', { profileId: 'p', action, target }, options);
  const byLabel = (label: string) => ({ filters: { label: [label] } });
  const listRequests = (since: number) =>
    env.proxy.requests.slice(since).filter((r) => r.method === 'GET' && r.url.startsWith('/v2/dlq'));

  it('lists with filters, shows the failing response, retries one with overrides', async () => {
    await failedWithLabel('single', 2);
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

  it('job retry by filter: the preview is the one listing, then chunks with progress; every entry leaves the DLQ', async () => {
    await failedWithLabel('bulk', 120);
    const before = env.proxy.requests.length;
    const run = await dlqJob('retry', byLabel('bulk'), {
      start: { overrides: { retries: 0, forwardHeaders: { 'x-retry-run': '1' } } },
    });
    expect(run.error).toBeUndefined();
    expect(run.found).toBe(120);
    // Listed once (two pages of 100), never again after the start.
    expect(listRequests(before)).toHaveLength(2);
    const retries = env.proxy.requests.slice(before).filter((r) => r.method === 'POST');
    expect(retries.map((r) => new URL(r.url, 'http://x').searchParams.getAll('dlqIds').length)).toEqual([
      JOB_CHUNK,
      JOB_CHUNK,
      120 - 2 * JOB_CHUNK,
    ]);
    expect(retries.every((r) => r.headers['upstash-retries'] === '0')).toBe(true);
    const types = run.events.map((e) => e.type);
    expect(types[0]).toBe('collecting');
    expect(types.slice(types.indexOf('started'))).toEqual([
      'started',
      'progress',
      'progress',
      'progress',
      'progress',
      'done',
    ]);
    const progress = run.events.flatMap((e) => (e.type === 'progress' ? [e.processed] : []));
    expect(progress).toEqual([0, JOB_CHUNK, 2 * JOB_CHUNK, 120]);
    expect(run.summary).toMatchObject({
      action: 'retry',
      status: 'done',
      total: 120,
      succeeded: 120,
      failed: 0,
    });
    expect(new Set(run.summary!.created.map((item) => item.id)).size).toBe(120);
    // The new messages were delivered (and failed again) with the overriding header.
    await eventually(async () =>
      failing.received.filter((r) => r.headers['x-retry-run'] === '1').length === 120 ? true : undefined,
    );
    // The journal has it, with the overrides.
    expect(jobs.journal.get(run.summary!.jobId)).toMatchObject({
      procedure: 'messages.dlq.job',
      service: 'messages',
      status: 'done',
      processed: 120,
      options: { overrides: { retries: 0 } },
      description: 'DLQ entries matching label bulk',
    });
  });

  it('closing the job stops before the next chunk, and nothing is sent before the start', async () => {
    await failedWithLabel('stop', 120);
    const target = byLabel('stop');
    let before = env.proxy.requests.length;
    const preview = await dlqJob('delete', target, { start: false });
    expect(preview.found).toBe(120);
    expect(env.proxy.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);

    before = env.proxy.requests.length;
    const run = await dlqJob('delete', target, {
      stopWhen: (event) => event.type === 'progress' && event.processed >= JOB_CHUNK,
    });
    expect(env.proxy.requests.slice(before).filter((r) => r.method === 'DELETE')).toHaveLength(1);
    expect(run.summary).toMatchObject({ status: 'cancelled', total: 120, succeeded: JOB_CHUNK });
    const left = await dlqJob('delete', target, { start: false });
    expect(left.found).toBe(120 - JOB_CHUNK);
  });

  it('a start that does not confirm the listed count sends nothing', async () => {
    await failedWithLabel('confirm', 3);
    const before = env.proxy.requests.length;
    const run = await dlqJob('delete', byLabel('confirm'), { confirmed: 2 });
    expect(run.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/listed 3/) });
    expect(env.proxy.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);
  });

  it('an empty filter is refused; "all" is explicit and lists the whole DLQ', async () => {
    const refused = dlqJob('delete', { filters: {} });
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const all = await dlqJob('delete', { all: true }, { start: false });
    const everything = valueOf<DlqPage>(await router().call('messages.dlq.list', { profileId: 'p' }));
    expect(all.found).toBeGreaterThanOrEqual(everything.messages.length);
  });

  it('a job on ids counts entries that were already gone; a retry names the missing ones', async () => {
    await failedWithLabel('ids', 3);
    const page = valueOf<DlqPage>(
      await router().call('messages.dlq.list', { profileId: 'p', filters: { label: ['ids'] } }),
    );
    const ids = page.messages.map((m) => m.dlqId);
    const retried = await dlqJob('retry', { ids: [ids[0], 'no-such-entry'] });
    expect(retried.summary?.succeeded).toBe(1);
    expect(retried.summary?.failures).toEqual([
      { id: 'no-such-entry', message: expect.stringContaining('not found') },
    ]);
    const deleted = await dlqJob('delete', { ids: [ids[1], ids[2], 'gone-already'] });
    expect(deleted.summary).toMatchObject({ total: 3, succeeded: 2, skipped: 1, failures: [] });
  });

  it('a bulk retry whose answer is lost after the stack retried (a gateway’s 503): asked again, the entries count as retried, not failed', async () => {
    await failedWithLabel('lost', 3);
    let lost = 1;
    const before = env.proxy.requests.length;
    env.proxy.fault = (request) =>
      request.method === 'POST' && request.url.startsWith('/v2/dlq/retry?') && lost-- > 0
        ? 'answer-503'
        : undefined;
    const run = await dlqJob('retry', byLabel('lost')).finally(() => (env.proxy.fault = undefined));
    expect(run.summary).toMatchObject(doneByLostAnswers(3));
    expect(run.events.filter((event) => event.type === 'waiting')).toHaveLength(1);
    // The bulk retry the stack did, the one asked again (404: they are gone), then each entry alone (404).
    const posts = env.proxy.requests.slice(before).filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.url.split('?')[0])).toEqual([
      '/v2/dlq/retry',
      '/v2/dlq/retry',
      '/v2/dlq/retry/' + posts[2]!.url.split('/').at(-1),
      '/v2/dlq/retry/' + posts[3]!.url.split('/').at(-1),
      '/v2/dlq/retry/' + posts[4]!.url.split('/').at(-1),
    ]);
    // Each entry was retried once: its new message was delivered (and failed again), three in all.
    const lostDeliveries = () => failing.received.filter((request) => request.url === '/lost').length;
    await eventually(async () => (lostDeliveries() === 6 ? true : undefined));
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
        'messages.dlq.job',
        { profileId: 'ro', action: 'delete', target: { all: true } },
        { push: () => {}, end: () => {} },
      ),
    ).rejects.toMatchObject({ code: 'READ_ONLY' });
    expect(env.proxy.requests.length).toBe(before);
    // Reads still work.
    expect((await router(readOnly).call('messages.dlq.list', { profileId: 'ro' })).ok).toBe(true);
  });
});
