// The `/pipeline` JSON fast path without Redis: replies taken raw by the parser, split at every byte, must
// give exactly the body `entriesJson` makes of the decoded replies.
import { describe, expect, it } from 'vitest';

import type { RawReplies } from './connection';
import { entriesJson } from './encode';
import type { RespValue, RespError } from './resp';
import { DecodedReply, RAW_REPLY_BYTES, ReplyTooLargeError, RespParser } from './resp';
import { decodeRaw, rawEntriesJson } from './resp-json';

const bulk = (bytes: Buffer | string): Buffer => {
  const b = Buffer.from(bytes);
  return Buffer.concat([Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n')]);
};
const array = (...items: Buffer[]): Buffer => Buffer.concat([Buffer.from(`*${items.length}\r\n`), ...items]);
const line = (text: string): Buffer => Buffer.from(`${text}\r\n`);

/** One of every kind of reply the JSON encoder treats differently. */
const REPLIES: Buffer[] = [
  line('+OK'),
  line('+QUEUED'),
  line('+say "hi"'),
  bulk('xyz'),
  bulk(''),
  bulk('quote " and backslash \\'),
  bulk('tab\tnew line\ncontrol \u0001 del \u007f'),
  bulk('héllo wörld ✓ 😀'),
  bulk(Buffer.from([0x61, 0xff, 0xfe, 0x62, 0xc3])), // invalid UTF-8
  bulk(Buffer.from([0xf0, 0x9f, 0x98])), // a character cut short
  bulk('x'.repeat(300)), // printable, past the short-string check of entriesJson
  line('$-1'),
  line('*-1'),
  line('*0'),
  line(':0'),
  line(':-42'),
  line(':9007199254740993'), // beyond 2^53: a bigint, printed exactly
  line(':123456789012345'),
  line('-ERR unknown command'),
  line('-WRONGTYPE Operation against a key holding the wrong kind of value'),
  array(
    bulk('a'),
    line('$-1'),
    line(':7'),
    array(bulk('nested'), line('*0'), line('-ERR inside')),
    line('+OK'),
  ),
  array(array(array(array(bulk(Buffer.from([0xff])))))),
];

function decoded(stream: Buffer): RespValue[] {
  const values: RespValue[] = [];
  new RespParser((v) => values.push(v)).feed(stream);
  return values;
}

/** Feeds `chunks` to a parser whose sink takes all `count` replies raw, as a connection's sendRaw would. */
function takenRaw(chunks: Buffer[], count: number, maxReplyBytes = Infinity): RawReplies {
  const pieces: RawReplies = [];
  let remaining = count;
  const parser = new RespParser(
    (value) => {
      pieces.push(new DecodedReply(value));
      remaining--;
    },
    maxReplyBytes,
    {
      budget: () => remaining,
      take: (bytes, n) => {
        pieces.push(Buffer.from(bytes)); // copied: the parser's buffer is reused
        remaining -= n;
      },
    },
  );
  for (const chunk of chunks) parser.feed(chunk);
  expect(remaining).toBe(0);
  return pieces;
}

const asIs = (_index: number, message: string): string => message;

describe('pipeline JSON straight from reply bytes', () => {
  const stream = Buffer.concat(REPLIES);
  const expected = entriesJson(decoded(stream), false);

  it('writes every kind of reply as entriesJson does', () => {
    const pieces = takenRaw([stream], REPLIES.length);
    expect(pieces.every((p) => Buffer.isBuffer(p))).toBe(true);
    expect(rawEntriesJson(pieces, REPLIES.length, asIs)!.toString('latin1')).toBe(
      expected.toString('latin1'),
    );
    // Pinned: the bytes a client gets for a few of them.
    const text = expected.toString('utf8');
    expect(
      text.startsWith('[{"result":"OK"},{"result":"QUEUED"},{"result":"say \\"hi\\""},{"result":"xyz"},'),
    ).toBe(true);
    expect(text).toContain('{"result":"a\ufffd\ufffdb\ufffd"}');
    expect(text).toContain('{"result":null},{"result":null},{"result":[]},{"result":0},{"result":-42},');
    expect(text).toContain('{"result":9007199254740993}');
    expect(text).toContain('{"error":"ERR unknown command"}');
    expect(text).toContain('{"result":["a",null,7,["nested",[],{"error":"ERR inside"}],"OK"]}');
  });

  it('gives the same body however the replies are split across reads', () => {
    for (let at = 1; at < stream.length; at++) {
      const pieces = takenRaw([stream.subarray(0, at), stream.subarray(at)], REPLIES.length);
      expect(rawEntriesJson(pieces, REPLIES.length, asIs)!.equals(expected), `split at ${at}`).toBe(true);
      expect(decodeRaw(pieces)).toEqual(decoded(stream));
    }
    // Byte by byte: every reply but the one-byte-long ones arrives decoded.
    const bytes = [...stream].map((b) => Buffer.from([b]));
    expect(rawEntriesJson(takenRaw(bytes, REPLIES.length), REPLIES.length, asIs)!.equals(expected)).toBe(
      true,
    );
  });

  it('reports errors with the text the caller gives, raw or decoded', () => {
    const two = Buffer.concat([line('-ERR unknown command'), bulk('x'), line('-ERR unknown command')]);
    const explain = (i: number, message: string): string => `${message} #${i}`;
    const whole = rawEntriesJson(takenRaw([two], 3), 3, explain)!.toString();
    expect(whole).toBe(
      '[{"error":"ERR unknown command #0"},{"result":"x"},{"error":"ERR unknown command #2"}]',
    );
    const split = rawEntriesJson(takenRaw([two.subarray(0, 5), two.subarray(5)], 3), 3, explain)!.toString();
    expect(split).toBe(whole);
  });

  it('decodes replies over RAW_REPLY_BYTES, and refuses what is over the reply limit in place', () => {
    const big = bulk('b'.repeat(RAW_REPLY_BYTES + 1));
    const small = bulk('s');
    const pieces = takenRaw([Buffer.concat([small, big, small])], 3);
    expect(pieces.map((p) => (Buffer.isBuffer(p) ? 'raw' : 'decoded'))).toEqual(['raw', 'decoded', 'raw']);
    expect(
      rawEntriesJson(pieces, 3, asIs)!.equals(
        entriesJson(decoded(Buffer.concat([small, big, small])), false),
      ),
    ).toBe(true);

    const limited = takenRaw([Buffer.concat([small, bulk('y'.repeat(100)), small])], 3, 50);
    const tooLarge = (limited[1] as DecodedReply).value;
    expect(tooLarge).toBeInstanceOf(ReplyTooLargeError);
    expect(rawEntriesJson(limited, 3, asIs)!.toString()).toBe(
      `[{"result":"s"},{"error":${JSON.stringify((tooLarge as RespError).message)}},{"result":"s"}]`,
    );
  });

  it('leaves a reply that must be streamed to the caller', () => {
    const huge = bulk('h'.repeat(1024 * 1024 + 1));
    const pieces = takenRaw([Buffer.concat([bulk('a'), huge])], 2);
    expect(rawEntriesJson(pieces, 2, asIs)).toBeUndefined();
    const values = decodeRaw(pieces);
    expect(values).toHaveLength(2);
    expect((values[0] as Buffer).toString()).toBe('a');
    expect((values[1] as Buffer).equals(Buffer.from('h'.repeat(1024 * 1024 + 1)))).toBe(true);
  });
});
