// Which schedules a search and a state filter match, and how a schedule's last run went. The service has no
// schedule filters: the console's list and main's job plan (pause/resume/delete many) both filter with this.
import { describeCron } from './cron-words';
import type { Schedule, ScheduleRunState } from './schedules';

export const SCHEDULE_STATE_FILTERS = ['all', 'active', 'paused', 'failing'] as const;
export type ScheduleStateFilter = (typeof SCHEDULE_STATE_FILTERS)[number];

export interface ScheduleFilters {
  /** Words that must all appear in the id, cron (and its words), zone, destination, queue or labels. */
  search?: string;
  state?: ScheduleStateFilter;
}

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

export function filterSchedules(list: Schedule[], filters: ScheduleFilters): Schedule[] {
  const words = (filters.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const state = filters.state ?? 'all';
  return list.filter((schedule) => {
    if (state === 'active' && schedule.isPaused) return false;
    if (state === 'paused' && !schedule.isPaused) return false;
    if (state === 'failing' && !isFailing(schedule)) return false;
    if (words.length === 0) return true;
    const text = searchText(schedule);
    return words.every((word) => text.includes(word));
  });
}
