// The job plan of cancelling workflow runs: the listing reads the run logs with the list's filters (only
// active runs: `RUN_STARTED` unless the filter asks for a step state, and then only the runs still active),
// page by page; each chunk is one cancel request by ids. A run that finished meanwhile is not cancelled:
// the service counts only what it cancelled, so the rest are "already gone".
import type { ParsedInputOf } from '../../../../shared/bridge/procedures';
import { countedOutcome, filtersOf, type JobPlan } from '../../jobs/plan';
import type { WorkflowClient } from './client';

type Input = ParsedInputOf<'workflows.runs.job'>;

export function runCancelJobPlan(client: (profileId: string) => WorkflowClient): JobPlan<Input, unknown> {
  return {
    service: 'workflows',
    noun: ['active run', 'active runs'],
    action: () => 'cancel',
    scan: async ({ profileId, target }, cursor, signal) => {
      const filters = filtersOf(target);
      const page = await client(profileId).logs(
        { ...filters, state: filters.state ?? 'RUN_STARTED' },
        { cursor, trimBody: 0, signal },
      );
      const active = page.runs.filter((run) => run.workflowState === 'RUN_STARTED');
      return { items: active.map((run) => run.workflowRunId), cursor: page.cursor };
    },
    act: async (chunk, { profileId }) => {
      return countedOutcome(chunk, (await client(profileId).cancel(chunk)).cancelled);
    },
  };
}
