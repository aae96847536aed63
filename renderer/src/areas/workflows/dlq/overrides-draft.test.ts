import { describe, expect, it } from 'vitest';
import { describeRunOverrides, EMPTY_OVERRIDES, toRunOverrides } from './overrides-draft';

describe('restart/resume overrides as typed', () => {
  it('keeps only what was typed, with numbers as numbers', () => {
    const { overrides, errors } = toRunOverrides({
      ...EMPTY_OVERRIDES,
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
    expect(describeRunOverrides(overrides)).toContain('retries 2');
  });

  it('names the field of each problem', () => {
    const { errors } = toRunOverrides({
      ...EMPTY_OVERRIDES,
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
