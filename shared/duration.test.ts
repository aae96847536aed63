import { describe, expect, it } from 'vitest';
import { expectReads, expectRefusals } from './testing/parse-tables';
import { DurationError, formatDuration, parseDuration, parseGoDuration, tryParseDuration } from './duration';

describe('parseDuration', () => {
  it('reads single units and combinations', () => {
    expectReads(parseDuration, [
      ['10s', 10_000],
      ['5m', 300_000],
      ['2h', 7_200_000],
      ['1d', 86_400_000],
      ['1d10h30m', 86_400_000 + 10 * 3_600_000 + 30 * 60_000],
      [' 1h1s ', 3_601_000],
      ['0s', 0],
    ]);
  });

  it('says what is wrong', () => {
    expect(() => parseDuration('10x')).toThrow(
      new DurationError("unknown unit 'x' in '10x' (use s, m, h or d)"),
    );
    expect(tryParseDuration('10')).toEqual({
      ok: false,
      error: "missing unit after '10' in '10' (use s, m, h or d, e.g. 10s)",
    });
    expect(tryParseDuration('1h 30m')).toEqual({
      ok: false,
      error: 'no spaces inside a duration: write 1h30m',
    });
    expect(tryParseDuration('abc')).toEqual({
      ok: false,
      error: "'abc' is not a duration: write a number and a unit (s, m, h or d), e.g. 30s or 1h30m",
    });
    expect(tryParseDuration('1h+30m')).toEqual({
      ok: false,
      error: "unexpected '+30m' in '1h+30m': each part is a number and a unit, as in 1h30m",
    });
    expectRefusals(tryParseDuration, [
      ['', 'empty'],
      ['-5s', 'negative'],
      ['1.5m', 'fractions'],
      ['s', 'is not a duration'],
      ['10ms', "unknown unit 'ms'"],
      ['1constructor', "unknown unit 'constructor'"],
      ['99999999999999d', 'too large'],
    ]);
  });

  it('reads bare numbers as seconds only when asked', () => {
    expect(parseDuration('30', { bareNumberAsSeconds: true })).toBe(30_000);
    expect(tryParseDuration('30').ok).toBe(false);
  });
});

describe('formatDuration', () => {
  it('writes the shortest form and round-trips', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(86_400_000 + 3_600_000)).toBe('1d1h');
    for (const text of ['1d10h30m', '45s', '2h', '3d4s'])
      expect(formatDuration(parseDuration(text))).toBe(text);
  });
});

describe('parseGoDuration', () => {
  it('reads Go-style durations', () => {
    expectReads(parseGoDuration, [
      ['6m5s', 365_000],
      ['1.5h', 5_400_000],
      ['300ms', 300],
      ['0', 0],
      ['2us', 0.002],
    ]);
  });

  it('rejects anything else', () => {
    for (const text of ['', '5', '5d', 'abc']) expect(parseGoDuration(text), text).toBeUndefined();
  });
});
