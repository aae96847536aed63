// SEARCH.* in MONITOR: each command shows as the client sent it, named after its caller, and the reads the
// emulation makes to answer it (SCAN, HGETALL, the JSON script and its `lua` lines) do not show at all.
import { Redis } from '@upstash/redis';
import { describe, expect, it } from 'vitest';

import { monitorLinesOf, useTestService } from '../test-support';

const env = useTestService();

const sdk = (token = env.kv.token): Redis => new Redis({ url: env.kv.url, token, enableTelemetry: false });

/** Every MONITOR line (without its timestamp) from `act` until a GET of `end` shows. */
async function linesDuring(end: string, act: () => Promise<unknown>): Promise<string[]> {
  const lines = await monitorLinesOf(env.kv, '', end, async () => {
    await act();
    await sdk().get(end);
  });
  return lines.filter((line) => line.startsWith('[') && !line.includes(`"${end}"`));
}

describe('SEARCH.* in MONITOR', () => {
  it('shows the commands as sent, with their caller, and none of the reads that answer them', async () => {
    const admin = sdk();
    await admin.hset('mon-s:h:1', { name: 'red chair', price: 10 });
    await admin.hset('mon-s:h:2', { name: 'blue chair', price: 20 });
    await admin.json.set('mon-s:j:1', '$', { title: 'dune', year: 1965 });
    const lines = await linesDuring('mon-s:end', async () => {
      await admin.exec([
        'SEARCH.CREATE',
        'mon-hash',
        'ON',
        'HASH',
        'PREFIX',
        '1',
        'mon-s:h:',
        'SCHEMA',
        'name',
        'TEXT',
        'price',
        'F64',
        'FAST',
      ]);
      await admin.exec([
        'SEARCH.CREATE',
        'mon-json',
        'ON',
        'JSON',
        'PREFIX',
        '1',
        'mon-s:j:',
        'SCHEMA',
        'title',
        'TEXT',
      ]);
      expect(await admin.exec(['SEARCH.COUNT', 'mon-hash', '{"name": {"$eq": "chair"}}'])).toBe(2);
      await admin.exec(['SEARCH.QUERY', 'mon-json', '{"title": "dune"}']);
      // The read-only token may query: its line names it.
      await sdk(env.kv.readOnlyToken).exec([
        'SEARCH.QUERY',
        'mon-hash',
        '{"price": {"$gt": 15}}',
        'LIMIT',
        '5',
      ]);
    });
    expect(lines).toEqual([
      '[0 127.0.0.1 default] "SEARCH.CREATE" "mon-hash" "ON" "HASH" "PREFIX" "1" "mon-s:h:" "SCHEMA" "name" "TEXT" "price" "F64" "FAST"',
      '[0 127.0.0.1 default] "SEARCH.CREATE" "mon-json" "ON" "JSON" "PREFIX" "1" "mon-s:j:" "SCHEMA" "title" "TEXT"',
      '[0 127.0.0.1 default] "SEARCH.COUNT" "mon-hash" "{\\"name\\": {\\"$eq\\": \\"chair\\"}}"',
      '[0 127.0.0.1 default] "SEARCH.QUERY" "mon-json" "{\\"title\\": \\"dune\\"}"',
      '[0 127.0.0.1 read-only] "SEARCH.QUERY" "mon-hash" "{\\"price\\": {\\"$gt\\": 15}}" "LIMIT" "5"',
    ]);
  });

  it('keeps showing the other commands of a pipeline around a SEARCH command, in order', async () => {
    const admin = sdk();
    await admin.exec([
      'SEARCH.CREATE',
      'mon-pipe',
      'ON',
      'HASH',
      'PREFIX',
      '1',
      'mon-p:',
      'SCHEMA',
      'n',
      'U64',
      'FAST',
    ]);
    const lines = await linesDuring('mon-p:end', async () => {
      const reply = await env.kv.json('/pipeline', {
        method: 'POST',
        body: JSON.stringify([
          ['HSET', 'mon-p:1', 'n', '7'],
          ['SEARCH.COUNT', 'mon-pipe', '{"n": {"$eq": 7}}'],
          ['GET', 'mon-p:after'],
        ]),
      });
      expect(reply.body).toEqual([{ result: 1 }, { result: 1 }, { result: null }]);
    });
    expect(lines).toEqual([
      '[0 127.0.0.1 default] "HSET" "mon-p:1" "n" "7"',
      '[0 127.0.0.1 default] "SEARCH.COUNT" "mon-pipe" "{\\"n\\": {\\"$eq\\": 7}}"',
      '[0 127.0.0.1 default] "GET" "mon-p:after"',
    ]);
  });
});
