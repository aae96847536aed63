import { describe, expect, it } from 'vitest';

import type { RespValue } from './resp';
import { encodeCommands, encodeReply, RespError, RespParser, RespProtocolError } from './resp';

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
