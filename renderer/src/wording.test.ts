// "1 messages": a count written straight before a plural noun reads wrong for one. Counts go through
// plural() (ui/format.ts); this scan finds the ones that do not.
import { describe, expect, it } from 'vitest';
import { plural } from './ui/format';

const NOUNS =
  'messages|items|entries|events|keys|runs|steps|endpoints|queues|groups|deliveries|commands|results|jobs|lines|problems|rows|channels|subscribers|retries';
// `{x.length} items`, `${count.toLocaleString()} keys`, `{queue.lag} messages` …
const COUNT = String.raw`(?:\.length|\.size|\.lag|\.toLocaleString\(\)|[cC]ount|\.matched|\.deleted|\.total|\.processed)`;
const BARE_COUNT = new RegExp(String.raw`${COUNT}\}\s+(?:${NOUNS})\b`);

// Every renderer source as text, through Vite (the renderer has no Node access, tests included).
const SOURCES = import.meta.glob<string>(['./**/*.{ts,tsx}', '!./**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

describe('wording', () => {
  it('plural() agrees with its count', () => {
    expect(plural(1, 'message')).toBe('1 message');
    expect(plural(2, 'message')).toBe('2 messages');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(1200, 'key')).toBe('1,200 keys');
  });

  it('no screen writes a count straight before a plural noun', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    const offenders = Object.entries(SOURCES).flatMap(([path, text]) =>
      text
        .split('\n')
        .map((line, index) => ({ line: line.trim(), at: `${path}:${index + 1}` }))
        .filter(({ line }) => BARE_COUNT.test(line)),
    );
    expect(offenders).toEqual([]);
  });
});
