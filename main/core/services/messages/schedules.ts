// Schedules: list, get, save (create or update in place), pause and resume, delete, trigger now, and the job
// that pauses, resumes or deletes many (schedule-job.ts). Requests are
// built by the same pure functions the schedule editor previews (shared/messages/schedule-form.ts); a change
// answers nothing the console needs, so the handlers read the schedule back and answer it as stored.
import { BridgeError } from '../../../../shared/bridge/errors';
import type { scheduleProcedures } from '../../../../shared/bridge/procedures/messages/schedules';
import { buildPublishRequest, ComposerError } from '../../../../shared/composer/request';
import { buildScheduleRequest, scheduleToForm } from '../../../../shared/messages/schedule-form';
import { LOCAL_PROFILE_ID } from '../../../../shared/profiles';
import type { Handlers } from '../../bridge/router';
import type { JobHandlerDeps } from '../handler-deps';
import { clientsFor } from './client';
import { scheduleJobPlan } from './schedule-job';

type Names = keyof typeof scheduleProcedures;

function invalid<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof ComposerError) {
      throw new BridgeError({ code: 'INVALID_INPUT', message: error.message, fields: { ...error.fields } });
    }
    throw error;
  }
}

export function scheduleHandlers({
  profiles,
  jobs,
  now = Date.now,
}: JobHandlerDeps & { now?: () => number }): Pick<Handlers, Names> {
  const client = clientsFor(profiles);
  return {
    'messages.schedules.list': ({ profileId }) => client(profileId).schedules(),
    'messages.schedules.get': ({ profileId, scheduleId }) => client(profileId).schedule(scheduleId),
    'messages.schedules.save': async ({ profileId, form }) => {
      const request = invalid(() => buildScheduleRequest(form, now()));
      const messages = client(profileId);
      return messages.schedule(await messages.createSchedule(request));
    },
    'messages.schedules.setPaused': async ({ profileId, scheduleId, paused }) => {
      const messages = client(profileId);
      await messages.setSchedulePaused(scheduleId, paused);
      return messages.schedule(scheduleId);
    },
    'messages.schedules.delete': async ({ profileId, scheduleId }) => {
      await client(profileId).deleteSchedule(scheduleId);
      return { deleted: scheduleId };
    },
    'messages.schedules.trigger': async ({ profileId, scheduleId }) => {
      const messages = client(profileId);
      // The local stack fires the schedule itself (its id on the message, recorded as its last run); the
      // real service has no trigger, so elsewhere this publishes the schedule's message as its record shows it.
      if (profileId === LOCAL_PROFILE_ID) {
        return { messageIds: await messages.triggerScheduleLocally(scheduleId), via: 'local' };
      }
      const { form } = scheduleToForm(await messages.schedule(scheduleId));
      const sent = await messages.publish(invalid(() => buildPublishRequest(form.message, now())));
      return { messageIds: sent.messages.map((message) => message.messageId), via: 'publish' };
    },
    'messages.schedules.job': jobs.handler('messages.schedules.job', scheduleJobPlan(client)),
  };
}
