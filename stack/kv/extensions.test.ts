// The hosted service's extensions the bridge emulates over a real redis-server: SCAN … WITHTYPE, COPY of a
// key onto itself and `~` stream trims to about the threshold, in every request form and through @upstash/redis.
import { Redis } from '@upstash/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { exactTrim, scanWithType } from './extensions';
import type { TestService } from './test-support';
import { startTestService, SDK_WIRE_MODES } from './test-support';

let kv: TestService;

beforeAll(async () => {
  kv = await startTestService();
  await kv.admin(['SET', 'wt:str', 'v']);
  await kv.admin(['HSET', 'wt:hash', 'f', '1']);
  await kv.admin(['RPUSH', 'wt:list', 'a']);
  await kv.admin(['SADD', 'wt:set', 'm']);
  await kv.admin(['ZADD', 'wt:zset', '1', 'm']);
  await kv.admin(['XADD', 'wt:stream', '*', 'f', 'v']);
  for (let i = 0; i < 30; i++) await kv.admin(['SET', `wt:many:${i}`, String(i)]);
});

afterAll(async () => {
  await kv?.stop();
});

const body = (command: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(command),
  headers,
});

/** Every SCAN page until the cursor comes back to 0, as [key, type] pairs. */
async function scanAll(extra: string[]): Promise<[string, string][]> {
  const pairs: [string, string][] = [];
  let cursor = '0';
  do {
    const { status, body: reply } = await kv.json('/', body(['SCAN', cursor, ...extra]));
    expect(status).toBe(200);
    const [next, flat] = (reply as { result: [string, string[]] }).result;
    expect(flat.length % 2).toBe(0);
    for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i]!, flat[i + 1]!]);
    cursor = next;
  } while (cursor !== '0');
  return pairs.sort(([a], [b]) => a.localeCompare(b));
}

describe('SCAN … WITHTYPE', () => {
  it('answers keys interleaved with their types', async () => {
    const pairs = await scanAll(['MATCH', 'wt:[a-z]*', 'COUNT', '100', 'WITHTYPE']);
    expect(pairs.filter(([key]) => !key.startsWith('wt:many:'))).toEqual([
      ['wt:hash', 'hash'],
      ['wt:list', 'list'],
      ['wt:set', 'set'],
      ['wt:str', 'string'],
      ['wt:stream', 'stream'],
      ['wt:zset', 'zset'],
    ]);
    expect(pairs.filter(([key]) => key.startsWith('wt:many:'))).toHaveLength(30);
  });

  it('takes the flag in any position and together with a TYPE filter', async () => {
    const pairs = await scanAll(['withtype', 'TYPE', 'HASH', 'MATCH', 'wt:*']);
    expect(pairs).toEqual([['wt:hash', 'hash']]);
    // Without the flag, the reply is Redis's own.
    const plain = await kv.json('/', body(['SCAN', '0', 'MATCH', 'wt:hash', 'COUNT', '1000']));
    expect(plain.body).toEqual({ result: ['0', ['wt:hash']] });
  });

  it('works in the path form, pipelines (in order with other rows) and transactions', async () => {
    const path = await kv.json('/scan/0/match/wt:zset/count/1000/withtype');
    expect(path.body).toEqual({ result: ['0', ['wt:zset', 'zset']] });

    const pipeline = await kv.json(
      '/pipeline',
      body([
        ['SET', 'wt:pipe', 'x'],
        ['SCAN', '0', 'MATCH', 'wt:pipe', 'COUNT', '1000', 'WITHTYPE'],
        ['GET', 'wt:pipe'],
      ]),
    );
    expect(pipeline.body).toEqual([
      { result: 'OK' },
      { result: ['0', ['wt:pipe', 'string']] },
      { result: 'x' },
    ]);

    const multi = await kv.json(
      '/multi-exec',
      body([
        ['DEL', 'wt:pipe'],
        ['SCAN', '0', 'MATCH', 'wt:list', 'COUNT', '1000', 'WITHTYPE'],
      ]),
    );
    expect(multi.body).toEqual([{ result: 1 }, { result: ['0', ['wt:list', 'list']] }]);
  });

  it('base64-encodes keys and types like any nested string, and RESP2 carries the same shape', async () => {
    const b64 = await kv.json(
      '/',
      body(['SCAN', '0', 'MATCH', 'wt:set', 'COUNT', '1000', 'WITHTYPE'], { 'upstash-encoding': 'base64' }),
    );
    const b = (s: string): string => Buffer.from(s).toString('base64');
    expect(b64.body).toEqual({ result: [b('0'), [b('wt:set'), b('set')]] });
    const raw = await kv.call(
      '/',
      body(['SCAN', '0', 'MATCH', 'wt:set', 'COUNT', '1000', 'WITHTYPE'], {
        'upstash-response-format': 'resp2',
      }),
    );
    expect(Buffer.from(await raw.arrayBuffer()).toString('latin1')).toBe(
      '*2\r\n$1\r\n0\r\n*2\r\n$6\r\nwt:set\r\n+set\r\n',
    );
  });

  it('is refused to the read-only token like SCAN itself', async () => {
    const refused = await kv.json(
      '/',
      body(['SCAN', '0', 'WITHTYPE'], { authorization: `Bearer ${kv.readOnlyToken}` }),
    );
    expect(refused.status).toBe(400);
    expect((refused.body as { error: string }).error).toMatch(/^NOPERM .*'scan'/);
  });

  it('leaves option values alone: MATCH withtype is a pattern', () => {
    expect(scanWithType(['SCAN', '0', 'MATCH', 'withtype'], 'scan')).toBeUndefined();
    expect(scanWithType(['SCAN', '0', 'MATCH', 'withtype', 'WITHTYPE'], 'scan')).toEqual({
      send: ['SCAN', '0', 'MATCH', 'withtype'],
      type: undefined,
    });
  });
});

