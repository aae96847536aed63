// JSON.SET of a whole document has a fast path in the JSON script (lua-prelude.ts, `stored_as_sent`): a text
// already in stored form is kept as it came, without the parser and the encoder. With NX or XX the command
// always takes the full path, so setting the same text both ways and comparing the replies and the stored
// texts checks the fast path against the parser on many texts: canonical ones, and ones that are almost
// canonical (whitespace, escapes the encoder would rewrite, repeated keys, odd numbers, deep nesting, errors).
import { describe, expect, it } from 'vitest';

import type { CommandReply } from './test-support';
import { useTestService } from './test-support';

const env = useTestService();

async function pipeline(commands: string[][]): Promise<CommandReply[]> {
  const res = await env.kv.call('/pipeline', { method: 'POST', body: JSON.stringify(commands) });
  expect(res.status).toBe(200);
  return (await res.json()) as CommandReply[];
}

/** A small deterministic generator, so that a failing text is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRING_PIECES = [
  'a',
  'Ada',
  'é',
  '😀',
  ' ',
  '"',
  '\\',
  '\n',
  '\t',
  '\u0001',
  '/',
  '\u007f',
  '\u2028',
  '',
];
const NUMBER_TEXTS = [
  '0',
  '-0',
  '7',
  '-12',
  '36',
  '1.10',
  '-2.5e-3',
  '1E5',
  '6.02e+23',
  '1e308',
  '12345678901234567890',
];

function generator(seed: number): { value(depth: number): unknown; text(): string } {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const str = (): string =>
    Array.from({ length: Math.floor(next() * 4) }, () => pick(STRING_PIECES)).join('');
  const value = (depth: number): unknown => {
    const r = next();
    if (depth > 3 || r < 0.35) {
      return pick<unknown>([str(), Number(pick(NUMBER_TEXTS)), true, false, null, Math.floor(next() * 1e6)]);
    }
    if (r < 0.65) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
    const object: Record<string, unknown> = {};
    for (let i = Math.floor(next() * 4); i > 0; i--) object[str()] = value(depth + 1);
    return object;
  };
  return { value, text: () => JSON.stringify(value(0)) };
}

/** Ways to make a canonical text almost canonical, or invalid. */
const VARIANTS: ((text: string, next: () => number) => string)[] = [
  (t) => ` ${t}`,
  (t) => `${t}\n`,
  (t) => t.replace(/,/, ' , '),
  (t) => t.replace(/,/, ', '),
  (t) => t.replace(/\[/, '[ '),
  (t) => t.replace(/\{/, '{\t'),
  (t) => t.replace(/:/, ': '),
  (t) => t.replace(/"a/, '"\\u0061'),
  (t) => t.replace(/é/, '\\u00e9'),
  (t) => t.replace(/\//, '\\/'),
  (t) => t.replace(/\\u0001/, '\\u0001'.toUpperCase()),
  (t) => t.replace(/^\{"([^"]*)":([^,}]*)/, '{"$1":$2,"$1":$2'),
  (t) => t.replace(/^\{/, '{"k":1,"k":2,'),
  (t) => t.replace(/\d+/, (n) => `0${n}`),
  (t) => t.replace(/(\d)/, '$1.'),
  (t) => t.replace(/(\d)/, '$1e999'),
  (t) => t.replace(/(\d)/, '$1e'),
  (t) => t.replace(/true|false|null/, (w) => w.slice(0, -1)),
  (t) => t.slice(0, -1),
  (t) => `${t}]`,
  (t) => t.replace(/\]/, ',]'),
  (t, next) => {
    const at = Math.floor(next() * t.length);
    return t.slice(0, at) + t.slice(at + 1);
  },
];

function texts(): string[] {
  const out = new Set<string>([
    '{}',
    '[]',
    '""',
    '"x"',
    '0',
    '-0',
    'true',
    'null',
    '{"a":{"b":[1,{"c":[]}]}}',
    '{"":1,"\\"":2,"\\\\":3}',
    '{"a\\nb":1,"a\\u000ab":2}',
    '{"a":1,"A":2}',
    `1${'0'.repeat(320)}`,
    `1${'0'.repeat(299)}`,
    `${'['.repeat(127)}${']'.repeat(127)}`,
    `${'['.repeat(128)}${']'.repeat(128)}`,
    `${'['.repeat(129)}${']'.repeat(129)}`,
    `${'{"a":'.repeat(128)}1${'}'.repeat(128)}`,
  ]);
  const made = generator(26);
  const next = random(2026);
  for (let i = 0; i < 400; i++) {
    const text = made.text();
    out.add(text);
    out.add(VARIANTS[Math.floor(next() * VARIANTS.length)]!(text, next));
  }
  return [...out];
}

describe('JSON.SET of a whole document', () => {
  it('stores and answers every text exactly as the full parser does', async () => {
    const all = texts();
    expect(all.length).toBeGreaterThan(300);
    // Each text twice: key f:<i> on the fast path (no NX/XX), key p:<i> on the full path (XX over a document).
    const prepare = all.flatMap((_, i) => [
      ['DEL', `f:${i}`],
      ['JSON.SET', `p:${i}`, '$', '0'],
    ]);
    await pipeline(prepare);
    const fast = await pipeline(all.map((text, i) => ['JSON.SET', `f:${i}`, '$', text]));
    const full = await pipeline(all.map((text, i) => ['JSON.SET', `p:${i}`, '$', text, 'XX']));
    const fastStored = await pipeline(all.map((_, i) => ['JSON.GET', `f:${i}`]));
    const fullStored = await pipeline(all.map((_, i) => ['JSON.GET', `p:${i}`]));
    let accepted = 0;
    let keptAsSent = 0;
    for (let i = 0; i < all.length; i++) {
      const text = all[i]!;
      expect({ text, reply: fast[i] }).toEqual({ text, reply: full[i] });
      if (full[i]!.result === 'OK') {
        accepted++;
        if (fullStored[i]!.result === text) keptAsSent++;
        expect({ text, stored: fastStored[i] }).toEqual({ text, stored: fullStored[i] });
      } else {
        // Refused: nothing written on the fast key, the full key keeps its 0.
        expect({ text, stored: fastStored[i] }).toEqual({ text, stored: { result: null } });
        expect(fullStored[i]).toEqual({ result: '0' });
      }
    }
    // Both kinds are well represented: texts kept as sent, texts the encoder rewrote, and refusals.
    expect(keptAsSent).toBeGreaterThan(150);
    expect(accepted - keptAsSent).toBeGreaterThan(20);
    expect(all.length - accepted).toBeGreaterThan(20);
  });

  it('is refused on keys that are not JSON, and writes nothing there', async () => {
    await pipeline([
      ['SET', 'w:string', 'plain'],
      ['DEL', 'w:hash'],
      ['HSET', 'w:hash', 'field', 'v'],
    ]);
    const wrongType = { error: 'WRONGTYPE Operation against a key holding the wrong kind of value' };
    expect(
      await pipeline([
        ['JSON.SET', 'w:string', '$', '{"a":1}'],
        ['JSON.SET', 'w:hash', '$', '{"a":1}'],
        ['GET', 'w:string'],
        ['HGETALL', 'w:hash'],
      ]),
    ).toEqual([wrongType, wrongType, { result: 'plain' }, { result: ['field', 'v'] }]);
  });
});
