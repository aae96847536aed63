import { describe, expect, it } from 'vitest';

import { BadRequestError, JsonCommandBatch, parseCommandBody, parseCommandsBody } from './json-args';
import { encodeCommands } from './resp';
import type { RespArg } from './resp';

const text = (args: RespArg[]): string[] => args.map((a) => a.toString());
const body = (s: string): Buffer => Buffer.from(s);

describe('JSON command bodies', () => {
  it('keeps the literal text of numbers and turns literals into words', () => {
    const args = parseCommandBody(
      body(' ["SET", "k", 12345678901234567890, 1.10, -0.5e+3, true, false, null] '),
    );
    expect(text(args)).toEqual([
      'SET',
      'k',
      '12345678901234567890',
      '1.10',
      '-0.5e+3',
      'true',
      'false',
      'null',
    ]);
  });

  it('decodes escapes, surrogate pairs and lone surrogates to UTF-8 bytes', () => {
    const args = parseCommandBody(
      body('["a\\"b\\\\c\\/\\n\\t\\b\\f\\r", "\\u00e9\\ud83d\\ude00", "\\ud800x"]'),
    );
    expect(args[0]!.toString()).toBe('a"b\\c/\n\t\b\f\r');
    expect(args[1]).toEqual(Buffer.from('é😀'));
    expect(args[2]).toEqual(Buffer.from('\ufffdx'));
  });

  it('passes raw UTF-8 (and any other bytes) of unescaped strings through unchanged', () => {
    const raw = Buffer.concat([body('["SET","k","'), Buffer.from([0xe2, 0x82, 0xac, 0xff]), body('"]')]);
    expect(parseCommandBody(raw)[2]).toEqual(Buffer.from([0xe2, 0x82, 0xac, 0xff]));
  });

  it('reads values nested 20,000 deep iteratively: their text when closed, a parse error when not', () => {
    const deep = '[{"a":'.repeat(10_000) + '1' + '}]'.repeat(10_000);
    expect(parseCommandBody(body(`["SET","k",${deep}]`))[2]!.toString()).toBe(deep);
    expect(() => parseCommandBody(body(`["SET","k",${'['.repeat(20_000)}]`))).toThrow(BadRequestError);
    expect(() => parseCommandsBody(body('['.repeat(20_000)))).toThrow(BadRequestError);
    expect(text(parseCommandsBody(body(`[["SET","k",${'['.repeat(5) + ']'.repeat(5)}]]`))[0]!)).toEqual([
      'SET',
      'k',
      '[[[[[]]]]]',
    ]);
  });

  it('passes nested arrays and objects on as their JSON text', () => {
    const args = parseCommandBody(body('["SET","k",{"a":[1,{"b":"}"}]},[ ]]'));
    expect(text(args).slice(2)).toEqual(['{"a":[1,{"b":"}"}]}', '[ ]']);
  });

  it('reads pipelines as arrays of commands', () => {
    const commands = parseCommandsBody(body('[["set","a",1],["get","a"]]'));
    expect(commands.map(text)).toEqual([
      ['set', 'a', '1'],
      ['get', 'a'],
    ]);
  });

  const parsers = { command: parseCommandBody, pipeline: parseCommandsBody };
  it.each([
    ['command', '', 'expected a JSON array'],
    ['command', '{"a":1}', 'expected a JSON array'],
    ['command', '["get" "a"]', 'expected , or ]'],
    ['command', '["get","a"] x', 'trailing data'],
    ['command', '["get","a', 'unterminated string'],
    ['command', '["get",01]', 'expected , or ]'],
    ['command', '["get",tru]', 'unknown literal'],
    ['command', '["a\\q"]', 'bad escape'],
    ['command', '[]', 'empty command'],
    ['pipeline', '[]', 'empty pipeline request'],
    ['pipeline', '["get","a"]', 'expected a command array'],
    ['pipeline', '[["get"],[]]', 'empty command at index 1'],
    ['pipeline', '[["get"]', 'unexpected end'],
  ] as const)('rejects the %s body %j (%s)', (kind, input, message) => {
    const parse = () => parsers[kind](body(input));
    expect(parse).toThrow(BadRequestError);
    expect(parse).toThrow(message);
  });
});

describe('JsonCommandBatch (the zero-copy /pipeline reader)', () => {
  const bodies = [
    '[["SET","k","v"],["GET","k"]]',
    ' [ ["Set", "n", 12345678901234567890, -1.5e3, true, null] , ["hset","h",{"a":[1,"]"]},"x"] ] ',
    '[["SET","esc","a\\"b\\u00e9\\ud83d\\ude00"],["ECHO","' + 'x'.repeat(300) + '"]]',
  ];

  it.each(bodies)('reads %s exactly like parseCommandsBody and encodes the same bytes', (text) => {
    const body = Buffer.from(text);
    const expected = parseCommandsBody(body);
    const batch = JsonCommandBatch.parse(body);
    expect(batch.length).toBe(expected.length);
    expected.forEach((args, i) => {
      expect(batch.name(i)).toBe(args[0]!.toString().toLowerCase());
      expect(batch.args(i)).toEqual(args);
    });
    const all = expected.map((_, i) => i);
    expect(batch.encode(all)).toEqual(encodeCommands(expected));
    expect(batch.encode([expected.length - 1])).toEqual(encodeCommands([expected[expected.length - 1]!]));
  });

  it.each([
    ['[]', 'empty pipeline request'],
    ['[["get"],[]]', 'empty command at index 1'],
    ['[["get",]]', 'unexpected character'],
    ['["get"]', 'expected a command array'],
    ['[["get"]] x', 'trailing data'],
  ])('rejects %j (%s)', (input, message) => {
    expect(() => JsonCommandBatch.parse(Buffer.from(input))).toThrow(message);
  });
});
