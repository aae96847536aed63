import { describe, expect, it } from 'vitest';
import { addFilter, chipsOf, removeChip } from './run-filters';

describe('run filter chips', () => {
  it('adds each filter of the logs endpoint and shows it as a chip', () => {
    let filters = {};
    for (const [field, text] of [
      ['state', 'RUN_FAILED'],
      ['workflowUrl', 'https://shop.example/wf'],
      ['workflowRunId', 'wfr_1'],
      ['workflowCreatedAt', '1700000000000'],
      ['label', 'a, b'],
      ['label', 'c'],
      ['flowControlKey', 'tenant'],
      ['callerIp', '10.0.0.1'],
      ['fromDate', '2026-11-24T10:00'],
      ['toDate', '2026-11-24T11:00'],
    ] as const) {
      const result = addFilter(filters, field, text);
      if ('error' in result) throw new Error(result.error);
      filters = result.filters;
    }
    expect(filters).toMatchObject({
      state: 'RUN_FAILED',
      workflowUrl: 'https://shop.example/wf',
      workflowRunId: 'wfr_1',
      workflowCreatedAt: 1700000000000,
      label: ['a', 'b', 'c'],
      flowControlKey: 'tenant',
      callerIp: '10.0.0.1',
    });
    const chips = chipsOf(filters);
    expect(chips.map((chip) => chip.field)).toEqual([
      'state',
      'workflowUrl',
      'workflowRunId',
      'workflowCreatedAt',
      'label',
      'label',
      'label',
      'flowControlKey',
      'callerIp',
      'fromDate',
      'toDate',
    ]);
    expect(chips[0]!.text).toBe('Run failed');
    // The "to" minute is inclusive.
    expect((filters as { toDate: number }).toDate % 60_000).toBe(59_999);
  });

  it('removes one chip (one label at a time)', () => {
    const filters = { state: 'RUN_FAILED' as const, label: ['a', 'b'] };
    expect(removeChip(filters, { field: 'label', value: 'a' })).toEqual({
      state: 'RUN_FAILED',
      label: ['b'],
    });
    expect(removeChip({ label: ['b'] }, { field: 'label', value: 'b' })).toEqual({});
    expect(removeChip(filters, { field: 'state', value: 'RUN_FAILED' })).toEqual({ label: ['a', 'b'] });
  });

  it('refuses values the service would reject, with a sentence', () => {
    expect(addFilter({}, 'workflowUrl', 'shop.example')).toEqual({ error: expect.stringMatching(/http/) });
    expect(addFilter({}, 'state', 'DONE')).toEqual({ error: expect.stringMatching(/Unknown state/) });
    expect(addFilter({}, 'label', '  ')).toEqual({ error: expect.stringMatching(/Type a value/) });
    const from = addFilter({}, 'fromDate', '2026-11-24T12:00');
    if ('error' in from) throw new Error(from.error);
    expect(addFilter(from.filters, 'toDate', '2026-11-24T11:00')).toEqual({ error: '“From” is after “To”.' });
  });
});
