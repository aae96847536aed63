// Cancelling many workflow runs as a job: the runs picked in the list, every active run the list's
// filters match, or — chosen and confirmed — every active run. The preview lists the active runs (by the
// run logs, page by page), and the job cancels exactly those, by id, in chunks.
import { z } from 'zod';
import { job } from '../../define';
import { listIdSchema } from '../../list-ids';
import { jobInput, type JobSummary, jobTargetSchema } from '../../job';
import { runFiltersSchema } from './filters';

const runId = listIdSchema(300);

export const runCancelProcedures = {
  'workflows.runs.job': job<JobSummary>()(
    jobInput({
      action: z.literal('cancel').default('cancel'),
      target: jobTargetSchema(runFiltersSchema, { id: runId, max: 10_000, what: 'run' }),
    }),
    'write',
    { invalidates: ['workflows.runs.list', 'workflows.runs.get', 'jobs.list'] },
  ),
};
