// The message service's bulk endpoints as the real service answers them (issue 18 items 8–10), driven by the
// vendor's own client: "all" means all (cancel({all: true}), deleteAll(), the DLQ's {all: true}) a `count` at a
// time; `count` caps a filtered cancel; and a parameter an endpoint does not know is refused, naming it,
// instead of being ignored — ignored, `labeel=x` turned "delete what is labelled x" into "delete everything".
// A stack of its own: cancelling everything would reach the other files' messages.
import { Client, QstashError } from '@upstash/qstash';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSink, startTestStack, waitForState, type Sink, type TestStack } from './test-support';

let stack: TestStack;
let sink: Sink;
let client: Client;
let release: () => void = () => undefined;

beforeAll(async () => {
  stack = await startTestStack();
  const held = new Promise<void>((resolve) => (release = resolve));
  sink = await startSink((request) =>
    request.url.startsWith('/hold') ? { wait: held } : request.url.startsWith('/fail') ? { status: 500 } : {},
  );
  client = new Client({ baseUrl: stack.url, token: stack.token });
});

afterAll(async () => {
  release();
  await stack?.close();
  await sink?.close();
});

const later = (path: string, label?: string) =>
  client.publish({ url: `${sink.url}${path}`, body: path, delay: 3600, ...(label ? { label } : {}) });

async function pendingCount(): Promise<number> {
  return stack.stack.messages.engine.stats().pending;
}

it('cancel({all: true}) cancels `count` messages per call, the SDK loop ends, and deleteAll() cancels the rest', async () => {
  for (let i = 0; i < 5; i++) await later(`/all-${i}`);
  let total = 0;
  let calls = 0;
  for (let cancelled = -1; cancelled !== 0; calls++) {
    ({ cancelled } = await client.messages.cancel({ all: true, count: 2 }));
    expect(cancelled).toBeLessThanOrEqual(2);
    total += cancelled;
  }
  expect(total).toBe(5);
  expect(calls).toBe(4); // 2 + 2 + 1, then 0
  for (let i = 0; i < 3; i++) await later(`/rest-${i}`);
  expect(await client.messages.deleteAll()).toBe(3);
  expect(await pendingCount()).toBe(0);
});

it('a message whose attempt is in flight is counted once, so "cancel all until 0" comes to an end', async () => {
  await client.publish({ url: `${sink.url}/hold`, body: 'held' });
  await sink.waitFor(1, { match: (request) => request.url === '/hold' });
  expect(await client.messages.cancel({ all: true })).toEqual({ cancelled: 1 });
  expect(await client.messages.cancel({ all: true })).toEqual({ cancelled: 0 });
  release();
});

it('count caps a filtered cancel (oldest first)', async () => {
  const first = await later('/red-1', 'red');
  await later('/red-2', 'red');
  expect(await client.messages.cancel({ filter: { label: 'red' }, count: 1 })).toEqual({ cancelled: 1 });
  await expect(client.messages.get(first.messageId)).rejects.toMatchObject({ status: 404 });
  expect(await client.messages.cancel({ filter: { label: 'red' }, count: 1 })).toEqual({ cancelled: 1 });
  expect(await client.messages.cancel({ filter: { label: 'red' }, count: 1 })).toEqual({ cancelled: 0 });
});

it('an unknown parameter of a bulk endpoint is refused by name, and nothing is touched', async () => {
  const kept = await later('/kept', 'kept');
  const failed = await client.publish({ url: `${sink.url}/fail`, body: 'dead', retries: 0, label: 'dead' });
  await waitForState(stack, failed.messageId, 'FAILED');
  const requests: [string, string, string?][] = [
    ['DELETE', '/v2/messages?labeel=kept&count=100'],
    ['DELETE', '/v2/dlq?labeel=dead&count=100'],
    ['POST', '/v2/dlq/retry?labeel=dead'],
    ['DELETE', '/v2/dlq', '{"dlqIdz": ["x"]}'],
    ['DELETE', '/v2/messages', '{"messageId": "x", "everything": true}'],
  ];
  for (const [method, path, body] of requests) {
    const response = await stack.api(method, path, body ? { body } : {});
    expect(response.status, `${method} ${path}`).toBe(400);
    expect(response.json.error, `${method} ${path}`).toMatch(
      /unknown parameter '(labeel|dlqIdz|everything)'/,
    );
  }
  // The vendor's own test: a typo in a DLQ filter is a server error, not "delete all".
  await expect(client.dlq.delete({ filter: { labeel: 'dead' } } as never)).rejects.toBeInstanceOf(
    QstashError,
  );
  expect((await client.messages.get(kept.messageId)).body).toBe('/kept');
  expect((await client.dlq.listMessages({ filter: { label: 'dead' } })).messages).toHaveLength(1);
  // The API description's `api` filter is a known one (the SDK itself leaves it out of the query).
  const byApi = await stack.api('DELETE', '/v2/dlq?api=llm&label=dead&count=100');
  expect(byApi.json).toEqual({ deleted: 0 });
});

it('a filter given with no value is refused, naming it, and nothing is touched', async () => {
  const kept = await later('/kept-empty', 'kept-empty');
  const failed = await client.publish({ url: `${sink.url}/fail`, body: 'dead', retries: 0, label: 'dead2' });
  await waitForState(stack, failed.messageId, 'FAILED');
  const pending = await pendingCount();
  const dead = (await client.dlq.listMessages()).messages.length;
  // Each of these was taken as "no filter", which acts on every message or every DLQ entry.
  const requests: [string, string, string, string?][] = [
    ['DELETE', '/v2/dlq?dlqIds=', 'dlqIds'],
    ['DELETE', '/v2/dlq?label=dead2&dlqIds=,', 'dlqIds'],
    ['POST', '/v2/dlq/retry?label=', 'label'],
    ['DELETE', '/v2/messages?label=%20', 'label'],
    ['DELETE', '/v2/messages?messageIds=%2C', 'messageIds'],
    ['DELETE', '/v2/messages?fromDate=', 'fromDate'],
    ['DELETE', '/v2/messages', 'messageIds', '{"messageIds": []}'],
    ['DELETE', '/v2/dlq', 'dlqIds', '{"dlqIds": [], "count": 10}'],
  ];
  for (const [method, path, name, body] of requests) {
    const response = await stack.api(method, path, body ? { body } : {});
    expect(response.status, `${method} ${path} ${body ?? ''}`).toBe(400);
    expect(response.json.error, `${method} ${path}`).toMatch(new RegExp(`^empty filter '${name}' for `));
  }
  expect(await pendingCount()).toBe(pending);
  expect((await client.dlq.listMessages()).messages).toHaveLength(dead);
  expect((await client.messages.get(kept.messageId)).body).toBe('/kept-empty');
});

it("the DLQ's {all: true}: retry and delete act on every entry, a page at a time", async () => {
  for (let i = 0; i < 3; i++) {
    const failed = await client.publish({ url: `${sink.url}/fail-${i}`, body: 'x', retries: 0 });
    await waitForState(stack, failed.messageId, 'FAILED');
  }
  const before = (await client.dlq.listMessages()).messages.length;
  expect(before).toBeGreaterThanOrEqual(3);
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await client.dlq.delete({ all: true, count: 2, cursor });
    deleted += page.deleted;
    cursor = page.cursor;
  } while (cursor);
  expect(deleted).toBe(before);
  expect((await client.dlq.listMessages()).messages).toEqual([]);
});
