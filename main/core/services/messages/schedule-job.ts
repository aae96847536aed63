// The schedules' job plan: pause, resume or delete many. The service has no bulk endpoint and no filter for
// schedules, so the listing is one request (every schedule, filtered here with the list's own rules) and
// each chunk is one request per schedule; one that is already gone (404) counts as skipped.
import type { ParsedInputOf } from '../../../../shared/bridge/procedures';
import { filterSchedules } from '../../../../shared/messages/schedule-filter';
import { type JobPlan, oneByOne, skipIfGone } from '../../jobs/plan';
import type { MessageClient } from './client';

type Input = ParsedInputOf<'messages.schedules.job'>;

export function scheduleJobPlan(client: (profileId: string) => MessageClient): JobPlan<Input> {
  return {
    service: 'messages',
    noun: ['schedule', 'schedules'],
    action: (input) => input.action,
    scan: async ({ profileId, target }, _cursor, signal) => {
      const all = await client(profileId).schedules(signal);
      const matching = 'filters' in target ? filterSchedules(all, target.filters) : all;
      return { items: matching.map((schedule) => schedule.scheduleId) };
    },
    act: (chunk, { profileId, action }, _start, context) => {
      const api = client(profileId);
      return oneByOne(chunk, context, (id) =>
        skipIfGone(() =>
          action === 'delete' ? api.deleteSchedule(id) : api.setSchedulePaused(id, action === 'pause'),
        ),
      );
    },
  };
}
