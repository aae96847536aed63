import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRIES, MAX_RETRIES } from './limits';
import { DELAY_HINT, parseDelay, parseRetries, parseTimeout, timeoutHeaderValue } from './settings';

describe('message settings', () => {
  it('reads retries from 0 to the cap', () => {
    expect(parseRetries(' 0 ')).toEqual({ ok: true, value: 0 });
    expect(parseRetries(String(MAX_RETRIES))).toEqual({ ok: true, value: 100 });
    expect(parseRetries('101')).toEqual({ ok: false, error: 'a whole number from 0 to 100' });
    expect(parseRetries('-1').ok).toBe(false);
    expect(parseRetries('1.5').ok).toBe(false);
    expect(DEFAULT_RETRIES).toBe(3);
  });

  it('reads delays up to 365 days', () => {
    expect(parseDelay('1h30m')).toEqual({ ok: true, value: 5_400_000 });
    expect(parseDelay('365d').ok).toBe(true);
    expect(parseDelay('366d')).toEqual({ ok: false, error: expect.stringMatching(/at most 365d/) });
    expect(parseDelay('10')).toEqual({ ok: false, error: expect.stringMatching(/missing unit/) });
  });

  it('the form’s delay hint states the limit the rule enforces (8d was accepted under "up to 7d")', () => {
    const stated = /Up to (\d+)d/.exec(DELAY_HINT);
    expect(stated).not.toBeNull();
    const days = Number(stated![1]);
    expect(parseDelay(`${days}d`).ok).toBe(true);
    expect(parseDelay(`${days + 1}d`).ok).toBe(false);
    expect(parseDelay('8d').ok).toBe(days >= 8);
  });

  it('reads timeouts from 1s to 1d, a bare number as seconds', () => {
    expect(parseTimeout('30')).toEqual({ ok: true, value: 30_000 });
    expect(parseTimeout('1d')).toEqual({ ok: true, value: 86_400_000 });
    expect(parseTimeout('0s')).toEqual({ ok: false, error: 'must be between 1s and 1d' });
    expect(parseTimeout('25h')).toEqual({ ok: false, error: 'must be between 1s and 1d' });
    expect(timeoutHeaderValue('30')).toBe('30s');
    expect(timeoutHeaderValue('1d')).toBe('86400s');
    expect(timeoutHeaderValue('2m')).toBe('2m');
  });
});
