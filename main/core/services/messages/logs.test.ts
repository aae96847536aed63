import { describe, expect, it } from 'vitest';
import type { LogsPage } from '../../../../shared/bridge/procedures/messages/logs';
import { testJobRunner } from '../../testing/jobs';
import { useSuiteTempDir } from '../../../../shared/testing/temp-dir';
import { useStackBehindProxy } from '../test-stack/real-stack';
import { routerWith, valueOf } from '../test-stack/router';
import { logHandlers } from './logs';
import { IDS_PER_PAGE } from './logs-by-ids';

describe('logs against the local stack', () => {
  const env = useStackBehindProxy();

  const jobs = testJobRunner(useSuiteTempDir());
  const router = () => routerWith(logHandlers({ profiles: env.profiles, jobs }));

  async function publishDelayed(label: string): Promise<string> {
    const response = await fetch(`${env.stack.url}/v2/publish/http://127.0.0.1:9/never`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.stack.token}`, 'Upstash-Delay': '1h', 'Upstash-Label': label },
      body: 'later',
    });
    return ((await response.json()) as { messageId: string }).messageId;
  }

  it('filters by state (IN_PROGRESS included) and pages with the cursor', async () => {
    for (let i = 0; i < 5; i += 1) await publishDelayed('paging');
    const first = valueOf<LogsPage>(
      await router().call('messages.logs.list', { profileId: 'p', filters: { label: ['paging'] }, count: 3 }),
    );
    expect(first.events).toHaveLength(3);
    expect(first.cursor).toBeTruthy();
    const second = valueOf<LogsPage>(
      await router().call('messages.logs.list', {
        profileId: 'p',
        filters: { label: ['paging'] },
        count: 3,
        cursor: first.cursor,
      }),
    );
    expect(second.events).toHaveLength(2);
    expect(second.cursor).toBeUndefined();
    const ids = new Set([...first.events, ...second.events].map((event) => event.messageId));
    expect(ids.size).toBe(5);
    const inProgress = valueOf<LogsPage>(
      await router().call('messages.logs.list', {
        profileId: 'p',
        filters: { label: ['paging'], state: ['IN_PROGRESS'] },
      }),
    );
    expect(inProgress.events).toEqual([]);
    expect(env.proxy.requests.at(-1)?.url).toContain('state=IN_PROGRESS');
  });

  it('lists a set of messages exactly, one id per request, paging by slices of the set', async () => {
    const set: string[] = [];
    for (let i = 0; i < IDS_PER_PAGE + 2; i += 1) set.push(await publishDelayed('id-set'));
    const other = await publishDelayed('id-set');
    const before = env.proxy.requests.length;
    const list = (cursor?: string) =>
      router().call('messages.logs.list', { profileId: 'p', filters: { messageIds: set }, cursor });
    const first = valueOf<LogsPage>(await list());
    expect(first.cursor).toBe(`ids:${IDS_PER_PAGE}`);
    const second = valueOf<LogsPage>(await list(first.cursor));
    expect(second.cursor).toBeUndefined();
    const events = [...first.events, ...second.events];
    expect(new Set(events.map((event) => event.messageId))).toEqual(new Set(set));
    expect(events.some((event) => event.messageId === other)).toBe(false);
    const times = first.events.map((event) => event.time);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Faithful to the cloud: each request carries exactly one messageId, never a list.
    const sent = env.proxy.requests.slice(before).map((request) => new URL(request.url, 'http://x'));
    expect(sent).toHaveLength(set.length);
    for (const url of sent) {
      expect(url.pathname).toBe('/v2/logs');
      expect(url.searchParams.getAll('messageId')).toHaveLength(1);
      expect(url.searchParams.has('messageIds')).toBe(false);
    }
    // A message id filter next to the set narrows it; an id outside the set matches nothing.
    const narrowed = valueOf<LogsPage>(
      await router().call('messages.logs.list', {
        profileId: 'p',
        filters: { messageIds: set, messageId: set[3] },
      }),
    );
    expect(new Set(narrowed.events.map((event) => event.messageId))).toEqual(new Set([set[3]]));
    const outside = valueOf<LogsPage>(
      await router().call('messages.logs.list', {
        profileId: 'p',
        filters: { messageIds: set, messageId: other },
      }),
    );
    expect(outside).toEqual({ events: [] });
  });
});
