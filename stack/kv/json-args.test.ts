import { describe, expect, it } from 'vitest';

import { BadRequestError, JsonCommandBatch, parseCommandsBody } from './json-args';
import { longestArgOf } from './key-size';
import { encodeCommands } from './resp';
import type { RespArg } from './resp';

const text = (args: RespArg[]): string[] => args.map((a) => a.toString());
const body = (s: string): Buffer => Buffer.from(s);
/** The arguments of a `POST /` body, as the bridge reads them. */
const commandArgs = (b: Buffer): RespArg[] => JsonCommandBatch.parseOne(b).args(0);

describe('JSON command bodies', () => {
  it('keeps the literal text of numbers and turns literals into words', () => {
    const args = commandArgs(body(' ["SET", "k", 12345678901234567890, 1.10, -0.5e+3, true, false, null] '));
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
    const args = commandArgs(body('["a\\"b\\\\c\\/\\n\\t\\b\\f\\r", "\\u00e9\\ud83d\\ude00", "\\ud800x"]'));
    expect(args[0]!.toString()).toBe('a"b\\c/\n\t\b\f\r');
    expect(args[1]).toEqual(Buffer.from('é😀'));
    expect(args[2]).toEqual(Buffer.from('\ufffdx'));
  });

  it('passes raw UTF-8 (and any other bytes) of unescaped strings through unchanged', () => {
    const raw = Buffer.concat([body('["SET","k","'), Buffer.from([0xe2, 0x82, 0xac, 0xff]), body('"]')]);
    expect(commandArgs(raw)[2]).toEqual(Buffer.from([0xe2, 0x82, 0xac, 0xff]));
  });

  it('reads values nested 20,000 deep iteratively: their text when closed, a parse error when not', () => {
    const deep = '[{"a":'.repeat(10_000) + '1' + '}]'.repeat(10_000);
    expect(commandArgs(body(`["SET","k",${deep}]`))[2]!.toString()).toBe(deep);
    expect(() => commandArgs(body(`["SET","k",${'['.repeat(20_000)}]`))).toThrow(BadRequestError);
    expect(() => parseCommandsBody(body('['.repeat(20_000)))).toThrow(BadRequestError);
    expect(
      text(parseCommandsBody(body(`[["SET","k",${'['.repeat(5) + ']'.repeat(5)}]]`)).commands[0]!),
    ).toEqual(['SET', 'k', '[[[[[]]]]]']);
  });

  it('passes nested arrays and objects on as their JSON text', () => {
    const args = commandArgs(body('["SET","k",{"a":[1,{"b":"}"}]},[ ]]'));
    expect(text(args).slice(2)).toEqual(['{"a":[1,{"b":"}"}]}', '[ ]']);
  });

  it('reads pipelines as arrays of commands', () => {
    const { commands } = parseCommandsBody(body('[["set","a",1],["get","a"]]'));
    expect(commands.map(text)).toEqual([
      ['set', 'a', '1'],
      ['get', 'a'],
    ]);
  });

  const parsers = { command: commandArgs, pipeline: (b: Buffer) => JsonCommandBatch.parse(b) };
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

describe('JsonCommandBatch (JSON straight into RESP)', () => {
  const many = (n: number): string =>
    JSON.stringify(['MSET', ...Array.from({ length: n }, (_, i) => `k${i}`)]);
  const bodies = [
    '[["SET","k","v"],["GET","k"]]',
    ' [ ["Set", "n", 12345678901234567890, -1.5e3, true, null] , ["hset","h",{"a":[1,"]"]},"x"] ] ',
    '[["SET","esc","a\\"b\\u00e9\\ud83d\\ude00"],["ECHO","' + 'x'.repeat(300) + '"]]',
    // Nine, ten and a hundred and one arguments: the count's digits are only known at the end.
    `[${many(8)},${many(9)},["GET","k"],${many(100)},${many(9)}]`,
    `[["SET","big","${'v'.repeat(70_000)}"],["GET","big"]]`,
  ];

  it.each(bodies.map((b) => [b.slice(0, 60), b]))(
    'reads %s… like the transaction reader and encodes the same bytes',
    (_, text) => {
      const body = Buffer.from(text);
      const { commands: expected, longestArg } = parseCommandsBody(body);
      const batch = JsonCommandBatch.parse(body);
      expect(batch.length).toBe(expected.length);
      // Both readers note the longest argument as they go (the key size limit's cheap test).
      expect(longestArg).toBe(longestArgOf(expected));
      expect(batch.longestArg).toBe(longestArg);
      expected.forEach((args, i) => {
        expect(batch.name(i)).toBe(args[0]!.toString().toLowerCase());
        expect(batch.args(i)).toEqual(args);
      });
      expect(batch.encode()).toEqual(encodeCommands(expected));
      expect(batch.encode(expected.map((_, i) => i))).toEqual(encodeCommands(expected));
      const last = expected.length - 1;
      expect(batch.encode([last, 0])).toEqual(encodeCommands([expected[last]!, expected[0]!]));
    },
  );

  it.each(['["Set", "n", 12345678901234567890, -1.5e3, true, null, {"a":[1,"]"]}]', many(9), many(100)])(
    'reads the POST / body %s like the transaction reader',
    (text) => {
      const expected = parseCommandsBody(Buffer.from(`[${text}]`)).commands[0]!;
      const one = JsonCommandBatch.parseOne(Buffer.from(text));
      expect(one.length).toBe(1);
      expect(one.longestArg).toBe(longestArgOf([expected]));
      expect(one.args(0)).toEqual(expected);
      expect(one.encode()).toEqual(encodeCommands([expected]));
    },
  );

  // Each malformed body with the errors the bridge answered (400) before the JSON was read straight into
  // RESP: `POST /`'s, then `/pipeline`'s. The messages (with their byte positions) must not change.
  const PREFIX = 'ERR failed to parse request body: ';
  it.each([
    ['', 'expected a JSON array at byte 0', 'expected a JSON array of commands at byte 0'],
    [' ', 'expected a JSON array at byte 1', 'expected a JSON array of commands at byte 1'],
    ['x', 'expected a JSON array at byte 0', 'expected a JSON array of commands at byte 0'],
    ['{}', 'expected a JSON array at byte 0', 'expected a JSON array of commands at byte 0'],
    ['{"a":1}', 'expected a JSON array at byte 0', 'expected a JSON array of commands at byte 0'],
    ['"SET"', 'expected a JSON array at byte 0', 'expected a JSON array of commands at byte 0'],
    ['1', 'expected a JSON array at byte 0', 'expected a JSON array of commands at byte 0'],
    ['null', 'expected a JSON array at byte 0', 'expected a JSON array of commands at byte 0'],
    ['[', 'unexpected end at byte 1', 'expected a command array at byte 1'],
    ['[ ', 'unexpected end at byte 2', 'expected a command array at byte 2'],
    ['["SET"', 'unexpected end at byte 6', 'expected a command array at byte 1'],
    ['["SET",', 'unexpected end at byte 7', 'expected a command array at byte 1'],
    ['["SET",]', 'unexpected character at byte 7', 'expected a command array at byte 1'],
    ['[,"SET"]', 'unexpected character at byte 1', 'expected a command array at byte 1'],
    ['["SET" "k"]', 'expected , or ] at byte 7', 'expected a command array at byte 1'],
    ['["SET","k"]]', 'trailing data at byte 11', 'expected a command array at byte 1'],
    ['["SET","k"] x', 'trailing data at byte 12', 'expected a command array at byte 1'],
    ['["SET","k"],', 'trailing data at byte 11', 'expected a command array at byte 1'],
    ['["SET",\'k\']', 'unexpected character at byte 7', 'expected a command array at byte 1'],
    ['["SET",k]', 'unexpected character at byte 7', 'expected a command array at byte 1'],
    ['["a\\q"]', 'bad escape in string at byte 4', 'expected a command array at byte 1'],
    ['["a\\u12"]', 'bad \\u escape at byte 5', 'expected a command array at byte 1'],
    ['["a\\u12g4"]', 'bad \\u escape at byte 5', 'expected a command array at byte 1'],
    ['["a\\x41"]', 'bad escape in string at byte 4', 'expected a command array at byte 1'],
    ['["tab\there"]', 'control character in string at byte 5', 'expected a command array at byte 1'],
    ['["nl\nx"]', 'control character in string at byte 4', 'expected a command array at byte 1'],
    ['["SET","k', 'unterminated string at byte 9', 'expected a command array at byte 1'],
    ['["SET","k\\', 'bad escape in string at byte 10', 'expected a command array at byte 1'],
    ['["SET",01]', 'expected , or ] at byte 8', 'expected a command array at byte 1'],
    ['["SET",-]', 'malformed number at byte 8', 'expected a command array at byte 1'],
    ['["SET",1.]', 'malformed number at byte 9', 'expected a command array at byte 1'],
    ['["SET",.5]', 'unexpected character at byte 7', 'expected a command array at byte 1'],
    ['["SET",1e]', 'malformed number at byte 9', 'expected a command array at byte 1'],
    ['["SET",1e+]', 'malformed number at byte 10', 'expected a command array at byte 1'],
    ['["SET",+1]', 'unexpected character at byte 7', 'expected a command array at byte 1'],
    ['["SET",0x10]', 'expected , or ] at byte 8', 'expected a command array at byte 1'],
    ['["SET",NaN]', 'unexpected character at byte 7', 'expected a command array at byte 1'],
    ['["SET",Infinity]', 'unexpected character at byte 7', 'expected a command array at byte 1'],
    ['["SET",tru]', 'unknown literal at byte 7', 'expected a command array at byte 1'],
    ['["SET",nul]', 'unknown literal at byte 7', 'expected a command array at byte 1'],
    ['["SET",True]', 'unexpected character at byte 7', 'expected a command array at byte 1'],
    ['["SET",undefined]', 'unexpected character at byte 7', 'expected a command array at byte 1'],
    ['["SET",{"a" 1}]', 'expected : at byte 12', 'expected a command array at byte 1'],
    ['["SET",{a:1}]', 'expected a key at byte 8', 'expected a command array at byte 1'],
    ['["SET",{"a":1,}]', 'expected a key at byte 14', 'expected a command array at byte 1'],
    ['["SET",[1,]]', 'unexpected character at byte 10', 'expected a command array at byte 1'],
    ['["SET",[1 2]]', 'expected , or ] at byte 10', 'expected a command array at byte 1'],
    ['["SET",{"a":1]', 'expected , or ] at byte 13', 'expected a command array at byte 1'],
    ['["SET",[1}]', 'expected , or ] at byte 9', 'expected a command array at byte 1'],
    ['["SET",{"a":}]', 'unexpected character at byte 12', 'expected a command array at byte 1'],
    ['["SET",{,}]', 'expected a key at byte 8', 'expected a command array at byte 1'],
    ['[]', 'ERR empty command', 'ERR empty pipeline request'],
    ['[] x', 'trailing data at byte 3', 'trailing data at byte 3'],
    ['[[]]', 'OK', 'ERR empty command at index 0'],
    ['[[', 'unexpected end at byte 2', 'unexpected end at byte 2'],
    ['[["GET"]', 'unexpected end at byte 8', 'unexpected end at byte 8'],
    ['[["GET"],]', 'unexpected character at byte 9', 'expected a command array at byte 9'],
    ['[["GET"] ["GET"]]', 'expected , or ] at byte 9', 'expected , or ] at byte 9'],
    ['["GET"]', 'OK', 'expected a command array at byte 1'],
    ['[["GET"],[]]', 'OK', 'ERR empty command at index 1'],
    ['[["GET",]]', 'unexpected character at byte 8', 'unexpected character at byte 8'],
    ['[["GET"]] x', 'trailing data at byte 10', 'trailing data at byte 10'],
    ['[[],["GET"]]', 'OK', 'ERR empty command at index 0'],
    ['[1]', 'OK', 'expected a command array at byte 1'],
    ['[{}]', 'OK', 'expected a command array at byte 1'],
    ['[["GET","k"],"x"]', 'OK', 'expected a command array at byte 13'],
    [
      '[["GET","k\u0001"]]',
      'control character in string at byte 10',
      'control character in string at byte 10',
    ],
    ['\u00a0[["GET"]]', 'expected a JSON array at byte 0', 'expected a JSON array of commands at byte 0'],
    ['[["GET"]]\u0000', 'trailing data at byte 9', 'trailing data at byte 9'],
  ] as const)('answers %j with the same errors as before (%s / %s)', (input, command, pipeline) => {
    const outcome = (parse: () => unknown): string => {
      try {
        parse();
        return 'OK';
      } catch (error) {
        expect(error).toBeInstanceOf(BadRequestError);
        const message = (error as Error).message;
        return message.startsWith(PREFIX) ? message.slice(PREFIX.length) : message;
      }
    };
    expect(outcome(() => JsonCommandBatch.parseOne(Buffer.from(input)))).toBe(command);
    expect(outcome(() => JsonCommandBatch.parse(Buffer.from(input)))).toBe(pipeline);
    let valid = true;
    try {
      JSON.parse(input);
    } catch {
      valid = false;
    }
    if (!valid) expect([command, pipeline]).not.toContain('OK');
  });

  it("rejects every mutation of a valid body that JSON.parse rejects, with the transaction reader's error", () => {
    // A fixed-seed generator: the same 3,000 mutations on every run.
    let seed = 26;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const alphabet = [
      '[',
      ']',
      '{',
      '}',
      ',',
      ':',
      '"',
      '\\',
      'u',
      'e',
      '-',
      '+',
      '.',
      '0',
      '1',
      ' ',
      'n',
      't',
      '\n',
      'x',
    ];
    const valid = [
      '[["SET","k",{"a":[1,2.5e-3,{"b":null}]},true,"x\\u00e9"],["GET","k"]]',
      '[["HSET","h","f",-0,"v\\n",[],{}],["MGET","a","b","c","d","e","f","g","h","i","j"]]',
    ];
    /** The message of what `parse` threw ('' when it did not throw), marked when it is not a 400. */
    const thrown = (parse: () => unknown): string => {
      try {
        parse();
        return '';
      } catch (error) {
        return error instanceof BadRequestError ? error.message : `not a BadRequestError: ${String(error)}`;
      }
    };
    const wrong: string[] = [];
    let rejected = 0;
    for (let n = 0; n < 3000; n++) {
      const source = valid[n % valid.length]!;
      const at = random(source.length);
      const insert = alphabet[random(alphabet.length)]!;
      const kind = random(3);
      const text =
        kind === 0
          ? source.slice(0, at) + source.slice(at + 1)
          : kind === 1
            ? source.slice(0, at) + insert + source.slice(at)
            : source.slice(0, at) + insert + source.slice(at + 1);
      const body = Buffer.from(text);
      if (thrown(() => JSON.parse(text)) !== '') {
        rejected++;
        const expected = thrown(() => parseCommandsBody(body));
        const actual = thrown(() => JsonCommandBatch.parse(body));
        if (expected === '' || actual !== expected) wrong.push(`${text}: ${actual} (expected ${expected})`);
        // The first command alone as a `POST /` body, when the mutation broke it.
        const one = text.slice(1, text.indexOf('],') + 1);
        if (
          thrown(() => JSON.parse(one)) !== '' &&
          !thrown(() => JsonCommandBatch.parseOne(Buffer.from(one)))
        ) {
          wrong.push(`POST / ${one}: accepted`);
        }
        continue;
      }
      // Accepted by JSON.parse: an array of non-empty commands reads as the transaction reader reads it.
      const parsed = JSON.parse(text) as unknown;
      if (
        Array.isArray(parsed) &&
        parsed.length > 0 &&
        parsed.every((c) => Array.isArray(c) && c.length > 0)
      ) {
        if (
          !JsonCommandBatch.parse(body)
            .encode()
            .equals(encodeCommands(parseCommandsBody(body).commands))
        ) {
          wrong.push(`${text}: encoded differently`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(rejected).toBeGreaterThan(1000);
  });
});
