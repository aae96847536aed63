// The warm-up before the ready line publishes and delivers real messages with the writer in rehearsal, yet
// leaves nothing behind: no row in any table, no message in the engine, and the service works as usual after.
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
  // Every table but the settings is empty, and no rowid sequence moved: the warm-up's writes were rolled back.
  const db = stack.stack.messages.store.db;
  const tables = db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('settings', 'sqlite_sequence')`,
    )
    .pluck()
    .all() as string[];
  expect(tables).toContain('messages');
  for (const table of tables) {
    expect([table, db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get()]).toEqual([table, 0]);
  }
  const sequences = db
    .prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'`)
    .pluck()
    .get();
  if (sequences) expect(db.prepare('SELECT * FROM sqlite_sequence').all()).toEqual([]);
  expect(stack.stack.messages.engine.stats()).toEqual({ pending: 0, inflight: 0, scheduled: 0 });
  expect((await stack.api('GET', '/v2/events')).json.events).toEqual([]);
  expect((await stack.api('GET', '/v2/dlq')).json.messages).toEqual([]);
  expect(stack.stack.messages.store.messages.findPending({})).toEqual([]);
  const published = await stack.api('POST', `/v2/publish/${sink.url}/after-warm-up`, { body: 'hi' });
  expect(published.status).toBe(200);
  expect((await stack.api('GET', '/v2/events')).json.events[0].messageId).toBe(published.json.messageId);
});
