import { describe, expect, it } from 'vitest';
import { type FlowControlInfo, matchesFlowKey } from '../../../../../shared/messages/flow-control';
import {
  explainHold,
  explainKey,
  flowKeyFilters,
  periodText,
  pinFormOf,
  readPinForm,
  usage,
  visibleKeys,
} from './flow-control-model';

function key(flowControlKey: string, fields: Partial<FlowControlInfo> = {}): FlowControlInfo {
  return {
    flowControlKey,
    waitListSize: 0,
    parallelismMax: 0,
    parallelismCount: 0,
    rateMax: 0,
    rateCount: 0,
    ratePeriod: 1,
    ratePeriodStart: 0,
    isPaused: false,
    isPinnedParallelism: false,
    isPinnedRate: false,
    ...fields,
  };
}

describe('flow-control screen model', () => {
  const keys = [
    key('b', { waitListSize: 3, parallelismCount: 1 }),
    key('a', { waitListSize: 3 }),
    key('Tenant-C', { parallelismCount: 5 }),
  ];

  it('shows matching keys, waiting ones only if asked, most waiting first (then by key)', () => {
    const names = (view: Parameters<typeof visibleKeys>[1]) =>
      visibleKeys(keys, view).map((k) => k.flowControlKey);
    expect(names({ search: '', waitingOnly: false, sort: 'waiting' })).toEqual(['a', 'b', 'Tenant-C']);
    expect(names({ search: '', waitingOnly: true, sort: 'waiting' })).toEqual(['a', 'b']);
    expect(names({ search: ' tenant ', waitingOnly: false, sort: 'key' })).toEqual(['Tenant-C']);
    expect(names({ search: '', waitingOnly: false, sort: 'inflight' })).toEqual(['Tenant-C', 'b', 'a']);
    expect(names({ search: '', waitingOnly: false, sort: 'key' })).toEqual(['Tenant-C', 'a', 'b']);
  });

  it('hands a job over the shown keys the same filter, never an empty one ("waiting only" off is no filter)', () => {
    expect(flowKeyFilters({ search: '  ', waitingOnly: false })).toEqual({});
    expect(flowKeyFilters({ search: ' tenant ', waitingOnly: true })).toEqual({
      search: 'tenant',
      waitingOnly: true,
    });
    const filters = flowKeyFilters({ search: 'tenant', waitingOnly: false });
    expect(keys.filter((k) => matchesFlowKey(k, filters)).map((k) => k.flowControlKey)).toEqual(['Tenant-C']);
  });

  it('reads a count against its limit, and a period', () => {
    expect(usage(3, 5)).toEqual({ text: '3 of 5', ratio: 0.6 });
    expect(usage(7, 5).ratio).toBe(1);
    expect(usage(2, 0)).toEqual({ text: '2 · no limit', ratio: undefined });
    expect([periodText(1), periodText(60), periodText(7_200), periodText(90)]).toEqual([
      'per 1 s',
      'per 1 min',
      'per 2 h',
      'per 90 s',
    ]);
  });

  it('says why a key’s messages wait, and where one message stands', () => {
    expect(explainKey(key('k', { isPaused: true, waitListSize: 2 }))).toMatch(
      /^Paused: 2 messages wait and nothing/,
    );
    expect(explainKey(key('k'))).toMatch(/^Nothing waits/);
    expect(explainKey(key('k', { waitListSize: 4, parallelismMax: 2, parallelismCount: 2 }))).toMatch(
      /^All 2 slots are in flight: the next of the 4 messages waiting/,
    );
    expect(
      explainKey(
        key('k', {
          waitListSize: 1,
          rateMax: 10,
          rateCount: 10,
          ratePeriod: 60,
          ratePeriodStart: 1_700_000_000,
        }),
      ),
    ).toMatch(/^The rate of 10 per 1 min is used up: the 1 message waiting goes on when the period ends at /);
    const hold = { flowControlKey: 'k', messageId: 'm', waiting: true, ahead: 3, isPaused: true };
    expect(explainHold(hold)).toBe('Held: the key is paused (3 messages ahead of it once it is resumed).');
    expect(explainHold({ ...hold, isPaused: false, ahead: 0 })).toBe(
      "Waiting for the key's limits: it is next in line.",
    );
    expect(explainHold({ ...hold, waiting: false })).toMatch(/does not hold the message now/);
  });

  it('opens the pin form with the key’s settings and reads it back, refusing bad values', () => {
    expect(pinFormOf(key('k', { parallelismMax: 2, rateMax: 10, ratePeriod: 60 }))).toEqual({
      parallelism: '2',
      rate: '10',
      period: '60s',
    });
    expect(pinFormOf(key('k', { parallelismMax: 2 }))).toEqual({ parallelism: '2', rate: '', period: '' });
    expect(readPinForm({ parallelism: '3', rate: '', period: '' })).toEqual({
      pin: { parallelism: 3 },
      errors: {},
    });
    expect(readPinForm({ parallelism: '', rate: '20', period: '2m' }).pin).toEqual({ rate: 20, period: 120 });
    expect(readPinForm({ parallelism: 'x', rate: '', period: '' }).errors).toEqual({
      parallelism: 'a whole number',
    });
    expect(readPinForm({ parallelism: '0', rate: '', period: '' }).errors.parallelism).toMatch(/from 1 to/);
    expect(readPinForm({ parallelism: '', rate: '1', period: '8d' }).errors.period).toMatch(/7 days/);
    expect(readPinForm({ parallelism: '', rate: '', period: '' }).errors.parallelism).toMatch(/pin needs/);
  });
});
