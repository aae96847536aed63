// The one overrides form of the DLQ jobs, checked with each procedure's own schema: the message DLQ's
// retry (with the composer's rules for delay and timeout) and the workflow DLQ's restart/resume.
import { describe, expect, it } from 'vitest';
import { retryOverridesSchema } from '../../../../shared/messages/overrides';
import { runOverridesSchema } from '../../../../shared/bridge/procedures/workflows/dlq';
import { describeOverrides, EMPTY_OVERRIDES, type OverridesDraft, toOverrides } from './overrides-draft';

const retry = (fields: Partial<OverridesDraft>) =>
  toOverrides({ ...EMPTY_OVERRIDES, ...fields }, retryOverridesSchema);
const rerun = (fields: Partial<OverridesDraft>) =>
  toOverrides({ ...EMPTY_OVERRIDES, ...fields }, runOverridesSchema);

describe('retry overrides (message DLQ)', () => {
  it('keeps blank fields out and converts the rest', () => {
    expect(retry({})).toEqual({ overrides: {}, errors: {} });
    const { overrides, errors } = retry({
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
    expect(describeOverrides(overrides)).toEqual([
      'retries 0',
      'delay 1m30s',
      'retry delay pow(2, retried) * 1000',
      'timeout 20s',
      'labels replay',
      'X-Replay: yes',
      'Authorization: Bearer abc:def',
    ]);
  });

  it('names what is wrong in each field', () => {
    const { errors } = retry({
      retries: '-1',
      delay: '10x',
      retryDelay: 'pow(2,',
      timeout: '1.5m',
      headers: 'no colon here',
    });
    expect(errors.retries).toBe('a whole number from 0 to 100');
    expect(errors.delay).toMatch(/unknown unit 'x'/);
    expect(errors.retryDelay).toBeTruthy();
    expect(errors.timeout).toMatch(/fractions/);
    expect(errors.headers).toBe('line 1: write “Name: value”');
  });

  it('takes a bare timeout in seconds and caps timeout and delay, as the composer does', () => {
    expect(retry({ timeout: '30' })).toEqual({ overrides: { timeout: '30' }, errors: {} });
    expect(retry({ timeout: '2d' }).errors.timeout).toBe('must be between 1s and 1d');
    expect(retry({ delay: '400d' }).errors.delay).toMatch(/at most 365d/);
  });
});

describe('restart/resume overrides (workflow DLQ)', () => {
  it('keeps only what was typed, with numbers as numbers', () => {
    const { overrides, errors } = rerun({
      retries: '2',
      delay: '10s',
      flowControlKey: 'tenant',
      flowControlValue: 'parallelism=2, rate=5',
      label: 'replay',
      failureCallback: 'https://hooks.example/failed',
    });
    expect(errors).toEqual({});
    expect(overrides).toEqual({
      retries: 2,
      delay: '10s',
      flowControlKey: 'tenant',
      flowControlValue: 'parallelism=2, rate=5',
      label: 'replay',
      failureCallback: 'https://hooks.example/failed',
    });
    expect(describeOverrides(overrides)).toContain('retries 2');
  });

  it('names the field of each problem', () => {
    const { errors } = rerun({
      retries: 'two',
      delay: 'soon',
      flowControlValue: 'fast',
      failureCallback: 'nope',
    });
    expect(Object.keys(errors).sort()).toEqual([
      'delay',
      'failureCallback',
      'flowControlKey',
      'flowControlValue',
      'retries',
    ]);
  });
});
