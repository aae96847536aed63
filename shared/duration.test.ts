import { describe, expect, it } from 'vitest';
import { DurationError, formatDuration, parseDuration, parseGoDuration, tryParseDuration } from './duration';

describe('parseDuration', () => {
  it('reads single units and combinations', () => {
    expect(parseDuration('10s')).toBe(10_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('1d')).toBe(86_400_000);
    expect(parseDuration('1d10h30m')).toBe(86_400_000 + 10 * 3_600_000 + 30 * 60_000);
    expect(parseDuration(' 1h1s ')).toBe(3_601_000);
    expect(parseDuration('0s')).toBe(0);
  });

  it('says what is wrong', () => {
    expect(() => parseDuration('10x')).toThrow(
      new DurationError("unknown unit 'x' in '10x' (use s, m, h or d)"),
    );
    expect(tryParseDuration('10')).toEqual({
      ok: false,
      error: "missing unit after '10' in '10' (use s, m, h or d, e.g. 10s)",
    });
    expect(tryParseDuration('')).toMatchObject({ ok: false, error: expect.stringContaining('empty') });
    expect(tryParseDuration('-5s')).toMatchObject({ ok: false, error: expect.stringContaining('negative') });
    expect(tryParseDuration('1.5m')).toMatchObject({
      ok: false,
      error: expect.stringContaining('fractions'),
    });
    expect(tryParseDuration('s')).toMatchObject({
      ok: false,
      error: expect.stringContaining('expected a number'),
    });
    expect(tryParseDuration('10ms')).toMatchObject({
      ok: false,
      error: expect.stringContaining("unknown unit 'ms'"),
    });
    expect(tryParseDuration('1h 30m')).toEqual({
      ok: false,
      error: "expected a number at ' 30m' in '1h 30m'",
    });
    expect(tryParseDuration('99999999999999d')).toMatchObject({
      ok: false,
      error: expect.stringContaining('too large'),
    });
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
    expect(parseGoDuration('6m5s')).toBe(365_000);
    expect(parseGoDuration('1.5h')).toBe(5_400_000);
    expect(parseGoDuration('300ms')).toBe(300);
    expect(parseGoDuration('0')).toBe(0);
    expect(parseGoDuration('2us')).toBeCloseTo(0.002);
  });

  it('rejects anything else', () => {
    expect(parseGoDuration('')).toBeUndefined();
    expect(parseGoDuration('5')).toBeUndefined();
    expect(parseGoDuration('5d')).toBeUndefined();
    expect(parseGoDuration('abc')).toBeUndefined();
  });
});
