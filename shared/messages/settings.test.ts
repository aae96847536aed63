import { describe, expect, it } from 'vitest';
import { validateComposer } from '../composer/validate';
import { emptyComposer } from '../composer/model';
import { DEFAULT_RETRIES, MAX_BODY_BYTES, MAX_RETRIES } from './limits';
import { overrideHeaders, retryOverridesSchema } from './overrides';
import {
  checkBodySize,
  DELAY_HINT,
  parseDelay,
  parseRetries,
  parseTimeout,
  timeoutHeaderValue,
  utf8Length,
} from './settings';

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

describe('DLQ retry overrides', () => {
  const accepts = (input: object) => retryOverridesSchema.safeParse(input).success;

  it('take exactly what the composer takes for timeout and delay', () => {
    const now = Date.now();
    for (const [field, value] of [
      ['timeout', '30'],
      ['timeout', '2d'],
      ['timeout', '0s'],
      ['delay', '400d'],
      ['delay', '10m'],
      ['delay', '10'],
    ] as const) {
      const composerOk = validateComposer(emptyComposer({ url: 'https://x.test', [field]: value }), now)
        .errors[field];
      expect({ field, value, ok: accepts({ [field]: value }) }).toEqual({
        field,
        value,
        ok: composerOk === undefined,
      });
    }
  });

  it('cap retries at the service maximum', () => {
    expect(accepts({ retries: MAX_RETRIES })).toBe(true);
    expect(accepts({ retries: MAX_RETRIES + 1 })).toBe(false);
  });

  it('become Upstash-* headers, a bare timeout written in seconds', () => {
    expect(
      overrideHeaders({
        retries: 0,
        delay: '10s',
        timeout: '30',
        retryDelay: '1000',
        label: 'replay',
        forwardHeaders: { 'x-replay': 'yes' },
      }),
    ).toEqual({
      'Upstash-Retries': '0',
      'Upstash-Delay': '10s',
      'Upstash-Timeout': '30s',
      'Upstash-Retry-Delay': '1000',
      'Upstash-Label': 'replay',
      'Upstash-Forward-X-Replay': 'yes',
    });
    expect(overrideHeaders()).toEqual({});
  });
});

describe('message body size', () => {
  it('measures UTF-8 bytes like TextEncoder, without encoding', () => {
    for (const text of [
      '',
      'plain',
      'grüße',
      '日本語',
      'emoji 😀 and lone \ud800 surrogate',
      'x'.repeat(1000),
    ]) {
      expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
    }
  });

  it('refuses a body over the limit, in words, with the real limit', () => {
    expect(checkBodySize(MAX_BODY_BYTES)).toBeUndefined();
    expect(checkBodySize(MAX_BODY_BYTES + 1)).toBe(
      "1,048,577 bytes (1.0 MiB): over the service's limit of 1,048,576 bytes (1 MiB); it cannot be sent",
    );
  });

  it('is checked by the composer as the user types (multi-byte characters count as bytes)', () => {
    const now = Date.now();
    const model = (body: string) => emptyComposer({ url: 'https://x.test', contentType: 'text/plain', body });
    expect(validateComposer(model('x'.repeat(MAX_BODY_BYTES)), now).errors.body).toBeUndefined();
    expect(validateComposer(model('é'.repeat(MAX_BODY_BYTES / 2 + 1)), now).errors.body).toMatch(
      /over the service's limit of 1,048,576 bytes/,
    );
  });
});
