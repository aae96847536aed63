// `/pipeline` and single commands (`POST /`, the path form) with plain JSON output are written straight from
// Redis's reply bytes (resp-json.ts). Against a real redis-server: every kind of reply gives the body the
// decoding path gives (the RESP2 form of the same request, decoded and encoded with entriesJson/entryJson),
// and the edge cases a client sees are pinned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { entriesJson, entryJson } from './encode';
import type { RespValue } from './resp';
import { RespParser } from './resp';
import type { TestService } from './test-support';
import { startTestService } from './test-support';

let kv: TestService;

const invalidUtf8 = Buffer.from([0x61, 0xff, 0x62, 0xc3]);
/** Over the 1 MiB at which replies are streamed (reply-stream.ts). */
const BIG = 2 * 1024 * 1024;

beforeAll(async () => {
  kv = await startTestService();
  await kv.admin(['FLUSHALL']);
  await kv.admin(['SET', 'p:s', 'xyz']);
  await kv.admin(['SET', 'p:bin', invalidUtf8]);
  await kv.admin(['SET', 'p:text', 'quote " backslash \\ tab \t é ✓ 😀']);
  await kv.admin(['SET', 'p:long', 'x'.repeat(100_000)]);
  await kv.admin(['SETRANGE', 'p:big', String(BIG - 1), 'z']);
  await kv.admin(['RPUSH', 'p:list', 'a', invalidUtf8, '']);
  await kv.admin(['HSET', 'p:hash', 'f', 'v']);
  await kv.admin(['ZADD', 'p:z', '1.5', 'm']);
  await kv.admin(['XADD', 'p:stream', '1-1', 'field', 'value']);
});

afterAll(async () => {
  await kv?.stop();
});

async function pipeline(
  commands: (string | number)[][],
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Buffer; type: string | null }> {
  const res = await kv.call('/pipeline', { method: 'POST', body: JSON.stringify(commands), headers });
  return {
    status: res.status,
    body: Buffer.from(await res.arrayBuffer()),
    type: res.headers.get('content-type'),
  };
}

/** The body the decoding path gives: the same pipeline as RESP2, decoded, as entriesJson writes it. */
async function decodedBody(commands: (string | number)[][], token?: string): Promise<Buffer> {
  const headers: Record<string, string> = { 'upstash-response-format': 'resp2' };
  if (token) headers.authorization = `Bearer ${token}`;
  const { status, body } = await pipeline(commands, headers);
  expect(status).toBe(200);
  const values: RespValue[] = [];
  new RespParser((v) => values.push(v)).feed(body);
  expect(values).toHaveLength(commands.length);
  return entriesJson(values, false);
}

const EVERY_KIND: (string | number)[][] = [
  ['GET', 'p:s'],
  ['GET', 'p:missing'],
  ['GET', 'p:bin'],
  ['GET', 'p:text'],
  ['GET', 'p:long'],
  ['SET', 'p:new', 'v'],
  ['PING'],
  ['ECHO', ''],
  ['SET', 'p:counter', '0'],
  ['INCR', 'p:counter'],
  ['INCRBY', 'p:counter', '12345678901234567'],
  ['LRANGE', 'p:list', 0, -1],
  ['HGETALL', 'p:hash'],
  ['ZRANGE', 'p:z', 0, -1, 'WITHSCORES'],
  ['XRANGE', 'p:stream', '-', '+'],
  ['EVAL', 'return {1, {"x", false, redis.error_reply("ERR nested")}, redis.status_reply("OK")}', 0],
  ['GET', 'p:list'],
  ['NOSUCHCOMMAND'],
  ['VCARD', 'p:vectors'],
  ['GETRANGE', 'p:bin', 1, 1],
];

