// The job plan of pausing, resuming or resetting the rate of many flow-control keys. The service has no
// bulk form for keys, so the listing is one request (every key, narrowed by the service's `?search=`),
// filtered with the Flow control list's own rule (shared/messages/flow-control.ts), and each chunk is one
// request per key. A key the service no longer knows (404) counts as already gone.
import { BridgeError } from '../../../../shared/bridge/errors';
import { JOB_CHUNK } from '../../../../shared/bridge/job';
import type { ParsedInputOf } from '../../../../shared/bridge/procedures';
import { matchesFlowKey } from '../../../../shared/messages/flow-control';
import { type JobPlan, oneByOne } from '../../jobs/plan';
import type { FlowControlClient } from './flow-control-client';

type Input = ParsedInputOf<'messages.flowControl.job'>;

export function flowKeyJobPlan(client: (profileId: string) => FlowControlClient): JobPlan<Input> {
  return {
    service: 'messages',
    noun: ['flow-control key', 'flow-control keys'],
    action: (input) => input.action,
    chunk: () => JOB_CHUNK,
    scan: async ({ profileId, target }, _cursor, signal) => {
      const filters = 'filters' in target ? target.filters : {};
      const { keys } = await client(profileId).list(filters.search, signal);
      return { items: keys.filter((key) => matchesFlowKey(key, filters)).map((key) => key.flowControlKey) };
    },
    act: (chunk, { profileId, action }, _start, context) => {
      const flows = client(profileId);
      return oneByOne(chunk, context, async (key) => {
        try {
          if (action === 'resetRate') await flows.resetRate(key);
          else await flows.setPaused(key, action === 'pause');
          return { succeeded: 1 };
        } catch (error) {
          if (error instanceof BridgeError && error.status === 404) return { succeeded: 0, skipped: 1 };
          throw error;
        }
      });
    },
  };
}
