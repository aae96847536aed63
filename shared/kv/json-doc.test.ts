import { describe, expect, it } from 'vitest';

import { formatCommandLine, tokenizeCommandLine } from './command-line';
import { jsonEditCommand, jsonNodeAt, jsonPathOf, jsonPretty, jsonText, parseJsonDoc } from './json-doc';

describe('parseJsonDoc', () => {
  it('keeps key order (integer-like names too), number text and every character', () => {
    const text = '{"b":1,"10":2,"a":[12345678901234567890,1.10,-2e-3],"s":"é😀\\n\\"","t":true,"n":null}';
    const parsed = parseJsonDoc(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.node.kind === 'object' && parsed.node.entries.map(([name]) => name)).toEqual([
      'b',
      '10',
      'a',
      's',
      't',
      'n',
    ]);
    expect(jsonText(parsed.node)).toBe(text);
    expect(jsonNodeAt(parsed.node, ['a', 0])).toEqual({ kind: 'number', text: '12345678901234567890' });
    expect(jsonNodeAt(parsed.node, ['s'])).toEqual({ kind: 'string', value: 'é😀\n"' });
    expect(jsonNodeAt(parsed.node, ['missing'])).toBeUndefined();
  });

  it('pretty-prints with two spaces and keeps empty containers short', () => {
    const parsed = parseJsonDoc(' { "a" : [ 1 , { } ] , "b" : [ ] } ');
    expect(parsed.ok && jsonPretty(parsed.node)).toBe('{\n  "a": [\n    1,\n    {}\n  ],\n  "b": []\n}');
  });

  it('says what is wrong and where', () => {
    expect(parseJsonDoc('{"a":tru}')).toEqual({ ok: false, error: 'unexpected "t" at position 5' });
    expect(parseJsonDoc('[1,2')).toEqual({ ok: false, error: 'expected "," or "]" at position 4' });
    expect(parseJsonDoc('{"a":1} x')).toEqual({
      ok: false,
      error: 'unexpected text after the value at position 8',
    });
    expect(parseJsonDoc('"\u0001"').ok).toBe(false);
    expect(parseJsonDoc('').ok).toBe(false);
  });
});

describe('paths and commands of the JSON editor', () => {
  it('writes JSONPath with dots for plain names and brackets for the rest', () => {
    expect(jsonPathOf([])).toBe('$');
    expect(jsonPathOf(['address', 'city'])).toBe('$.address.city');
    expect(jsonPathOf(['tags', 0, 'odd "name".x', '10'])).toBe('$.tags[0]["odd \\"name\\".x"]["10"]');
  });

  it('builds the command each edit runs, previewable as a line the workbench reads back', () => {
    const edits = [
      { op: 'json.set', key: 'user:1', path: '$.address.city', value: '"Paris"' },
      { op: 'json.set', key: 'user:1', path: '$["new field"]', value: '{"a": 1}', nx: true },
      { op: 'json.delete', key: 'user:1', path: '$.tags[0]' },
      { op: 'json.append', key: 'user:1', path: '$.tags', value: '"x"' },
    ] as const;
    expect(edits.map((edit) => jsonEditCommand(edit))).toEqual([
      ['JSON.SET', 'user:1', '$.address.city', '"Paris"'],
      ['JSON.SET', 'user:1', '$["new field"]', '{"a": 1}', 'NX'],
      ['JSON.DEL', 'user:1', '$.tags[0]'],
      ['JSON.ARRAPPEND', 'user:1', '$.tags', '"x"'],
    ]);
    expect(formatCommandLine(jsonEditCommand(edits[0]))).toBe('JSON.SET user:1 $.address.city "\\"Paris\\""');
    for (const edit of edits) {
      const args = jsonEditCommand(edit);
      expect(tokenizeCommandLine(formatCommandLine(args))).toEqual({ ok: true, args });
    }
    const odd = ['SET', 'a b', 'tab\there', 'nl\n', 'bell\x07', 'nul\u0000', "it's", '', 'é'];
    expect(tokenizeCommandLine(formatCommandLine(odd))).toEqual({ ok: true, args: odd });
  });
});
