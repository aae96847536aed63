import { describe, expect, it } from 'vitest';
import { formatFlowControlValue, parseFlowControlValue } from './flow-control';
import { checkName, parseLabels } from './names';
import { expandStateFilter } from './types';

describe('flow control values', () => {
  it('reads any subset, with or without spaces', () => {
    expect(parseFlowControlValue('parallelism=2, rate=10, period=1m')).toEqual({
      ok: true,
      value: { parallelism: 2, rate: 10, period: 60 },
    });
    expect(parseFlowControlValue('rate=5,period=2h')).toEqual({ ok: true, value: { rate: 5, period: 7200 } });
    expect(parseFlowControlValue('parallelism=1')).toEqual({
      ok: true,
      value: { parallelism: 1, period: 1 },
    });
    expect(parseFlowControlValue('rate=3,period=30')).toEqual({ ok: true, value: { rate: 3, period: 30 } });
  });

  it('says what is wrong', () => {
    expect(parseFlowControlValue('period=1m')).toMatchObject({
      ok: false,
      error: expect.stringContaining('needs parallelism or rate'),
    });
    expect(parseFlowControlValue('rate=0')).toMatchObject({
      ok: false,
      error: expect.stringContaining('rate must be'),
    });
    expect(parseFlowControlValue('rate=abc')).toMatchObject({ ok: false });
    expect(parseFlowControlValue('speed=3')).toMatchObject({
      ok: false,
      error: expect.stringContaining("unknown flow control setting 'speed'"),
    });
    expect(parseFlowControlValue('rate=1, period=8d')).toMatchObject({
      ok: false,
      error: expect.stringContaining('7d'),
    });
    expect(parseFlowControlValue('rate=1, period=5x')).toMatchObject({
      ok: false,
      error: expect.stringContaining("unknown unit 'x'"),
    });
    expect(parseFlowControlValue('rate')).toMatchObject({
      ok: false,
      error: expect.stringContaining('key=value'),
    });
    expect(parseFlowControlValue('rate=1,rate=2')).toMatchObject({
      ok: false,
      error: expect.stringContaining('twice'),
    });
  });

  it('formats back', () => {
    expect(formatFlowControlValue({ parallelism: 2, rate: 10, period: 60 })).toBe(
      'parallelism=2, rate=10, period=60s',
    );
  });
});

describe('names, labels and states', () => {
  it('checks group and queue names', () => {
    expect(checkName('queue', 'my-queue_1.x')).toBeUndefined();
    expect(checkName('queue', 'bad name')).toContain("invalid queue name 'bad name'");
    expect(checkName('URL group', '')).toBe('URL group name is empty');
    expect(checkName('URL group', 'a/b')).toContain('letters, digits');
  });

  it('splits labels', () => {
    expect(parseLabels('a, b,,a , c')).toEqual(['a', 'b', 'c']);
  });

  it('expands state filters', () => {
    expect(expandStateFilter('IN_PROGRESS')).toEqual(['ACTIVE', 'RETRY', 'ERROR']);
    expect(expandStateFilter('canceled')).toEqual(['CANCELLED']);
    expect(expandStateFilter('DELIVERED')).toEqual(['DELIVERED']);
    expect(expandStateFilter('DONE')).toBeUndefined();
  });
});
