// SEARCH.AGGREGATE through the bridge with @upstash/redis: the filter picks the documents (read from Redis as
// the token), aggregate.ts aggregates them (its own cases are in aggregate.test.ts); bad aggregations and a
// missing index answer as the SDK can read.
import { Redis, s } from '@upstash/redis';
import { beforeAll, describe, expect, it } from 'vitest';

import { commandAs, useTestService } from '../test-support';

const env = useTestService();

const redis = (token = env.kv.token): Redis => new Redis({ url: env.kv.url, token, enableTelemetry: false });
const schema = s.object({ title: s.string(), price: s.number('F64'), tag: s.keyword() });

describe('SEARCH.AGGREGATE', () => {
  beforeAll(async () => {
    await redis().search.createIndex({ name: 'sales', schema, dataType: 'hash', prefix: 'sales:' });
    const rows = [
      { title: 'red shoe', price: 10, tag: 'shoe' },
      { title: 'blue shoe', price: 30, tag: 'shoe' },
      { title: 'red hat', price: 20, tag: 'hat' },
      { title: 'green scarf', price: 5, tag: 'scarf' },
    ];
    for (const [i, row] of rows.entries()) await redis().hset(`sales:${i}`, row);
  });

  const index = (token?: string) => redis(token).search.index({ name: 'sales', schema });

  it('aggregates the documents the filter matched', async () => {
    expect(
      await index().aggregate({
        filter: { title: 'red' },
        aggregations: { price: { $stats: { field: 'price' } } },
      }),
    ).toEqual({ price: { count: 2, min: 10, max: 20, sum: 30, avg: 15 } });
    expect(await index().aggregate({ aggregations: { total: { $sum: { field: 'price' } } } })).toEqual({
      total: { value: 65 },
    });
    // The read-only token may aggregate too.
    expect(
      await index(env.kv.readOnlyToken).aggregate({
        filter: { tag: 'shoe' },
        aggregations: { n: { $count: { field: 'price' } } },
      }),
    ).toEqual({ n: { value: 2 } });
  });

  it('sees a write made earlier in the same pipeline', async () => {
    const res = await env.kv.json('/pipeline', {
      method: 'POST',
      body: JSON.stringify([
        ['HSET', 'sales:9', 'title', 'red scarf', 'price', '100', 'tag', 'scarf'],
        ['SEARCH.AGGREGATE', 'sales', '{"title":"red"}', '{"m":{"$max":{"field":"price"}}}'],
        ['DEL', 'sales:9'],
        ['SEARCH.AGGREGATE', 'sales', '{"title":"red"}', '{"m":{"$max":{"field":"price"}}}'],
      ]),
    });
    expect(res.body).toEqual([
      { result: 3 },
      { result: ['m', ['value', 100]] },
      { result: 1 },
      { result: ['m', ['value', 20]] },
    ]);
  });

  it('answers bad input with an error and a missing index with nil, as the hosted service does', async () => {
    const bad = await commandAs(
      env.kv,
      env.kv.token,
      'SEARCH.AGGREGATE',
      'sales',
      '{}',
      '{"x":{"$nope":{}}}',
    );
    expect(bad.error).toMatch(/^ERR /);
    const badFilter = await commandAs(env.kv, env.kv.token, 'SEARCH.AGGREGATE', 'sales', '{"nope":1}', '{}');
    expect(badFilter.error).toMatch(/^ERR unknown field 'nope' in the filter/);
    expect(
      await commandAs(
        env.kv,
        env.kv.token,
        'SEARCH.AGGREGATE',
        'no-such-index',
        '{}',
        '{"n":{"$count":{"field":"price"}}}',
      ),
    ).toEqual({ result: null });
    // The SDK's aggregate() cannot read nil (it expects the flat list), as against the hosted service.
    await expect(
      redis()
        .search.index({ name: 'no-such-index' })
        .aggregate({ aggregations: { n: { $count: { field: 'price' } } } }),
    ).rejects.toThrow(TypeError);
  });
});
