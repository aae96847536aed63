// Concurrent actions on the message DLQ act on each entry once (issue 18 item 2): two retries (by filter, by
// dlqIds, or /retry/{dlqId}) sent at the same time publish each failed message once, and two deletes delete
// each entry once. Requests go out truly at once (Promise.all over real HTTP); the stack claims every entry
// inside the transaction that acts on it.
/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read as loose JSON */
import { expect, it } from 'vitest';
import { DLQ_RACE, eventually, useStackAndSink } from './test-support';

const env = useStackAndSink(DLQ_RACE);

/** Retried messages wait an hour (the manual clock never gets there): they do not fail again. */
const DEFER = { 'upstash-delay': '1h' };

/** Publishes `count` messages labelled `label` that fail at once; resolves with their DLQ ids. */
async function failed(label: string, count: number): Promise<string[]> {
  const items = Array.from({ length: count }, () => ({
    destination: `${env.sink.url}/${label}`,
    headers: { 'upstash-retries': '0', 'upstash-label': label },
    body: label,
  }));
  expect((await env.stack.api('POST', '/v2/batch', { body: JSON.stringify(items) })).status).toBe(200);
  return eventually(
    async () => {
      const page = await env.stack.api('GET', `/v2/dlq?label=${label}&count=100`);
      const ids = page.json.messages.map((entry: any) => entry.dlqId as string);
      return ids.length === count ? ids : undefined;
    },
    `${count} messages of ${label} in the DLQ`,
    30_000,
  );
}

async function pending(label: string): Promise<number> {
  const page = await env.stack.api('GET', `/v2/logs?label=${label}&state=CREATED&count=1000`);
  return page.json.events.length;
}

it('four retries by filter at once publish each failed message once', async () => {
  await failed('twice', 80);
  const answers = await Promise.all(
    Array.from({ length: 4 }, () =>
      env.stack.api('POST', '/v2/dlq/retry?label=twice&count=100', { headers: DEFER }),
    ),
  );
  expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
  const retried = answers.flatMap((answer) => answer.json.responses.map((r: any) => r.messageId));
  expect(retried).toHaveLength(80);
  expect(new Set(retried).size).toBe(80);
  // 80 first publishes and 80 retries: 160 messages created, not 240 or more.
  expect(await pending('twice')).toBe(160);
  expect((await env.stack.api('GET', '/v2/dlq?label=twice')).json.messages).toEqual([]);
});

it('two retries of the same dlqIds, and of one /retry/{dlqId}, at once: one acts, the other gets 404', async () => {
  const ids = await failed('byids', 10);
  const query = ids.map((id) => `dlqIds=${id}`).join('&');
  const bulk = await Promise.all([
    env.stack.api('POST', `/v2/dlq/retry?${query}`, { headers: DEFER }),
    env.stack.api('POST', `/v2/dlq/retry?${query}`, { headers: DEFER }),
  ]);
  expect(bulk.map((answer) => answer.status).sort()).toEqual([201, 404]);
  expect(bulk.find((answer) => answer.status === 201)!.json.responses).toHaveLength(10);

  const [one] = await failed('single', 1);
  const single = await Promise.all([
    env.stack.api('POST', `/v2/dlq/retry/${one}`, { headers: DEFER }),
    env.stack.api('POST', `/v2/dlq/retry/${one}`, { headers: DEFER }),
  ]);
  expect(single.map((answer) => answer.status).sort()).toEqual([201, 404]);
  expect(await pending('byids')).toBe(20);
  expect(await pending('single')).toBe(2);
});

it('retry racing delete, and two deletes, act on each entry once', async () => {
  await failed('race', 60);
  const [retried, deleted] = await Promise.all([
    env.stack.api('POST', '/v2/dlq/retry?label=race&count=100', { headers: DEFER }),
    env.stack.api('DELETE', '/v2/dlq?label=race&count=100'),
  ]);
  expect(retried.json.responses.length + deleted.json.deleted).toBe(60);
  expect(await pending('race')).toBe(60 + retried.json.responses.length);

  await failed('delete', 40);
  const answers = await Promise.all([
    env.stack.api('DELETE', '/v2/dlq?label=delete&count=100'),
    env.stack.api('DELETE', '/v2/dlq?label=delete&count=100'),
  ]);
  expect(answers[0].json.deleted + answers[1].json.deleted).toBe(40);
});
