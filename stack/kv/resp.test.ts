import { describe, expect, it } from 'vitest';

import type { RespValue } from './resp';
import {
  encodeCommands,
  encodeReply,
  ReplyTooLargeError,
  RespError,
  RespParser,
  RespProtocolError,
} from './resp';

function parseAll(chunks: Buffer[]): { value: RespValue; raw: Buffer }[] {
  const replies: { value: RespValue; raw: Buffer }[] = [];
  const parser: RespParser = new RespParser((value) => replies.push({ value, raw: parser.currentRaw() }));
  for (const chunk of chunks) parser.feed(chunk);
  return replies;
}

function bytewise(buf: Buffer): Buffer[] {
  return [...buf].map((b) => Buffer.from([b]));
}

const SAMPLE = Buffer.concat([
  Buffer.from('+OK\r\n-ERR boom\r\n:42\r\n:-7\r\n:9223372036854775807\r\n$-1\r\n*-1\r\n*0\r\n$0\r\n\r\n'),
  Buffer.from('$4\r\na\r\nb\r\n'),
  Buffer.from('*3\r\n$1\r\nx\r\n*2\r\n:1\r\n-WRONGTYPE bad\r\n+QUEUED\r\n'),
  Buffer.from([0x24, 0x33, 13, 10, 0xff, 0x00, 0xfe, 13, 10]),
]);

describe('RespParser', () => {
  it('decodes every RESP2 type, nested arrays and errors in place', () => {
    const values = parseAll([SAMPLE]).map((r) => r.value);
    expect(values.slice(0, 8)).toEqual([
      'OK',
      new RespError('ERR boom'),
      42,
      -7,
      9223372036854775807n,
      null,
      null,
      [],
    ]);
    expect(values[8]).toEqual(Buffer.alloc(0));
    expect(values[9]).toEqual(Buffer.from('a\r\nb'));
    expect(values[10]).toEqual([Buffer.from('x'), [1, new RespError('WRONGTYPE bad')], 'QUEUED']);
    expect(values[11]).toEqual(Buffer.from([0xff, 0x00, 0xfe]));
  });

  it('gives each reply its exact wire bytes, however the input is split', () => {
    const whole = parseAll([SAMPLE]);
    expect(Buffer.concat(whole.map((r) => r.raw))).toEqual(SAMPLE);
    const split = parseAll(bytewise(SAMPLE));
    expect(split.map((r) => r.value)).toEqual(whole.map((r) => r.value));
    expect(split.map((r) => r.raw)).toEqual(whole.map((r) => r.raw));
  });

  it('assembles a large bulk string that arrives in many chunks', () => {
    const payload = Buffer.alloc(300_000, 7);
    const wire = Buffer.concat([Buffer.from(`$${payload.length}\r\n`), payload, Buffer.from('\r\n+OK\r\n')]);
    const chunks: Buffer[] = [];
    for (let i = 0; i < wire.length; i += 1000) chunks.push(wire.subarray(i, i + 1000));
    const replies = parseAll(chunks);
    expect(replies).toHaveLength(2);
    expect(payload.equals(replies[0]!.value as Buffer)).toBe(true);
    expect(replies[0]!.raw.length).toBe(wire.length - 5);
    expect(replies[1]!.value).toBe('OK');
  });

  it('rejects bytes that are not RESP', () => {
    expect(() => parseAll([Buffer.from('hello\r\n')])).toThrow(RespProtocolError);
  });
});

describe('encoders', () => {
  it('encodes commands with binary and multi-byte arguments', () => {
    const wire = encodeCommands([['SET', Buffer.from([0, 0xff]), 'é'], ['PING']]);
    expect(wire).toEqual(
      Buffer.concat([
        Buffer.from('*3\r\n$3\r\nSET\r\n$2\r\n'),
        Buffer.from([0, 0xff]),
        Buffer.from('\r\n$2\r\n'),
        Buffer.from('é'),
        Buffer.from('\r\n*1\r\n$4\r\nPING\r\n'),
      ]),
    );
  });

  it('encodes replies that parse back to the same value', () => {
    const value = [Buffer.from('a'), 'OK', 5, null, [new RespError('ERR x')], Buffer.from([0xff])];
    expect(parseAll([encodeReply(value)])[0]!.value).toEqual(value);
  });
});

describe('RespParser with a reply size limit', () => {
  function parseLimited(chunks: Buffer[], limit: number): { value: RespValue; raw: Buffer }[] {
    const replies: { value: RespValue; raw: Buffer }[] = [];
    const parser: RespParser = new RespParser(
      (value) => replies.push({ value, raw: parser.currentRaw() }),
      limit,
    );
    for (const chunk of chunks) parser.feed(chunk);
    return replies;
  }
  const big = Buffer.concat([Buffer.from('$5000\r\n'), Buffer.alloc(5000, 0x61), Buffer.from('\r\n')]);
  const list = Buffer.concat([
    Buffer.from('*60\r\n'),
    ...Array.from({ length: 60 }, () => Buffer.from(`$100\r\n${'b'.repeat(100)}\r\n`)),
  ]);
  const wire = Buffer.concat([
    Buffer.from('+OK\r\n'),
    big,
    Buffer.from(':7\r\n'),
    list,
    Buffer.from('$2\r\nhi\r\n'),
  ]);

  it('answers an oversize bulk string or array with an error naming the limit, and stays in step', () => {
    for (const chunks of [
      [wire],
      bytewise(wire),
      [wire.subarray(0, 10), wire.subarray(10, 3000), wire.subarray(3000)],
    ]) {
      const replies = parseLimited(chunks, 1000);
      expect(replies.map((r) => r.value)).toEqual([
        'OK',
        new ReplyTooLargeError(big.length, 1000),
        7,
        new ReplyTooLargeError(list.length, 1000),
        Buffer.from('hi'),
      ]);
      expect((replies[1]!.value as RespError).message).toMatch(
        /^ERR max reply size exceeded: the reply is 5009 bytes, the limit is 1000 bytes/,
      );
      // RESP2 output of a refused reply is the error itself.
      expect(replies[1]!.raw.toString()).toMatch(/^-ERR max reply size exceeded/);
      expect(replies[4]!.raw.toString()).toBe('$2\r\nhi\r\n');
    }
  });

  it('passes replies up to the limit unchanged', () => {
    const replies = parseLimited(bytewise(wire), big.length);
    expect(replies[1]!.value).toEqual(Buffer.alloc(5000, 0x61));
    expect(replies[1]!.raw).toEqual(big);
    expect(replies[3]!.value).toBeInstanceOf(ReplyTooLargeError);
  });
});
