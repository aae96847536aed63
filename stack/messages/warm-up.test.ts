// The warm-up before the ready line runs the publish and delivery paths for real, yet leaves nothing behind:
// no message, no log event, no DLQ entry, and the service works as usual afterwards.
import { afterAll, beforeAll, expect, it } from 'vitest';

import { startSink, startTestStack, type Sink, type TestStack } from './test-support';

let stack: TestStack;
let sink: Sink;

beforeAll(async () => {
  sink = await startSink();
  stack = await startTestStack({ warmUp: true });
});

afterAll(async () => {
  await stack?.close();
  await sink?.close();
});

it('stores nothing and leaves the service ready', async () => {
  expect((await stack.api('GET', '/v2/events')).json.events).toEqual([]);
  expect((await stack.api('GET', '/v2/dlq')).json.messages).toEqual([]);
  expect(stack.stack.messages.store.messages.findPending({})).toEqual([]);
  const published = await stack.api('POST', `/v2/publish/${sink.url}/after-warm-up`, { body: 'hi' });
  expect(published.status).toBe(200);
  expect((await stack.api('GET', '/v2/events')).json.events[0].messageId).toBe(published.json.messageId);
});
