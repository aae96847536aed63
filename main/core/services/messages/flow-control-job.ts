// The job plan of pausing, resuming or resetting the rate of many flow-control keys. The service has no
// bulk form for keys, so the listing is one request (every key, narrowed by the service's `?search=`),
// filtered with the Flow control list's own rule (shared/messages/flow-control.ts), and each chunk is one
// request per key. A key the service no longer knows (404) counts as already gone.
import type { ParsedInputOf } from '../../../../shared/bridge/procedures';
import { matchesFlowKey } from '../../../../shared/messages/flow-control';
import { filtersOf, type JobPlan, oneByOne, skipIfGone } from '../../jobs/plan';
import type { FlowControlClient } from './flow-control-client';

type Input = ParsedInputOf<'messages.flowControl.job'>;

export function flowKeyJobPlan(client: (profileId: string) => FlowControlClient): JobPlan<Input> {
  return {
    service: 'messages',
    noun: ['flow-control key', 'flow-control keys'],
    action: (input) => input.action,
    scan: async ({ profileId, target }, _cursor, signal) => {
      const filters = filtersOf(target);
      const { keys } = await client(profileId).list(filters.search, signal);
      return { items: keys.filter((key) => matchesFlowKey(key, filters)).map((key) => key.flowControlKey) };
    },
    act: (chunk, { profileId, action }, _start, context) => {
      const flows = client(profileId);
      return oneByOne(chunk, context, (key) =>
        skipIfGone(() =>
          action === 'resetRate' ? flows.resetRate(key) : flows.setPaused(key, action === 'pause'),
        ),
      );
    },
  };
}
