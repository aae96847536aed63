// The schedules' job plan: pause, resume or delete many. The service has no bulk endpoint and no filter for
// schedules, so the listing is one request (every schedule, filtered here with the list's own rules) and
// each chunk is one request per schedule; one that is already gone (404) counts as skipped.
import { BridgeError } from '../../../../shared/bridge/errors';
import { JOB_CHUNK, type JobFailure } from '../../../../shared/bridge/job';
import type { ParsedInputOf } from '../../../../shared/bridge/procedures';
import { filterSchedules } from '../../../../shared/messages/schedule-filter';
import { type ChunkOutcome, type JobPlan, messageOf } from '../../jobs/plan';
import type { MessageClient } from './client';

type Input = ParsedInputOf<'messages.schedules.job'>;

export function scheduleJobPlan(client: (profileId: string) => MessageClient): JobPlan<Input> {
  return {
    service: 'messages',
    noun: ['schedule', 'schedules'],
    action: (input) => input.action,
    chunk: () => JOB_CHUNK,
    scan: async ({ profileId, target }, _cursor, signal) => {
      const all = await client(profileId).schedules(signal);
      const matching = 'filters' in target ? filterSchedules(all, target.filters) : all;
      return { items: matching.map((schedule) => schedule.scheduleId) };
    },
    act: async (chunk, { profileId, action }, _start, context) => {
      const api = client(profileId);
      const outcome: Required<Pick<ChunkOutcome, 'succeeded' | 'skipped' | 'failures'>> = {
        succeeded: 0,
        skipped: 0,
        failures: [],
      };
      for (const id of chunk) {
        if (context.stopped()) {
          outcome.failures.push({ id, message: 'not attempted: the job was cancelled' });
          continue;
        }
        try {
          if (action === 'delete') await api.deleteSchedule(id);
          else await api.setSchedulePaused(id, action === 'pause');
          outcome.succeeded += 1;
        } catch (error) {
          if (error instanceof BridgeError && error.status === 404) outcome.skipped += 1;
          else outcome.failures.push({ id, message: messageOf(error) } satisfies JobFailure);
        }
      }
      return outcome;
    },
  };
}
