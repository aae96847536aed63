import { describe, expect, it } from 'vitest';
import { anyCountingDown, countedOut, stampExpiry, ttlLeft } from './ttl-countdown';

describe('TTL countdown', () => {
  it('counts down from the moment PTTL was answered and never below zero', () => {
    const row = stampExpiry({ key: 'a', type: 'string', ttlMs: 5_000 }, 1_000);
    expect(ttlLeft(row, 1_000)).toBe(5_000);
    expect(ttlLeft(row, 3_500)).toBe(2_500);
    expect(ttlLeft(row, 9_000)).toBe(0);
  });

  it('counts a hash field TTL (HPTTL) the same way', () => {
    const field = stampExpiry({ ttlMs: 2_000 }, 10);
    expect(field).toEqual({ ttlMs: 2_000, expiresAt: 2_010 });
    expect(ttlLeft(field, 1_010)).toBe(1_000);
    expect(countedOut(new Map([['t:csrf', field]]), 2_010)).toEqual(['t:csrf']);
  });

  it('leaves keys without expiry and missing keys as PTTL said them', () => {
    const none = stampExpiry({ key: 'b', type: 'string', ttlMs: -1 }, 1_000);
    expect(none.expiresAt).toBeUndefined();
    expect(ttlLeft(none, 99_000)).toBe(-1);
    expect(ttlLeft(stampExpiry({ key: 'c', type: 'none', ttlMs: -2 }, 1_000), 5_000)).toBe(-2);
  });

  it('names the keys whose count ran out, and whether anything counts at all', () => {
    const meta = new Map([
      ['soon', stampExpiry({ key: 'soon', type: 'string', ttlMs: 1_000 }, 0)],
      ['later', stampExpiry({ key: 'later', type: 'string', ttlMs: 60_000 }, 0)],
      ['never', stampExpiry({ key: 'never', type: 'string', ttlMs: -1 }, 0)],
    ]);
    expect(countedOut(meta, 500)).toEqual([]);
    expect(countedOut(meta, 1_000)).toEqual(['soon']);
    expect(countedOut(meta, 60_000)).toEqual(['soon', 'later']);
    expect(anyCountingDown(meta)).toBe(true);
    expect(anyCountingDown(new Map([['never', meta.get('never')!]]))).toBe(false);
  });
});
