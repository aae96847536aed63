import { describe, expect, it } from 'vitest';
import { expectRefusals } from '../testing/parse-tables';
import { formatFlowControlValue, parseFlowControlValue } from './flow-control';
import { checkName, parseLabels } from './names';
import { expandStateFilter } from './types';

describe('flow control values', () => {
  it('reads any subset, with or without spaces', () => {
    const cases: [string, object][] = [
      ['parallelism=2, rate=10, period=1m', { parallelism: 2, rate: 10, period: 60 }],
      ['rate=5,period=2h', { rate: 5, period: 7200 }],
      ['parallelism=1', { parallelism: 1, period: 1 }],
      ['rate=3,period=30', { rate: 3, period: 30 }],
    ];
    for (const [text, value] of cases) expect(parseFlowControlValue(text), text).toEqual({ ok: true, value });
  });

  it('says what is wrong', () => {
    expectRefusals(parseFlowControlValue, [
      ['period=1m', 'needs parallelism or rate'],
      ['rate=0', 'rate must be'],
      ['rate=abc', ''],
      ['speed=3', "unknown flow control setting 'speed'"],
      ['rate=1, period=8d', '7d'],
      ['rate=1, period=5x', "unknown unit 'x'"],
      ['rate', 'key=value'],
      ['rate=1,rate=2', 'twice'],
    ]);
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
