import { describe, expect, it } from 'vitest';
import { logFiltersSchema, MESSAGE_IDS_MAX } from '../../../../../shared/bridge/procedures/messages/filters';
import { splitList } from '../../../ui/filter-draft';
import {
  cancelScope,
  EMPTY_DRAFT,
  type LogFilterDraft,
  removeRunFilter,
  runFilterText,
  showRunMessages,
  toLogFilters,
  useLogsUi,
} from './log-filters';

/** What the form sends with `fields` filled in and the rest left empty. */
const submit = (fields: Partial<LogFilterDraft>) => toLogFilters({ ...EMPTY_DRAFT, ...fields });

describe('logs filter form', () => {
  it('turns the form into bridge filters: lists split on commas, local times to ms, To inclusive', () => {
    const from = '2026-03-01T10:00';
    const to = '2026-03-01T11:30';
    const { filters, error } = submit({
      state: 'IN_PROGRESS',
      url: ' https://a.example.com , https://b.example.com,,',
      label: 'nightly',
      queueName: '',
      from,
      to,
    });
    expect(error).toBeUndefined();
    expect(filters).toEqual({
      state: ['IN_PROGRESS'],
      url: ['https://a.example.com', 'https://b.example.com'],
      label: ['nightly'],
      fromDate: new Date(from).getTime(),
      toDate: new Date(to).getTime() + 59_999,
    });
    expect(toLogFilters(EMPTY_DRAFT).filters).toEqual({});
    expect(submit({ from: to, to: from }).error).toMatch(/after/);
    expect(splitList('a,a, b')).toEqual(['a', 'b']);
  });

  it('never offers an empty cancel filter: state and message id do not count; no filter at all is "all"', () => {
    expect(cancelScope({})).toBe('all');
    expect(cancelScope({ state: ['CREATED'], messageId: 'msg_1' })).toEqual({
      off: expect.stringMatching(/state, message-id and run filters do not apply/),
    });
    expect(cancelScope({ state: ['CREATED'], queueName: ['q'], label: ['a', 'b'] })).toEqual({
      filters: { queueName: ['q'], label: ['a', 'b'] },
      text: 'queue q, label a, b',
    });
    expect(cancelScope({ flowControlKey: ['tenant-1'] })).toMatchObject({
      text: 'flow-control key tenant-1',
    });
  });

  it('a run filter sends the run’s message ids, says what it is, never reaches cancel, and is removable', () => {
    const run = { runId: 'wfr_1', messageIds: ['msg_b', 'msg_a'], total: 2 };
    expect(submit({ run }).filters).toEqual({ messageIds: ['msg_b', 'msg_a'] });
    expect(runFilterText(run)).toBe('Run wfr_1: 2 messages');
    expect(runFilterText({ runId: 'wfr_2', messageIds: ['msg_c'], total: 1 })).toBe('Run wfr_2: 1 message');
    // A run filter alone gives cancel nothing to go on (and is not "all"): the action is off.
    expect(cancelScope(submit({ run }).filters)).toHaveProperty('off');

    useLogsUi.getState().show({ label: 'old' });
    showRunMessages('wfr_1', ['msg_b', 'msg_a']);
    expect(useLogsUi.getState().applied).toEqual({ ...EMPTY_DRAFT, run });
    useLogsUi.getState().setDraft({ url: 'https://a.example.com' });
    removeRunFilter();
    expect(useLogsUi.getState().applied).toEqual(EMPTY_DRAFT);
    expect(useLogsUi.getState().draft).toEqual({ ...EMPTY_DRAFT, url: 'https://a.example.com' });
  });

  it('a run with more messages than one query may name keeps the newest and says so', () => {
    const ids = Array.from(
      { length: MESSAGE_IDS_MAX + 5 },
      (_, index) => `msg_${MESSAGE_IDS_MAX + 5 - index}`,
    );
    showRunMessages('wfr_big', ids);
    const run = useLogsUi.getState().applied.run;
    expect(run?.messageIds).toEqual(ids.slice(0, MESSAGE_IDS_MAX));
    expect(run && runFilterText(run)).toBe('Run wfr_big: newest 2,000 of 2,005 messages');
    // What goes to main passes the bridge's own limit.
    expect(logFiltersSchema.safeParse(toLogFilters(useLogsUi.getState().applied).filters).success).toBe(true);
    removeRunFilter();
  });
});
