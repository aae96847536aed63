import { describe, expect, it } from 'vitest';
import type { Schedule } from '../../../../../shared/messages/schedules';
import { destinationText, filterSchedules, formatInZone, nextFireTimes, runSummary } from './schedule-list';

const base = (over: Partial<Schedule>): Schedule => ({
  scheduleId: 's',
  cron: '* * * * *',
  createdAt: 0,
  destination: 'https://example.com/hook',
  method: 'POST',
  retries: 3,
  isPaused: false,
  ...over,
});

const list = [
  base({ scheduleId: 'nightly', cron: 'CRON_TZ=Europe/Berlin 17 3 * * *', labels: ['reports'] }),
  base({ scheduleId: 'paused-one', isPaused: true, destination: 'orders', queueName: 'q' }),
  base({ scheduleId: 'broken', lastScheduleStates: { m1: 'FAIL', m2: 'SUCCESS' } }),
];

describe('the schedules list', () => {
  it('searches id, cron words, zone, destination and labels; filters by state', () => {
    const ids = (search: string, state: Parameters<typeof filterSchedules>[2] = 'all') =>
      filterSchedules(list, search, state).map((s) => s.scheduleId);
    expect(ids('')).toEqual(['nightly', 'paused-one', 'broken']);
    expect(ids('berlin 03:17')).toEqual(['nightly']);
    expect(ids('REPORTS')).toEqual(['nightly']);
    expect(ids('orders')).toEqual(['paused-one']);
    expect(ids('', 'paused')).toEqual(['paused-one']);
    expect(ids('', 'active')).toEqual(['nightly', 'broken']);
    expect(ids('', 'failing')).toEqual(['broken']);
  });

  it('summarises the last run and says where a schedule publishes', () => {
    expect(runSummary(list[2] as Schedule)).toEqual({
      total: 2,
      counts: { IN_PROGRESS: 0, SUCCESS: 1, FAIL: 1 },
    });
    expect(runSummary(base({ error: "URL group 'x' not found" })).error).toContain('not found');
    expect(destinationText(list[1] as Schedule)).toBe('group orders via queue q');
    expect(destinationText(list[0] as Schedule)).toBe('https://example.com/hook');
  });

  it('computes the next fire times in the schedule’s zone, none while paused', () => {
    const now = Date.UTC(2026, 0, 5, 12, 0);
    expect(nextFireTimes(list[0] as Schedule, now, 2)).toEqual([
      Date.UTC(2026, 0, 6, 2, 17),
      Date.UTC(2026, 0, 7, 2, 17),
    ]);
    expect(nextFireTimes(list[1] as Schedule, now)).toEqual([]);
    expect(formatInZone(Date.UTC(2026, 0, 6, 2, 17), 'Europe/Berlin')).toContain('03:17');
  });
});