describe('/pipeline JSON from reply bytes', () => {
  it('gives the body of the decoding path for every kind of reply', async () => {
    const { status, body, type } = await pipeline(EVERY_KIND);
    expect(status).toBe(200);
    expect(type).toBe('application/json');
    expect(firstDifference(body, await decodedBody(EVERY_KIND))).toBe(-1);
  });

  it('answers the edge cases with these exact bytes', async () => {
    const { body } = await pipeline([
      ['GET', 'p:s'],
      ['GET', 'p:missing'],
      ['GET', 'p:bin'],
      ['LRANGE', 'p:list', 0, -1],
      ['EVAL', 'return {1, {"x", false, redis.error_reply("ERR nested")}, redis.status_reply("OK")}', 0],
      ['GET', 'p:list'],
      ['VCARD', 'p:vectors'],
      ['SET', 'p:big-number', '1'],
      ['INCRBY', 'p:big-number', '12345678901234567'],
    ]);
    expect(body.toString('utf8')).toBe(
      '[{"result":"xyz"},{"result":null},{"result":"a\ufffdb\ufffd"},{"result":["a","a\ufffdb\ufffd",""]},' +
        '{"result":[1,["x",null,{"error":"ERR nested"}],"OK"]},' +
        '{"error":"WRONGTYPE Operation against a key holding the wrong kind of value"},' +
        `{"error":"ERR 'VCARD' needs Redis 8.0; this server is ${await redisVersion()}"},` +
        '{"result":"OK"},{"result":12345678901234568}]',
    );
  });

  it('streams a reply over 1 MiB among small ones, with the same bytes as the decoding path', async () => {
    const commands = [
      ['GET', 'p:s'],
      ['GET', 'p:big'],
      ['STRLEN', 'p:big'],
    ];
    const { status, body } = await pipeline(commands);
    expect(status).toBe(200);
    // 2 MiB of NUL bytes, each written as \u0000, and a "z".
    expect(body.length).toBe(29 + (BIG - 1) * 6 + 23);
    expect(firstDifference(body, await decodedBody(commands))).toBe(-1);
    expect(body.subarray(-35).toString()).toBe(`\\u0000\\u0000z"},{"result":${BIG}}]`);
  });

  it('keeps the read-only token refusals in place', async () => {
    const commands = [['GET', 'p:s'], ['SET', 'p:s', 'changed'], ['FLUSHALL']];
    const res = await kv.call('/pipeline', {
      method: 'POST',
      body: JSON.stringify(commands),
      headers: { authorization: `Bearer ${kv.readOnlyToken}` },
    });
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.toString()).toBe(
      '[{"result":"xyz"},' +
        `{"error":"NOPERM this user has no permissions to run the 'set' command"},` +
        `{"error":"NOPERM this user has no permissions to run the 'flushall' command"}]`,
    );
    expect(firstDifference(body, await decodedBody(commands, kv.readOnlyToken))).toBe(-1);
    expect(await kv.admin(['GET', 'p:s'])).toEqual(Buffer.from('xyz'));
  });

  it('leaves base64 and pipelines with commands the bridge looks into to the decoding path', async () => {
    const b64 = await pipeline(
      [
        ['GET', 'p:bin'],
        ['GET', 'p:missing'],
        ['SET', 'p:x', 'y'],
        ['LRANGE', 'p:list', 0, -1],
      ],
      { 'upstash-encoding': 'base64' },
    );
    expect(b64.body.toString()).toBe(
      `[{"result":"${invalidUtf8.toString('base64')}"},{"result":null},{"result":"OK"},` +
        `{"result":["YQ==","${invalidUtf8.toString('base64')}",""]}]`,
    );
    // TYPE goes through the JSON script, SUBSCRIBE is refused: the rest of the pipeline is answered as usual.
    const mixed = await pipeline([
      ['GET', 'p:s'],
      ['TYPE', 'p:hash'],
      ['SUBSCRIBE', 'c'],
      ['GET', 'p:missing'],
    ]);
    expect(JSON.parse(mixed.body.toString())).toEqual([
      { result: 'xyz' },
      { result: 'hash' },
      { error: expect.stringMatching(/^ERR 'subscribe' is not supported/) as unknown },
      { result: null },
    ]);
  });
});

describe('single commands as JSON from reply bytes', () => {
  /** The status and body the decoding path gives: the command as RESP2, decoded, as entryJson writes it. */
  async function decodedEntry(command: (string | number)[]): Promise<{ status: number; body: Buffer }> {
    const res = await kv.call('/', {
      method: 'POST',
      body: JSON.stringify(command),
      headers: { 'upstash-response-format': 'resp2' },
    });
    const values: RespValue[] = [];
    new RespParser((v) => values.push(v)).feed(Buffer.from(await res.arrayBuffer()));
    expect(values).toHaveLength(1);
    return { status: res.status, body: Buffer.from(entryJson(values[0]!, false)) };
  }

  // Each is sent twice (as JSON, then as RESP2), so the counters, which change each time, are left out.
  const REPEATABLE = EVERY_KIND.filter((command) => !String(command[0]).startsWith('INCR'));

  it.each(REPEATABLE.map((command) => [command.join(' ').slice(0, 50), command]))(
    'answers POST / %s with the status and body of the decoding path',
    async (_, command) => {
      const res = await kv.call('/', { method: 'POST', body: JSON.stringify(command) });
      const body = Buffer.from(await res.arrayBuffer());
      const expected = await decodedEntry(command as (string | number)[]);
      expect(res.status).toBe(expected.status);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(firstDifference(body, expected.body)).toBe(-1);
    },
  );

  it('answers the edge cases with these exact bytes, in both forms', async () => {
    const text = async (path: string, command?: (string | number)[]): Promise<string> => {
      const res = await kv.call(path, command ? { method: 'POST', body: JSON.stringify(command) } : {});
      return `${res.status} ${await res.text()}`;
    };
    expect(await text('/', ['GET', 'p:s'])).toBe('200 {"result":"xyz"}');
    expect(await text('/get/p:s')).toBe('200 {"result":"xyz"}');
    expect(await text('/', ['GET', 'p:missing'])).toBe('200 {"result":null}');
    expect(await text('/get/p:bin')).toBe('200 {"result":"a\ufffdb\ufffd"}');
    expect(await text('/', ['GET', 'p:list'])).toBe(
      '400 {"error":"WRONGTYPE Operation against a key holding the wrong kind of value"}',
    );
    expect(await text('/', ['VCARD', 'p:vectors'])).toBe(
      `400 {"error":"ERR 'VCARD' needs Redis 8.0; this server is ${await redisVersion()}"}`,
    );
    expect(await text('/', ['LRANGE', 'p:list', 0, -1])).toBe('200 {"result":["a","a\ufffdb\ufffd",""]}');
    await text('/', ['SET', 'p:n', '1']);
    expect(await text('/', ['INCRBY', 'p:n', '12345678901234567'])).toBe('200 {"result":12345678901234568}');
  });

  it('streams a reply over 1 MiB with the bytes of the decoding path', async () => {
    const res = await kv.call('/', { method: 'POST', body: JSON.stringify(['GET', 'p:big']) });
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(body.length).toBe(11 + (BIG - 1) * 6 + 3);
    expect(firstDifference(body, (await decodedEntry(['GET', 'p:big'])).body)).toBe(-1);
  });
});

/** Where two bodies first differ (-1: identical), so a failure names the spot instead of printing megabytes. */
function firstDifference(a: Buffer, b: Buffer): number {
  if (a.equals(b)) return -1;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

async function redisVersion(): Promise<string> {
  const info = (await kv.admin(['INFO', 'server'])) as Buffer;
  return /redis_version:(\S+)/.exec(info.toString())![1]!;
}
