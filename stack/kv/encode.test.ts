import { describe, expect, it } from 'vitest';

import { entriesJson, entryJson, jsonValue } from './encode';
import type { RespValue } from './resp';
import { RespError } from './resp';

const values: RespValue[] = [
  Buffer.from('plain'),
  Buffer.from('with "quotes" and \\'),
  Buffer.from([0x61, 0xff, 0x62]),
  Buffer.from('é'),
  Buffer.alloc(300, 0x61),
  Buffer.alloc(0),
  'OK',
  'PONG',
  42,
  -9223372036854775808n,
  null,
  new RespError('ERR boom'),
  [Buffer.from('x'), 'OK', [null, 1]],
];

describe('reply encoding', () => {
  it('writes pipeline bodies byte for byte like the per-entry encoder, in both modes', () => {
    for (const base64 of [false, true]) {
      const expected = `[${values.map((v) => entryJson(v, base64)).join(',')}]`;
      expect(entriesJson(values, base64).toString('utf8')).toBe(expected);
      expect(() => JSON.parse(expected) as unknown).not.toThrow();
    }
    expect(entriesJson([], false).toString()).toBe('[]');
  });

  it('keeps a top-level OK status plain in base64 mode and encodes everything else', () => {
    expect(JSON.parse(`[${values.map((v) => entryJson(v, true)).join(',')}]`)).toEqual([
      { result: 'cGxhaW4=' },
      { result: Buffer.from('with "quotes" and \\').toString('base64') },
      { result: 'Yf9i' },
      { result: 'w6k=' },
      { result: Buffer.alloc(300, 0x61).toString('base64') },
      { result: '' },
      { result: 'OK' },
      { result: 'UE9ORw==' },
      { result: 42 },
      { result: -9223372036854776000 },
      { result: null },
      { error: 'ERR boom' },
      { result: ['eA==', 'T0s=', [null, 1]] },
    ]);
  });

  it('writes int64 digits exactly and replaces invalid UTF-8 in plain mode', () => {
    expect(jsonValue(-9223372036854775808n, false, true)).toBe('-9223372036854775808');
    expect(JSON.parse(jsonValue(Buffer.from([0x61, 0xff, 0x62]), false, true))).toBe('a\ufffdb');
  });
});
