import { describe, expect, it } from 'vitest';

import { commandBody, commandPath, tokenizeCommandLine } from './command-line';

describe('tokenizeCommandLine', () => {
  it.each([
    ['SET key value', ['SET', 'key', 'value']],
    ['  get   k  ', ['get', 'k']],
    ['', []],
    ['set k "hello world"', ['set', 'k', 'hello world']],
    ['set k "a\\nb\\t\\"c\\"\\\\"', ['set', 'k', 'a\nb\t"c"\\']],
    ['set k "\\x41\\xff\\xZZ"', ['set', 'k', 'A\u00ff\\xZZ']],
    ["set k 'it''s'", null],
    ["set k 'it\\'s \"raw\" \\n'", ['set', 'k', 'it\'s "raw" \\n']],
    ['set k ""', ['set', 'k', '']],
    ['set k a"b', ['set', 'k', 'a"b']],
  ])('splits %j', (line, expected) => {
    const result = tokenizeCommandLine(line);
    if (expected === null) expect(result.ok).toBe(false);
    else expect(result).toEqual({ ok: true, args: expected });
  });

  it('reports unbalanced quotes with their position', () => {
    expect(tokenizeCommandLine('set k "abc')).toEqual({ ok: false, error: 'unbalanced double quote', at: 6 });
    expect(tokenizeCommandLine("set k 'abc")).toEqual({ ok: false, error: 'unbalanced single quote', at: 6 });
    expect(tokenizeCommandLine('set k "a"b')).toMatchObject({ ok: false, at: 9 });
  });
});

describe('request forms', () => {
  it('builds the JSON body and the percent-encoded path', () => {
    expect(commandBody(['SET', 'k', 'a "b"'])).toBe('["SET","k","a \\"b\\""]');
    expect(commandPath(['SET', 'a/b', 'x y%'])).toBe('/SET/a%2Fb/x%20y%25');
  });
});
