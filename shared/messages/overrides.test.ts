import { describe, expect, it } from 'vitest';
import { validateComposer } from '../composer/validate';
import { emptyComposer } from '../composer/model';
import { MAX_RETRIES } from './limits';
import { overrideHeaders, retryOverridesSchema } from './overrides';

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
