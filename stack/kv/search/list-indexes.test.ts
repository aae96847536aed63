// SEARCH.LISTINDEXES through the bridge: every index as {name, type} (an array of alternating keys and values
// over REST), sorted by name, filtered by a Redis glob, paged by LIMIT/OFFSET (LIMIT 0 = all), open to the
// read-only token, and bad options refused with an error. A service of its own: the list is every index.
import { Redis } from '@upstash/redis';
import { describe, expect, it } from 'vitest';

import type { CommandReply } from '../test-support';
import { commandAs, useTestService } from '../test-support';

const env = useTestService();

const run = (...args: (string | number)[]): Promise<CommandReply> => commandAs(env.kv, env.kv.token, ...args);

const entry = (name: string, type: string): string[] => ['name', name, 'type', type];

async function create(name: string, on: 'HASH' | 'JSON' | 'STRING'): Promise<void> {
  const reply = await run('SEARCH.CREATE', name, 'ON', on, 'PREFIX', '1', `${name}:`, 'SCHEMA', 'a', 'TEXT');
  expect(reply.error).toBeUndefined();
}

describe('SEARCH.LISTINDEXES', () => {
  it('answers an empty list before any index exists', async () => {
    expect(await run('SEARCH.LISTINDEXES')).toEqual({ result: [] });
  });

  it('lists every index sorted by name, with its type, whatever the order they were created in', async () => {
    await create('products', 'JSON');
    await create('Zebra', 'STRING');
    await create('orders', 'HASH');
    await create('products-v2', 'HASH');
    await create('product?', 'STRING');
    // An alias is not an index: it is not listed.
    await run('SEARCH.ALIASADD', 'shop', 'products');
    expect(await run('SEARCH.LISTINDEXES')).toEqual({
      result: [
        entry('Zebra', 'STRING'),
        entry('orders', 'HASH'),
        entry('product?', 'STRING'),
        entry('products', 'JSON'),
        entry('products-v2', 'HASH'),
      ],
    });
  });

  it('filters names with a Redis glob: *, ?, [set], [^set], ranges, escapes; case matters', async () => {
    const names = async (...options: string[]): Promise<string[]> => {
      const reply = await run('SEARCH.LISTINDEXES', ...options);
      expect(reply.error).toBeUndefined();
      return (reply.result as string[][]).map((e) => e[1]!);
    };
    expect(await names('MATCH', 'product*')).toEqual(['product?', 'products', 'products-v2']);
    expect(await names('MATCH', 'product?')).toEqual(['product?', 'products']);
    expect(await names('MATCH', 'product\\?')).toEqual(['product?']);
    expect(await names('MATCH', '[oZ]*')).toEqual(['Zebra', 'orders']);
    expect(await names('MATCH', '[^oZ]*')).toEqual(['product?', 'products', 'products-v2']);
    expect(await names('MATCH', '[a-p]r*')).toEqual(['orders', 'product?', 'products', 'products-v2']);
    expect(await names('MATCH', 'zebra')).toEqual([]);
    expect(await names('match', 'Zebra')).toEqual(['Zebra']);
    expect(await names('MATCH', '')).toEqual([]);
  });

  it('pages with LIMIT and OFFSET after filtering; LIMIT 0 answers all', async () => {
    const names = async (...options: (string | number)[]): Promise<string[]> =>
      ((await run('SEARCH.LISTINDEXES', ...options)).result as string[][]).map((e) => e[1]!);
    expect(await names('LIMIT', 2)).toEqual(['Zebra', 'orders']);
    expect(await names('LIMIT', 2, 'OFFSET', 2)).toEqual(['product?', 'products']);
    expect(await names('OFFSET', 4)).toEqual(['products-v2']);
    expect(await names('OFFSET', 5)).toEqual([]);
    expect(await names('LIMIT', 0)).toHaveLength(5);
    expect(await names('LIMIT', 0, 'OFFSET', 3)).toEqual(['products', 'products-v2']);
    expect(await names('MATCH', 'product*', 'LIMIT', 1, 'OFFSET', 1)).toEqual(['products']);
    expect(await names('offset', 1, 'limit', 1, 'match', 'product*')).toEqual(['products']);
  });

  it('forgets a dropped index', async () => {
    await create('dropme', 'HASH');
    expect(
      ((await run('SEARCH.LISTINDEXES', 'MATCH', 'drop*')).result as string[][]).map((e) => e[1]),
    ).toEqual(['dropme']);
    expect(await run('SEARCH.DROP', 'dropme')).toEqual({ result: 1 });
    expect(await run('SEARCH.LISTINDEXES', 'MATCH', 'drop*')).toEqual({ result: [] });
  });

  it('is open to the read-only token, and through the SDK as a plain command', async () => {
    expect(await commandAs(env.kv, env.kv.readOnlyToken, 'SEARCH.LISTINDEXES', 'MATCH', 'orders')).toEqual({
      result: [entry('orders', 'HASH')],
    });
    const redis = new Redis({ url: env.kv.url, token: env.kv.readOnlyToken, enableTelemetry: false });
    const listed = await redis.exec<string[][]>(['SEARCH.LISTINDEXES', 'MATCH', 'Z*']);
    expect(listed).toEqual([entry('Zebra', 'STRING')]);
  });

  it('answers RESP2 bytes when asked: each map an array of four bulk strings', async () => {
    const res = await env.kv.call('/', {
      method: 'POST',
      body: JSON.stringify(['SEARCH.LISTINDEXES', 'MATCH', 'orders']),
      headers: { 'upstash-response-format': 'resp2' },
    });
    expect(await res.text()).toBe('*1\r\n*4\r\n$4\r\nname\r\n$6\r\norders\r\n$4\r\ntype\r\n$4\r\nHASH\r\n');
  });

  it('refuses bad options with an error and lists nothing', async () => {
    const refused = async (...options: (string | number)[]): Promise<string | undefined> =>
      (await run('SEARCH.LISTINDEXES', ...options)).error;
    expect(await refused('LIMIT', -1)).toBe(
      "ERR SEARCH.LISTINDEXES: LIMIT must be a whole number of at least 0, got '-1'",
    );
    expect(await refused('OFFSET', 'x')).toBe(
      "ERR SEARCH.LISTINDEXES: OFFSET must be a whole number of at least 0, got 'x'",
    );
    expect(await refused('LIMIT', '1.5')).toMatch(/LIMIT must be a whole number/);
    expect(await refused('MATCH')).toBe('ERR SEARCH.LISTINDEXES: MATCH needs a value');
    expect(await refused('SORTBY', 'name')).toBe(
      "ERR SEARCH.LISTINDEXES: unknown option 'SORTBY' (MATCH, LIMIT or OFFSET)",
    );
    expect(await refused('MATCH', '*', 'LIMIT', 1, 'OFFSET', 0, 'LIMIT')).toBe(
      "ERR wrong number of arguments for 'search.listindexes' command",
    );
    expect((await run('SEARCH.LISTINDEXES', 'LIMIT', 1)).result).toEqual([entry('Zebra', 'STRING')]);
  });
});
