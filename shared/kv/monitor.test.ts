import { describe, expect, it } from 'vitest';
import { globToRegExp, parseMonitorLine, quoteArg, quoteCommand, unquoteArgs } from './monitor';

describe('MONITOR lines', () => {
  it('quotes like Redis (sdscatrepr over UTF-8) and unquotes back', () => {
    // The expected text is what redis-server 7.0 printed for these arguments.
    expect(quoteArg('h\u00e9 "q"\\\x01')).toBe('"h\\xc3\\xa9 \\"q\\"\\\\\\x01"');
    expect(quoteArg('tab\tx\n\r\x07\b')).toBe('"tab\\tx\\n\\r\\a\\b"');
    expect(quoteCommand(['SET', 'k', 42])).toBe('"SET" "k" "42"');
    for (const args of [
      ['GET', 'plain'],
      ['SET', 'h\u00e9 😀', '"\\\n\x00'],
      ['ECHO', ''],
    ]) {
      expect(unquoteArgs(quoteCommand(args))).toEqual(args);
    }
    expect(unquoteArgs('"a" b')).toBeUndefined();
    expect(unquoteArgs('"unterminated')).toBeUndefined();
  });

  it('parses the header: time, db, client', () => {
    expect(parseMonitorLine('1721284005.242090 [0 0.0.0.0:0] "GET" "k"')).toEqual({
      at: 1721284005242,
      db: 0,
      client: '0.0.0.0:0',
      args: ['GET', 'k'],
      command: '"GET" "k"',
    });
    expect(parseMonitorLine('1721284005.1 [3 lua] "get" "k"')).toMatchObject({
      at: 1721284005100,
      db: 3,
      client: 'lua',
    });
    expect(parseMonitorLine('"OK"')).toBeUndefined();
  });
});

describe('globToRegExp', () => {
  it('follows Redis glob rules', () => {
    const re = (p: string): RegExp => globToRegExp(p)!;
    expect(re('user:*').test('user:1:name')).toBe(true);
    expect(re('user:*').test('users')).toBe(false);
    expect(re('h?llo').test('hallo')).toBe(true);
    expect(re('h[ae]llo').test('hillo')).toBe(false);
    expect(re('h[^e]llo').test('hallo')).toBe(true);
    expect(re('h[a-c]llo').test('hbllo')).toBe(true);
    expect(re('a\\*b').test('a*b')).toBe(true);
    expect(re('a\\*b').test('axb')).toBe(false);
    expect(re('a.b(c)').test('a.b(c)')).toBe(true);
    expect(re('a.b').test('axb')).toBe(false);
    expect(globToRegExp('')).toBeUndefined();
  });
});
