// The same limits on every publish path (single, enqueue, batch, URL-group endpoints and default headers):
// URL and header sizes, header values that can be sent, retry-delay expressions, URL-group names; and a logs
// page of bounded size however large the messages are. Real HTTP on 127.0.0.1 (issue 9 items 16 and 17).
import { describe, expect, it } from 'vitest';

import { MAX_HEADER_BYTES, MAX_PAGE_BYTES } from '../../shared/messages/limits';
import { rawHttp } from '../../shared/testing/raw-http';
import { useStackAndSink, waitForState } from './test-support';

const env = useStackAndSink();
const json = (value: unknown): string => JSON.stringify(value);

/** A request whose path Node sends as written (fetch would resolve `..` and `.` segments away). */
function rawRequest(method: string, path: string, body: string) {
  return rawHttp(new URL(env.stack.url).port, path, {
    method,
    headers: { authorization: `Bearer ${env.stack.token}`, 'content-type': 'application/json' },
    body,
  });
}

describe('URL and header sizes (item 16)', () => {
  const longUrl = (): string => `${env.sink.url}/${'a'.repeat(500_000)}`;

  it('a single publish over the head limit is refused by the HTTP layer', async () => {
    const res = await env.stack.api('POST', `/v2/publish/${env.sink.url}/x`, {
      headers: { 'Upstash-Forward-Big': 'b'.repeat(MAX_HEADER_BYTES) },
      body: 'x',
    });
    expect(res.status).toBe(431);
    expect(res.json.error).toMatch(/headers are too large/);
  });

  it('a batch item with a 200 KB destination URL or 20 KB of headers makes the batch a 400, nothing published', async () => {
    const ok = { destination: `${env.sink.url}/ok`, body: 'fine' };
    const longDestination = await env.stack.api('POST', '/v2/batch', {
      body: json([ok, { destination: `${env.sink.url}/${'a'.repeat(200_000)}`, body: 'long url' }]),
    });
    expect(longDestination.status).toBe(400);
    expect(longDestination.json.error).toMatch(/batch item 1: .*take 2000\d\d bytes, more than the 16384/);
    const bigHeaders = await env.stack.api('POST', '/v2/batch', {
      body: json([
        { destination: `${env.sink.url}/ok`, headers: { 'Upstash-Forward-Big': 'b'.repeat(20_000) } },
        ok,
      ]),
    });
    expect(bigHeaders.status).toBe(400);
    expect(bigHeaders.json.error).toMatch(/batch item 0: .*take \d+ bytes, more than the 16384/);
    // Neither batch published its valid item.
    const logs = await env.stack.api('GET', `/v2/logs?url=${encodeURIComponent(`${env.sink.url}/ok`)}`);
    expect(logs.json.events).toEqual([]);
  });

  it('so does a workflow item (a trigger the workflow service takes) with 200 KB of headers', async () => {
    const runId = `wfr_big-head-${Date.now()}`;
    const trigger = await env.stack.api('POST', '/v2/batch', {
      body: json([
        {
          destination: `${env.sink.url}/wf`,
          headers: {
            'Upstash-Workflow-RunId': runId,
            'Upstash-Workflow-Init': 'true',
            'Upstash-Workflow-Url': `${env.sink.url}/${'w'.repeat(200_000)}`,
          },
          body: '{}',
        },
      ]),
    });
    expect(trigger.status).toBe(400);
    expect(trigger.json.error).toMatch(/batch item 0: .*take 20\d{4} bytes, more than the 16384/);
    expect((await env.stack.api('GET', `/v2/workflows/logs?workflowRunId=${runId}`)).json.runs).toEqual([]);
  });

  it('a URL-group endpoint URL or default header set over the limit is refused', async () => {
    const endpoint = await env.stack.api('POST', '/v2/topics/big-url/endpoints', {
      body: json({ endpoints: [{ url: longUrl() }] }),
    });
    expect(endpoint.status).toBe(400);
    expect(endpoint.json.error).toMatch(/more than the 16384/);
    const created = await env.stack.api('POST', '/v2/topics/big-headers/endpoints', {
      body: json({ endpoints: [{ url: `${env.sink.url}/g` }] }),
    });
    expect(created.status).toBe(200);
    const defaults = await env.stack.api('PATCH', '/v2/topics/big-headers', {
      body: json({ headers: { 'Upstash-Forward-Big': 'b'.repeat(20_000) } }),
    });
    expect(defaults.status).toBe(400);
    expect(defaults.json.error).toMatch(/more than the 16384/);
  });
});

