import { describe, expect, it } from 'vitest';
import { KV_TTL_MAX_SECONDS } from '../../../../../shared/bridge/procedures/kv/key-browser';
import { formatTtl, parseTtlSeconds } from './format-ttl';

describe('TTL text', () => {
  it('reads as people read it', () => {
    expect(formatTtl(-1)).toBe('no expiry');
    expect(formatTtl(-2)).toBe('gone');
    expect(formatTtl(1)).toBe('1 s');
    expect(formatTtl(200_000)).toBe('3 m 20 s');
    expect(formatTtl(7_500_000)).toBe('2 h 5 m');
    expect(formatTtl(97 * 3_600_000)).toBe('4 d 1 h');
  });

  it('takes whole seconds from 1 to the bridge limit as typed in the TTL dialog', () => {
    expect(parseTtlSeconds('120')).toBe(120);
    expect(parseTtlSeconds(' 1 ')).toBe(1);
    expect(parseTtlSeconds(String(KV_TTL_MAX_SECONDS))).toBe(KV_TTL_MAX_SECONDS);
    for (const bad of ['', ' ', '0', '-3', '1.5', 'abc', '1e3x', String(KV_TTL_MAX_SECONDS + 1)])
      expect(parseTtlSeconds(bad)).toBeUndefined();
  });
});
