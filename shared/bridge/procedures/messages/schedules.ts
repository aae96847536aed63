// Schedules: list, get, create or update (from the schedule editor's model, shared/messages/schedule-form.ts),
// pause and resume, delete, and trigger now; pause, resume or delete many as a job (main/core/jobs).
import { z } from 'zod';
import { SCHEDULE_STATE_FILTERS } from '../../../messages/schedule-filter';
import { scheduleFormSchema } from '../../../messages/schedule-form';
import type { Schedule } from '../../../messages/schedules';
import { call, job } from '../../define';
import { jobInput, type JobSummary, jobTargetSchema } from '../../job';
import { profileIdSchema as profileId } from '../../profile-id';
import { resourceNameSchema } from './names';

export const scheduleIdSchema = resourceNameSchema('schedule id');

/** The list's search and state filter (the service has none: main lists every schedule and filters). */
export const scheduleFiltersSchema = z.object({
  search: z.string().trim().max(500).optional(),
  state: z.enum(SCHEDULE_STATE_FILTERS).exclude(['all']).optional(),
});
export const scheduleTargetSchema = jobTargetSchema(scheduleFiltersSchema, {
  id: scheduleIdSchema,
  max: 10_000,
  what: 'schedule',
});
export type ScheduleTarget = z.input<typeof scheduleTargetSchema>;

/** How "trigger now" reached the service. */
export interface TriggerResult {
  messageIds: string[];
  /**
   * `local`: the local stack's trigger (the message carries the schedule's id, recorded as its last run).
   * `publish`: a plain publish of the schedule's message (the cloud has no trigger: no schedule id on it).
   */
  via: 'local' | 'publish';
}

export const scheduleProcedures = {
  'messages.schedules.list': call<Schedule[]>()(z.object({ profileId }), 'read'),
  'messages.schedules.get': call<Schedule>()(z.object({ profileId, scheduleId: scheduleIdSchema }), 'read'),
  /** Creates the schedule, or updates it in place when the form names an existing id. Answers it as stored. */
  'messages.schedules.save': call<Schedule>()(z.object({ profileId, form: scheduleFormSchema }), 'write', {
    invalidates: ['messages.schedules.list', 'messages.schedules.get'],
  }),
  'messages.schedules.setPaused': call<Schedule>()(
    z.object({ profileId, scheduleId: scheduleIdSchema, paused: z.boolean() }),
    'write',
    { invalidates: ['messages.schedules.list', 'messages.schedules.get'] },
  ),
  'messages.schedules.delete': call<{ deleted: string }>()(
    z.object({ profileId, scheduleId: scheduleIdSchema }),
    'write',
    { invalidates: ['messages.schedules.list', 'messages.schedules.get'] },
  ),
  'messages.schedules.trigger': call<TriggerResult>()(
    z.object({ profileId, scheduleId: scheduleIdSchema }),
    'write',
    { invalidates: ['messages.schedules.list', 'messages.schedules.get', 'messages.logs.list'] },
  ),
  /** Pause, resume or delete many: the selected ones, every one the filter matches, or all (a job). */
  'messages.schedules.job': job<JobSummary>()(
    jobInput({ action: z.enum(['pause', 'resume', 'delete']), target: scheduleTargetSchema }),
    'write',
    { invalidates: ['messages.schedules.list', 'messages.schedules.get', 'jobs.list'] },
  ),
};
