// Cancelling messages as a job, against the real local stack behind a recording proxy: the preview is the
// pending messages the logs list (delivered and cancel-requested ones are not), found across pages; the
// job cancels exactly those by id in chunks of JOB_CHUNK, stops between chunks when closed, counts the
// ones that finished meanwhile as already gone, and never sends an empty cancel.
import { describe, expect, it } from 'vitest';
import { JOB_CHUNK } from '../../../../shared/bridge/job';
import type { LogsPage } from '../../../../shared/bridge/procedures/messages/logs';
import { runJob, testJobRunner } from '../../testing/jobs';
import { useSuiteTempDir } from '../../../../shared/testing/temp-dir';
import { eventually, publishBatch, startDestination, useStackBehindProxy } from '../test-stack/real-stack';
import { routerWith, valueOf } from '../test-stack/router';
import { cancelJobPlan } from './cancel-job';
import { clientsFor, MessageClient } from './client';
import { logHandlers } from './logs';

describe('message cancel as a job, against the local stack', () => {
  const env = useStackBehindProxy();
  const jobs = testJobRunner(useSuiteTempDir());
  const { profiles } = env;
  const router = () => routerWith(logHandlers({ profiles, jobs }));
  const auth = () => ({ authorization: `Bearer ${env.stack.token}` });
  const deletes = (since: number) =>
    env.proxy.requests.slice(since).filter((r) => r.method === 'DELETE' && r.url.startsWith('/v2/messages'));

  /** `count` messages due in an hour, published in one batch request. */
  async function publishLater(label: string, count: number): Promise<string[]> {
    const items = Array.from({ length: count }, (_, i) => ({
      destination: 'http://127.0.0.1:9/never',
      headers: { 'Upstash-Delay': '1h', 'Upstash-Label': label },
      body: `later ${i}`,
    }));
    return publishBatch(env.stack, items);
  }

  async function statesOf(messageId: string): Promise<string[]> {
    const page = valueOf<LogsPage>(
      await router().call('messages.logs.list', { profileId: 'p', filters: { messageId } }),
    );
    return page.events.map((event) => event.state);
  }

  it('lists only pending messages, across log pages, and the preview sends no cancel', async () => {
    const destination = await startDestination(() => 200);
    try {
      const label = 'listing';
      const published = await fetch(`${env.stack.url}/v2/publish/${destination.url}/now`, {
        method: 'POST',
        headers: { ...auth(), 'Upstash-Label': label },
        body: 'now',
      });
      const delivered = ((await published.json()) as { messageId: string }).messageId;
      await eventually(async () => ((await statesOf(delivered))[0] === 'DELIVERED' ? true : undefined));
      const [requested, ...pending] = await publishLater(label, 3);
      await MessageClient.forProfile(profiles.resolve('p')).cancelMany([requested!]);

      // Two events per page: the delivered message's older events come on later pages, and must not list it.
      const plan = cancelJobPlan(clientsFor(profiles), 2);
      const input = { profileId: 'p', action: 'cancel' as const, target: { filters: { label: [label] } } };
      const listed: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await plan.scan(input, cursor, new AbortController().signal);
        listed.push(...page.items);
        cursor = page.cursor;
        pages += 1;
      } while (cursor);
      expect(pages).toBeGreaterThan(3);
      expect(listed.sort()).toEqual([...pending].sort());

      const before = env.proxy.requests.length;
      const preview = await runJob(router(), 'messages.logs.job', input, { start: false });
      expect(preview.found).toBe(2);
      expect(deletes(before)).toEqual([]);
    } finally {
      await destination.close();
    }
  });

  it('cancels by filter in chunks with progress; the logs show the cancel; the journal has the job', async () => {
    const ids = await publishLater('many', 120);
    const keep = await publishLater('keep', 1);
    const before = env.proxy.requests.length;
    const run = await runJob(router(), 'messages.logs.job', {
      profileId: 'p',
      target: { filters: { label: ['many'] } },
    });
    expect(run.error).toBeUndefined();
    expect(run.found).toBe(120);
    const sent = deletes(before).map((r) => new URL(r.url, 'http://x').searchParams.getAll('messageIds'));
    expect(sent.map((chunk) => chunk.length)).toEqual([JOB_CHUNK, JOB_CHUNK, 120 - 2 * JOB_CHUNK]);
    expect(sent.flat().sort()).toEqual([...ids].sort());
    const progress = run.events.flatMap((e) => (e.type === 'progress' ? [e.processed] : []));
    expect(progress).toEqual([0, JOB_CHUNK, 2 * JOB_CHUNK, 120]);
    expect(run.summary).toMatchObject({ action: 'cancel', status: 'done', total: 120, succeeded: 120 });
    expect(await statesOf(ids[0]!)).toContain('CANCEL_REQUESTED');
    expect(await statesOf(keep[0]!)).toEqual(['CREATED']);
    expect(jobs.journal.get(run.summary!.jobId)).toMatchObject({
      procedure: 'messages.logs.job',
      service: 'messages',
      action: 'cancel',
      status: 'done',
      processed: 120,
      description: 'pending messages matching label many',
    });
    // Cancelled messages are no longer pending: a second preview finds nothing.
    const again = await runJob(
      router(),
      'messages.logs.job',
      { profileId: 'p', target: { filters: { label: ['many'] } } },
      { start: false },
    );
    expect(again.found).toBe(0);
  });

  it('closing the job stops before the next chunk; the rest stay pending', async () => {
    await publishLater('stop', 120);
    const target = { filters: { label: ['stop'] } };
    const before = env.proxy.requests.length;
    const run = await runJob(
      router(),
      'messages.logs.job',
      { profileId: 'p', target },
      { stopWhen: (event) => event.type === 'progress' && event.processed >= JOB_CHUNK },
    );
    expect(deletes(before)).toHaveLength(1);
    expect(run.summary).toMatchObject({ status: 'cancelled', total: 120, succeeded: JOB_CHUNK });
    const left = await runJob(router(), 'messages.logs.job', { profileId: 'p', target }, { start: false });
    expect(left.found).toBe(120 - JOB_CHUNK);
  });

  it('selected ids: a message finished meanwhile counts as already gone', async () => {
    const [a, b] = await publishLater('ids', 2);
    await MessageClient.forProfile(profiles.resolve('p')).cancelMany([a!]);
    await eventually(async () => ((await statesOf(a!)).includes('CANCEL_REQUESTED') ? true : undefined));
    const run = await runJob(router(), 'messages.logs.job', { profileId: 'p', target: { ids: [a, b] } });
    expect(run.summary).toMatchObject({ status: 'done', total: 2, succeeded: 1, skipped: 1, failed: 0 });
  });

  it('never sends an empty cancel: empty filters and id lists are refused before any request', async () => {
    const before = env.proxy.requests.length;
    // An id holding a comma is a list to the service, and `","` is no id at all: "cancel every message".
    for (const target of [{ filters: {} }, { filters: { label: [] } }, { ids: [] }, { ids: [','] }, {}]) {
      await expect(runJob(router(), 'messages.logs.job', { profileId: 'p', target })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
    }
    const client = MessageClient.forProfile(profiles.resolve('p'));
    await expect(client.cancelMany([])).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(client.cancelMany(['', ' '])).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(client.cancelMany([','])).rejects.toThrow(/would act on every message/);
    await expect(client.cancelMany(['msg_a,msg_b'])).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(client.retryDlqMany([], {})).rejects.toThrow(/without ids: the service would act on every/);
    await expect(client.deleteDlqMany([','])).rejects.toThrow(/every DLQ entry/);
    expect(env.proxy.requests.length).toBe(before);
  });

  it('"all" is explicit, lists every pending message, and a read-only profile is refused', async () => {
    await publishLater('all', 2);
    const all = await runJob(
      router(),
      'messages.logs.job',
      { profileId: 'p', target: { all: true } },
      { start: false },
    );
    expect(all.found).toBeGreaterThanOrEqual(2);
    const readOnly = routerWith(logHandlers({ profiles, jobs }), new Set(['ro']));
    await expect(
      runJob(readOnly, 'messages.logs.job', { profileId: 'ro', target: { all: true } }),
    ).rejects.toMatchObject({ code: 'READ_ONLY' });
  });
});
