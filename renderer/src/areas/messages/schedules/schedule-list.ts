// The Schedules list's pure parts: search and state filter, how each schedule's last run went, and the
// words a row shows. Server data stays in TanStack Query; this only derives what a row displays.
import {
  filterSchedules as filterList,
  type ScheduleStateFilter,
} from '../../../../../shared/messages/schedule-filter';
import { previewTicks, fieldsOf, zoneOf } from '../../../../../shared/messages/schedule-form';
import type { Schedule } from '../../../../../shared/messages/schedules';

export { isFailing, runSummary, type RunSummary } from '../../../../../shared/messages/schedule-filter';
export type StateFilter = ScheduleStateFilter;

export const STATE_FILTER_LABELS: Record<StateFilter, string> = {
  all: 'All',
  active: 'Active',
  paused: 'Paused',
  failing: 'Last run failed',
};

/** Where a schedule publishes, as a row says it: the URL or `group <name>`, with its queue. */
export function destinationText(schedule: Schedule): string {
  const target = /^https?:\/\//i.test(schedule.destination)
    ? schedule.destination
    : schedule.destination === 'api/llm'
      ? 'api/llm'
      : `group ${schedule.destination}`;
  return schedule.queueName ? `${target} via queue ${schedule.queueName}` : target;
}

export function filterSchedules(list: Schedule[], search: string, state: StateFilter): Schedule[] {
  return filterList(list, { search, state });
}

/** The next `count` fire times of a schedule (none while paused), computed here with the same cron rules. */
export function nextFireTimes(schedule: Schedule, now: number, count = 5): number[] {
  if (schedule.isPaused) return [];
  return previewTicks(
    { cron: fieldsOf(schedule.cron), timezone: zoneOf(schedule.cron).replace(/^UTC$/, '') },
    now,
    count,
  );
}

/** A fire time in the schedule's zone and in local time, for a tooltip. */
export function formatInZone(time: number, zone: string): string {
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  };
  return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: zone === 'UTC' ? 'UTC' : zone }).format(
    time,
  );
}
