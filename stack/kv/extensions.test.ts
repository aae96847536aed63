// The hosted service's extensions the bridge emulates over a real redis-server: SCAN … WITHTYPE and
// COPY of a key onto itself, in every request form and through @upstash/redis.
import { Redis } from '@upstash/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { scanWithType } from './extensions';
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

describe('through @upstash/redis', () => {
  const modes = SDK_WIRE_MODES;

  it.each(modes)('scan withType and copy onto itself (%s)', async (_mode, options) => {
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
  });
});
