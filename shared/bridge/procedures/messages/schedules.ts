// Schedules: list, get, create or update (from the schedule editor's model, shared/messages/schedule-form.ts),
// pause and resume, delete, and trigger now. Many at once is a job (the bulk runner), not a call here.
import { z } from 'zod';
import { scheduleFormSchema } from '../../../messages/schedule-form';
import type { Schedule } from '../../../messages/schedules';
import { call } from '../../define';
import { profileIdSchema as profileId } from '../../profile-id';
import { resourceNameSchema } from './names';

export const scheduleIdSchema = resourceNameSchema('schedule id');

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
};
