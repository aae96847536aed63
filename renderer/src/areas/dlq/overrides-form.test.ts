import { describe, expect, it } from 'vitest';
import { describeOverrides, EMPTY_OVERRIDES, toOverrides } from './overrides-form';

describe('DLQ retry overrides form', () => {
  it('keeps blank fields out and converts the rest', () => {
    expect(toOverrides(EMPTY_OVERRIDES)).toEqual({ overrides: {}, errors: {} });
    const { overrides, errors } = toOverrides({
      retries: '0',
      delay: '1m30s',
      retryDelay: 'pow(2, retried) * 1000',
      timeout: '20s',
      label: 'replay',
      headers: 'X-Replay: yes\n\nAuthorization: Bearer abc:def',
    });
    expect(errors).toEqual({});
    expect(overrides).toEqual({
      retries: 0,
      delay: '1m30s',
      retryDelay: 'pow(2, retried) * 1000',
      timeout: '20s',
      label: 'replay',
      forwardHeaders: { 'X-Replay': 'yes', Authorization: 'Bearer abc:def' },
    });
    expect(describeOverrides(overrides)).toContain('Retries: 0');
  });

  it('names what is wrong in each field', () => {
    const { errors } = toOverrides({
      retries: '-1',
      delay: '10x',
      retryDelay: 'pow(2,',
      timeout: '1.5m',
      label: '',
      headers: 'no colon here',
    });
    expect(errors.retries).toBe('a whole number from 0 to 100');
    expect(errors.delay).toMatch(/unknown unit 'x'/);
    expect(errors.retryDelay).toBeTruthy();
    expect(errors.timeout).toMatch(/fractions/);
    expect(errors.headers).toBe('line 1: write “Name: value”');
  });
});

describe('DLQ retry overrides form, with the composer rules', () => {
  const draft = (fields: Partial<typeof EMPTY_OVERRIDES>) => toOverrides({ ...EMPTY_OVERRIDES, ...fields });

  it('takes a bare timeout in seconds, as the composer does', () => {
    expect(draft({ timeout: '30' })).toEqual({ overrides: { timeout: '30' }, errors: {} });
  });

  it('caps timeout and delay like the composer', () => {
    expect(draft({ timeout: '2d' }).errors.timeout).toBe('must be between 1s and 1d');
    expect(draft({ delay: '400d' }).errors.delay).toMatch(/at most 365d/);
  });
});