describe('COPY key key', () => {
  it('answers 0 as the hosted service does; a real copy and a DB copy are untouched', async () => {
    expect(await kv.json('/copy/wt:str/wt:str')).toEqual({ status: 200, body: { result: 0 } });
    expect((await kv.json('/', body(['COPY', 'wt:str', 'wt:str', 'REPLACE']))).body).toEqual({ result: 0 });
    expect(
      (
        await kv.json(
          '/pipeline',
          body([
            ['COPY', 'wt:str', 'wt:str'],
            ['GET', 'wt:str'],
          ]),
        )
      ).body,
    ).toEqual([{ result: 0 }, { result: 'v' }]);
    expect((await kv.json('/multi-exec', body([['COPY', 'wt:str', 'wt:str']]))).body).toEqual([
      { result: 0 },
    ]);
    expect((await kv.json('/copy/wt:str/wt:copy')).body).toEqual({ result: 1 });
    expect(await kv.admin(['GET', 'wt:copy'])).toEqual(Buffer.from('v'));
    // A missing source is Redis's own 0; a read-only token gets Redis's own refusal, not a quiet 0.
    expect((await kv.json('/copy/wt:none/wt:none')).body).toEqual({ result: 0 });
    const refused = await kv.json('/copy/wt:str/wt:str', {
      headers: { authorization: `Bearer ${kv.readOnlyToken}` },
    });
    expect(refused.status).toBe(400);
    expect((refused.body as { error: string }).error).toMatch(/^NOPERM/);
  });
});

