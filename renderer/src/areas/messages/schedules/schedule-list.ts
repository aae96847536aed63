// The Schedules list's pure parts: search and state filter, how each schedule's last run went, and the
// words a row shows. Server data stays in TanStack Query; this only derives what a row displays.
import { describeCron } from '../../../../../shared/messages/cron-words';
import { previewTicks, fieldsOf, zoneOf } from '../../../../../shared/messages/schedule-form';
import type { Schedule, ScheduleRunState } from '../../../../../shared/messages/schedules';

export const STATE_FILTERS = ['all', 'active', 'paused', 'failing'] as const;
export type StateFilter = (typeof STATE_FILTERS)[number];

export const STATE_FILTER_LABELS: Record<StateFilter, string> = {
  all: 'All',
  active: 'Active',
  paused: 'Paused',
  failing: 'Last run failed',
};

/** How the last run went: a count per state, and whether it could not publish at all. */
export interface RunSummary {
  total: number;
  counts: Record<ScheduleRunState, number>;
  error?: string;
}

export function runSummary(schedule: Schedule): RunSummary {
  const counts: Record<ScheduleRunState, number> = { IN_PROGRESS: 0, SUCCESS: 0, FAIL: 0 };
  const states = Object.values(schedule.lastScheduleStates ?? {});
  for (const state of states) counts[state] = (counts[state] ?? 0) + 1;
  return { total: states.length, counts, ...(schedule.error ? { error: schedule.error } : {}) };
}

export function isFailing(schedule: Schedule): boolean {
  const summary = runSummary(schedule);
  return summary.counts.FAIL > 0 || summary.error !== undefined;
}

/** Where a schedule publishes, as a row says it: the URL or `group <name>`, with its queue. */
export function destinationText(schedule: Schedule): string {
  const target = /^https?:\/\//i.test(schedule.destination)
    ? schedule.destination
    : schedule.destination === 'api/llm'
      ? 'api/llm'
      : `group ${schedule.destination}`;
  return schedule.queueName ? `${target} via queue ${schedule.queueName}` : target;
}

/** Everything a search matches: id, cron (and its words), zone, destination, queue, labels. */
function searchText(schedule: Schedule): string {
  return [
    schedule.scheduleId,
    schedule.cron,
    describeCron(schedule.cron),
    schedule.destination,
    schedule.queueName,
    ...(schedule.labels ?? []),
  ]
    .filter(Boolean)
    .join('\n')
    .toLowerCase();
}

export function filterSchedules(list: Schedule[], search: string, state: StateFilter): Schedule[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return list.filter((schedule) => {
    if (state === 'active' && schedule.isPaused) return false;
    if (state === 'paused' && !schedule.isPaused) return false;
    if (state === 'failing' && !isFailing(schedule)) return false;
    const text = searchText(schedule);
    return words.every((word) => text.includes(word));
  });
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
