import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UrlGroup } from '../../../../shared/messages/types';
import { eventually, startDestination, useStackBehindProxy } from '../test-stack/real-stack';
import { profileCaller, routerWith } from '../test-stack/router';
import { urlGroupHandlers } from './url-groups';

describe('URL group handlers against the local stack', () => {
  const env = useStackBehindProxy();
  let sink: Awaited<ReturnType<typeof startDestination>>;
  beforeAll(async () => {
    sink = await startDestination();
  });
  afterAll(async () => {
    await sink.close();
  });

  const router = () => routerWith(urlGroupHandlers({ profiles: env.profiles }));
  const call = profileCaller(router);

  it('creates a group by adding endpoints, sets default headers that deliveries carry, removes endpoints', async () => {
    const created = await call<UrlGroup>('messages.urlGroups.addEndpoints', {
      name: 'orders',
      endpoints: [{ url: `${sink.url}/a`, name: 'a' }, { url: `${sink.url}/b` }],
    });
    expect(created.name).toBe('orders');
    expect(created.endpoints).toEqual([{ name: 'a', url: `${sink.url}/a` }, { url: `${sink.url}/b` }]);
    const list = await call<UrlGroup[]>('messages.urlGroups.list', {});
    expect(list.map((group) => [group.name, group.endpoints.length])).toEqual([['orders', 2]]);

    const patched = await call<UrlGroup>('messages.urlGroups.setHeaders', {
      name: 'orders',
      headers: { 'Upstash-Forward-X-Team': ['payments'] },
    });
    expect(env.proxy.requests.find((r) => r.method === 'PATCH')).toMatchObject({
      url: '/v2/topics/orders',
      body: JSON.stringify({ headers: { 'Upstash-Forward-X-Team': ['payments'] } }),
    });
    expect(patched.headers).toEqual({ 'Upstash-Forward-X-Team': ['payments'] });

    // Fan-out: both endpoints receive, with the group's default header.
    await fetch(`${env.stack.url}/v2/publish/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.stack.token}` },
      body: 'hello',
    });
    const arrived = await eventually(async () => (sink.received.length >= 2 ? sink.received : undefined));
    expect(arrived.map((r) => r.url).sort()).toEqual(['/a', '/b']);
    expect(arrived.every((r) => r.headers['x-team'] === 'payments')).toBe(true);

    const afterRemove = await call<{ group: UrlGroup | null }>('messages.urlGroups.removeEndpoints', {
      name: 'orders',
      endpoints: [{ name: 'a' }],
    });
    expect(afterRemove.group?.endpoints).toEqual([{ url: `${sink.url}/b` }]);
    // Removing the last endpoint deletes the group.
    const gone = await call<{ group: UrlGroup | null }>('messages.urlGroups.removeEndpoints', {
      name: 'orders',
      endpoints: [{ url: `${sink.url}/b` }],
    });
    expect(gone.group).toBeNull();
    expect(await call<UrlGroup[]>('messages.urlGroups.list', {})).toEqual([]);
  });

  it('deletes a group and reports the service’s errors in its own words', async () => {
    await call('messages.urlGroups.addEndpoints', { name: 'tmp', endpoints: [{ url: `${sink.url}/x` }] });
    expect(await call('messages.urlGroups.delete', { name: 'tmp' })).toEqual({ deleted: 'tmp' });
    const missing = await router().call('messages.urlGroups.get', { profileId: 'p', name: 'tmp' });
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'SERVICE_ERROR', status: 404, message: "URL group 'tmp' not found" },
    });
  });

  it('validates names and URLs before anything is sent', async () => {
    const before = env.proxy.requests.length;
    const bad = await router().call('messages.urlGroups.addEndpoints', {
      profileId: 'p',
      name: 'bad name!',
      endpoints: [{ url: 'ftp://nope' }],
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    if (!bad.ok) {
      expect(bad.error.fields?.name).toMatch(/invalid URL group name/);
      expect(bad.error.fields?.['endpoints.0.url']).toMatch(/http/);
    }
    expect(env.proxy.requests.length).toBe(before);
  });
});