describe('XTRIM / XADD … ~ (trimmed to the threshold, as the hosted service does)', () => {
  /** A stream of `n` entries, added in one pipelined write. */
  async function stream(key: string, n: number): Promise<void> {
    await kv.admin(['DEL', key]);
    const adds = Array.from({ length: n }, (_, i) => ['XADD', key, '*', 'i', String(i)]);
    expect((await kv.json('/pipeline', body(adds))).status).toBe(200);
  }
  const length = async (key: string) => Number(await kv.admin(['XLEN', key]));

  it('MAXLEN ~ and MINID ~ leave the threshold, in every request form', async () => {
    await stream('wt:trim', 1000);
    // Redis alone trims `~` by whole nodes of 100 entries: it would leave about 100 of these 1,000.
    expect((await kv.json('/', body(['XTRIM', 'wt:trim', 'MAXLEN', '~', '30']))).body).toEqual({
      result: 970,
    });
    expect(await length('wt:trim')).toBe(30);
    expect((await kv.json('/xtrim/wt:trim/MAXLEN/~/20')).body).toEqual({ result: 10 });
    const pipeline = await kv.json(
      '/pipeline',
      body([
        ['XTRIM', 'wt:trim', 'MAXLEN', '~', '15'],
        ['XLEN', 'wt:trim'],
      ]),
    );
    expect(pipeline.body).toEqual([{ result: 5 }, { result: 15 }]);
    const tx = await kv.json(
      '/multi-exec',
      body([
        ['XTRIM', 'wt:trim', 'maxlen', '~', '10'],
        ['XLEN', 'wt:trim'],
      ]),
    );
    expect(tx.body).toEqual([{ result: 5 }, { result: 10 }]);

    await stream('wt:minid', 300);
    const ids = (await kv.admin(['XRANGE', 'wt:minid', '-', '+'])) as [Buffer, unknown][];
    const minid = ids[250]![0].toString();
    expect((await kv.json('/', body(['XTRIM', 'wt:minid', 'MINID', '~', minid]))).body).toEqual({
      result: 250,
    });
    expect(await length('wt:minid')).toBe(50);
  });

  it('XADD … MAXLEN ~ keeps the threshold; a field or value "~" is data; LIMIT goes to Redis as sent', async () => {
    await stream('wt:add', 500);
    const added = await kv.json('/', body(['XADD', 'wt:add', 'MAXLEN', '~', '40', '*', '~', 'MAXLEN']));
    expect(added.status).toBe(200);
    expect(await length('wt:add')).toBe(40);
    const last = (await kv.admin(['XREVRANGE', 'wt:add', '+', '-', 'COUNT', '1'])) as [Buffer, Buffer[]][];
    expect(last[0]![1].map(String)).toEqual(['~', 'MAXLEN']);
    // With LIMIT Redis's node-wise trimming stands (LIMIT is refused with `=`): nothing of a partial node goes.
    await stream('wt:limit', 1000);
    expect(
      (await kv.json('/', body(['XTRIM', 'wt:limit', 'MAXLEN', '~', '30', 'LIMIT', '1000']))).status,
    ).toBe(200);
    expect(await length('wt:limit')).toBeGreaterThan(30);
  });

  it('reads only the options before the id', () => {
    expect(exactTrim(['XTRIM', 'k', 'MAXLEN', '~', '5'], 'xtrim')).toEqual([
      'XTRIM',
      'k',
      'MAXLEN',
      '=',
      '5',
    ]);
    expect(exactTrim(['XTRIM', 'k', 'MAXLEN', '=', '5'], 'xtrim')).toBeUndefined();
    expect(exactTrim(['XTRIM', 'k', 'MAXLEN', '5'], 'xtrim')).toBeUndefined();
    expect(exactTrim(['XTRIM', 'k', 'MINID', '~', '5', 'LIMIT', '10'], 'xtrim')).toBeUndefined();
    expect(exactTrim(['XADD', 'k', 'NOMKSTREAM', 'MINID', '~', '9-0', '*', 'f', 'v'], 'xadd')).toEqual([
      'XADD',
      'k',
      'NOMKSTREAM',
      'MINID',
      '=',
      '9-0',
      '*',
      'f',
      'v',
    ]);
    expect(exactTrim(['XADD', 'k', '*', 'MAXLEN', '~'], 'xadd')).toBeUndefined();
    expect(exactTrim(['XADD', 'k', '*', 'LIMIT', '~'], 'xadd')).toBeUndefined();
    expect(exactTrim(['GET', 'k'], 'get')).toBeUndefined();
  });
});

describe('through @upstash/redis', () => {
  const modes = SDK_WIRE_MODES;

  it.each(modes)('scan withType, copy onto itself and a ~ trim (%s)', async (_mode, options) => {
    const redis = new Redis({ url: kv.url, token: kv.token, enableTelemetry: false, ...options });
    const seen: { key: string; type: string }[] = [];
    let cursor: string | number = 0;
    do {
      const [next, keys]: [string | number, { key: string; type: string }[]] = await redis.scan(cursor, {
        match: 'wt:s*',
        count: 1000,
        withType: true,
      });
      seen.push(...keys);
      cursor = next;
    } while (String(cursor) !== '0');
    expect(seen.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'wt:set', type: 'set' },
      { key: 'wt:str', type: 'string' },
      { key: 'wt:stream', type: 'stream' },
    ]);
    expect(await redis.copy('wt:str', 'wt:str')).toBe('NOT_COPIED');
    expect(await redis.copy('wt:str', `wt-sdkcopy:${_mode}`)).toBe('COPIED');
    // The SDK suite's own case: 1,000 entries trimmed `~` to 30 leave 29–31 on the hosted service.
    const key = `wt-sdktrim:${_mode}`;
    const p = redis.pipeline();
    for (let i = 0; i < 1000; i++) p.xadd(key, '*', { i });
    await p.exec();
    await redis.xtrim(key, { strategy: 'MAXLEN', threshold: 30, exactness: '~' });
    expect(await redis.xlen(key)).toBe(30);
  });
});