describe('a logs page has a bounded size (item 16)', () => {
  it('ends early with a cursor instead of building one huge response, and the cursor reaches every event', async () => {
    const body = 'z'.repeat(1_000_000);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      // Delayed: each message has exactly one event (CREATED) while the test reads the logs.
      const res = await env.stack.api('POST', `/v2/publish/${env.sink.url}/huge`, {
        headers: { 'Upstash-Delay': '1d' },
        body,
      });
      expect(res.status).toBe(200);
      ids.push(res.json.messageId as string);
    }
    const first = await env.stack.api('GET', '/v2/events?count=1000');
    expect(first.status).toBe(200);
    // 12 events of ~1.3 MB each would be ~16 MB; the page stops near the budget.
    expect(first.text.length).toBeLessThanOrEqual(MAX_PAGE_BYTES + 2_000_000);
    expect(first.json.events.length).toBeGreaterThan(0);
    expect(first.json.events.length).toBeLessThan(12);
    expect(first.json.cursor).toEqual(expect.any(String));

    const seen: string[] = first.json.events.map((e: { messageId: string }) => e.messageId);
    let cursor: string | undefined = first.json.cursor;
    while (cursor) {
      const page = await env.stack.api('GET', `/v2/events?count=1000&cursor=${cursor}`);
      expect(page.text.length).toBeLessThanOrEqual(MAX_PAGE_BYTES + 2_000_000);
      seen.push(...page.json.events.map((e: { messageId: string }) => e.messageId));
      cursor = page.json.cursor;
    }
    const huge = seen.filter((id) => ids.includes(id));
    expect(huge.sort()).toEqual([...ids].sort());
  });
});

