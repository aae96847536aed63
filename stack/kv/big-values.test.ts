// Issue 18 item 5: a 100 MB value is streamed (never a 500, never a stall of the event loop the stack's
// other ports share), and a reply over the limit is refused with a 400 naming it, memory bounded.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { entriesJson, entryJson } from './encode';
import { entriesPieces, entryPieces } from './reply-stream';
import type { RespValue } from './resp';
import { RespError } from './resp';
import type { TestService } from './test-support';
import { startTestService } from './test-support';

const joined = (pieces: Iterable<string | Buffer>): string =>
  Buffer.concat([...pieces].map((p) => (typeof p === 'string' ? Buffer.from(p) : p))).toString();

describe('streamed JSON encoding', () => {
  it('gives the same text as the one-piece encoders, in both modes', () => {
    // Multi-byte characters straddle the 384 KiB pieces; invalid bytes become U+FFFD either way.
    const text = Buffer.from('é€😀 "quoted" \\ \n\u0001'.repeat(120_000));
    const invalid = Buffer.concat([
      Buffer.alloc(500_000, 0x41),
      Buffer.from([0xff, 0xc3]),
      Buffer.alloc(400_000, 0),
    ]);
    const values: RespValue[] = [
      text,
      invalid,
      [Buffer.from('small'), text, 5, null, new RespError('ERR x')],
      'OK',
    ];
    for (const base64 of [false, true]) {
      for (const value of values) {
        expect(joined(entryPieces(value, base64))).toBe(entryJson(value, base64));
      }
      expect(joined(entriesPieces(values, base64))).toBe(entriesJson(values, base64).toString());
    }
  });
});

describe('a 100 MB value', () => {
  let kv: TestService;
  beforeAll(async () => {
    kv = await startTestService();
  });
  afterAll(async () => {
    await kv?.stop();
  });

  it('is streamed while other requests keep being answered (SETRANGE b 104857599 x; GET /get/b)', async () => {
    expect(await kv.json('/setrange/b/104857599/x')).toEqual({ status: 200, body: { result: 104857600 } });
    await kv.call('/set/small/v');

    const url = new URL(`${kv.url}/get/b`);
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(url, { headers: { authorization: `Bearer ${kv.token}` } }, resolve).on('error', reject);
    });
    expect(res.statusCode).toBe(200);
    // Read the first piece, then stop reading: the rest waits for this client, and meanwhile the
    // service (and the event loop every port of the stack shares) answers others.
    const head = await new Promise<Buffer>((resolve) =>
      res.once('data', (chunk: Buffer) => {
        res.pause();
        resolve(chunk);
      }),
    );
    expect(head.subarray(0, 11).toString()).toBe('{"result":"');
    expect(await kv.json('/get/small')).toEqual({ status: 200, body: { result: 'v' } });
    expect(res.complete).toBe(false);

    // The whole body: 104,857,599 NUL bytes (each `\u0000` in JSON) and the final "x".
    let size = head.length;
    let tail = head.subarray(-16);
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      tail = Buffer.concat([tail, chunk]).subarray(-16);
    });
    res.resume();
    await new Promise((resolve) => res.once('end', resolve));
    expect(tail.toString().endsWith('\\u0000\\u0000x"}')).toBe(true);
    expect(size).toBe('{"result":"'.length + 104_857_599 * 6 + 'x"}'.length);
  }, 120_000);
});

describe('a reply over the limit', () => {
  let kv: TestService;
  beforeAll(async () => {
    kv = await startTestService({ maxReplyBytes: 1024 * 1024 });
    await kv.call('/setrange/big/2097151/x');
    await kv.call('/set/small/v');
  });
  afterAll(async () => {
    await kv?.stop();
  });

  it('is refused with a 400 naming the limit, in every form, and the service stays in step', async () => {
    const single = await kv.json('/get/big');
    expect(single.status).toBe(400);
    expect((single.body as { error: string }).error).toMatch(
      /^ERR max reply size exceeded: the reply is 2097164 bytes, the limit is 1048576 bytes \(1 MiB, --kv-max-reply-size\)/,
    );
    const pipeline = await kv.json('/pipeline', {
      method: 'POST',
      body: JSON.stringify([
        ['GET', 'big'],
        ['GET', 'small'],
        ['STRLEN', 'big'],
        ['MGET', 'small', 'big'],
      ]),
    });
    expect(pipeline.status).toBe(200);
    const entries = pipeline.body as { result?: unknown; error?: string }[];
    expect(entries[0]!.error).toMatch(/^ERR max reply size exceeded/);
    expect(entries.slice(1, 3)).toEqual([{ result: 'v' }, { result: 2097152 }]);
    expect(entries[3]!.error).toMatch(/^ERR max reply size exceeded/);

    // A transaction's reply is one reply (EXEC's): refused as a whole, saying the commands ran.
    const tx = await kv.json('/multi-exec', {
      method: 'POST',
      body: JSON.stringify([
        ['GET', 'big'],
        ['SET', 'after-tx', '1'],
      ]),
    });
    expect(tx.status).toBe(400);
    expect((tx.body as { error: string }).error).toMatch(
      /^ERR max reply size exceeded: .*; the transaction was executed, only its reply is refused$/,
    );
    expect(await kv.json('/get/after-tx')).toEqual({ status: 200, body: { result: '1' } });

    const resp2 = await kv.call('/get/big', { headers: { 'upstash-response-format': 'resp2' } });
    expect(resp2.status).toBe(400);
    expect(await resp2.text()).toMatch(/^-ERR max reply size exceeded.*\r\n$/);

    // Many small values add up too.
    const push = Array.from({ length: 300 }, () => 'x'.repeat(8 * 1024));
    await kv.json('/', { method: 'POST', body: JSON.stringify(['RPUSH', 'list', ...push]) });
    expect((await kv.json('/lrange/list/0/-1')).status).toBe(400);
    expect(await kv.json('/lrange/list/0/1')).toEqual({ status: 200, body: { result: push.slice(0, 2) } });
    expect(await kv.json('/get/small')).toEqual({ status: 200, body: { result: 'v' } });
  });
});
