import { describe, expect, it } from 'vitest';
import { describeDlqFilters, EMPTY_DLQ_DRAFT, toDlqFilters } from './dlq-filters';

describe('DLQ filter form', () => {
  it('converts statuses, lists and dates; describes what is set', () => {
    const draft = { ...EMPTY_DLQ_DRAFT, responseStatus: '500, 502', label: 'nightly', topicName: 'orders' };
    expect(toDlqFilters(draft)).toEqual({
      filters: { responseStatus: [500, 502], label: ['nightly'], topicName: ['orders'] },
    });
    expect(describeDlqFilters(draft)).toBe('group orders, label nightly, status 500, 502');
    expect(toDlqFilters(EMPTY_DLQ_DRAFT).filters).toEqual({});
  });

  it('refuses a status that is not one', () => {
    expect(toDlqFilters({ ...EMPTY_DLQ_DRAFT, responseStatus: '5xx' }).error).toMatch(/not an HTTP status/);
  });
});