describe('a DLQ page has a bounded size (item 16)', () => {
  it('ends early with a cursor, and the cursor reaches every entry', async () => {
    env.behaviour = () => ({ status: 500 });
    const body = 'q'.repeat(1_000_000);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await env.stack.api('POST', `/v2/publish/${env.sink.url}/dlq-huge`, {
        headers: { 'Upstash-Retries': '0' },
        body,
      });
      ids.push(res.json.messageId as string);
    }
    for (const id of ids) await waitForState(env.stack, id, 'FAILED');
    const seen: string[] = [];
    let pages = 0;
    let cursor = '';
    do {
      const page = await env.stack.api('GET', `/v2/dlq?count=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.text.length).toBeLessThanOrEqual(MAX_PAGE_BYTES + 2_000_000);
      seen.push(...page.json.messages.map((m: { messageId: string }) => m.messageId));
      cursor = page.json.cursor ?? '';
      pages++;
    } while (cursor);
    // 5 entries of ~1.3 MB each do not fit one 4 MB page.
    expect(pages).toBeGreaterThan(1);
    expect(seen.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
  });
});

describe('header values that cannot be sent (item 17)', () => {
  it('make a batch a 400 naming the item, whether forwarded or as Content-Type (item 18.12)', async () => {
    for (const [headers, name] of [
      [{ 'Upstash-Forward-X': '\u0100' }, 'Upstash-Forward-X'],
      [{ 'Content-Type': 'text/plain\u0001' }, 'Content-Type'],
    ] as const) {
      const res = await env.stack.api('POST', '/v2/batch', {
        body: json([
          { destination: `${env.sink.url}/v`, body: 'fine' },
          { destination: `${env.sink.url}/v`, headers },
        ]),
      });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(new RegExp(`batch item 1: invalid value for header '${name}'`));
    }
    // Latin-1 is a byte string: it can be sent.
    const latin1 = await env.stack.api('POST', '/v2/batch', {
      body: json([{ destination: `${env.sink.url}/v`, headers: { 'Upstash-Forward-X': 'caf\u00e9' } }]),
    });
    expect(latin1.json[0].messageId).toEqual(expect.any(String));
  });

  it('a header named __proto__ is refused with 400 on every path that forwards headers', async () => {
    const cases: Record<string, string>[] = [
      { 'Upstash-Forward-__proto__': 'x' },
      { 'Upstash-Callback': `${env.sink.url}/cb`, 'Upstash-Callback-Forward-__proto__': 'x' },
      // A computed key: `__proto__: 'x'` in a literal would set the object's prototype, not a header.
      { 'Upstash-Header-Forward': 'true', ['__proto__']: 'x' },
    ];
    for (const headers of cases) {
      // node:http sends an own `__proto__` key as a header; fetch drops it.
      const res = await rawHttp(new URL(env.stack.url).port, `/v2/publish/${env.sink.url}/p`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.stack.token}`, ...headers },
        body: 'x',
      });
      expect(res.status, JSON.stringify(headers)).toBe(400);
      expect(JSON.parse(res.body).error).toMatch(/header name '.*__proto__' cannot be forwarded/);
    }
    const batch = await env.stack.api('POST', '/v2/batch', {
      body: json([{ destination: `${env.sink.url}/p`, headers: { 'Upstash-Forward-__proto__': 'x' } }]),
    });
    // In a batch, as any item's own mistake: that item's answer says so.
    expect(batch.json).toEqual([{ error: "header name '__proto__' cannot be forwarded" }]);
  });

  it('are refused as URL-group default headers', async () => {
    await env.stack.api('POST', '/v2/topics/defaults-check/endpoints', {
      body: json({ endpoints: [{ url: `${env.sink.url}/d` }] }),
    });
    const res = await env.stack.api('PATCH', '/v2/topics/defaults-check', {
      body: json({ headers: { 'Upstash-Forward-X': '\u0100' } }),
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/invalid value for header/);
  });
});

describe('Upstash-Retry-Delay expressions without a usable delay (item 17)', () => {
  it.each(['1/0', '-1', '-5'])('%s is refused on publish, enqueue and batch', async (expression) => {
    const headers = { 'Upstash-Retry-Delay': expression };
    const publish = await env.stack.api('POST', `/v2/publish/${env.sink.url}/r`, { headers, body: 'x' });
    expect(publish.status).toBe(400);
    expect(publish.json.error).toMatch(/invalid Upstash-Retry-Delay .*(negative|infinite)/);
    const enqueue = await env.stack.api('POST', `/v2/enqueue/rq/${env.sink.url}/r`, { headers, body: 'x' });
    expect(enqueue.status).toBe(400);
    const batch = await env.stack.api('POST', '/v2/batch', {
      body: json([{ destination: `${env.sink.url}/r`, headers }]),
    });
    expect(batch.json[0].error).toMatch(/invalid Upstash-Retry-Delay/);
  });
});

describe('URL-group names the service refuses (item 17)', () => {
  it.each(['..', '.', 'bad name', 'a%2Fb'])('%s', async (name) => {
    const res = await rawRequest(
      'POST',
      `/v2/topics/${name.replace(' ', '%20')}/endpoints`,
      json({ endpoints: [{ url: `${env.sink.url}/n` }] }),
    );
    expect(res.status).toBe(400);
    expect((JSON.parse(res.body) as { error: string }).error).toMatch(/invalid URL group name/);
  });

  it('a dotted name with other characters is fine', async () => {
    const res = await rawRequest(
      'POST',
      '/v2/topics/v1.2/endpoints',
      json({ endpoints: [{ url: `${env.sink.url}/n` }] }),
    );
    expect(res.status).toBe(200);
  });
});
