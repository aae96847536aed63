// Every handler of the workflow service (`workflows.*`), composed here and nowhere else, all over one
// client (client.ts, on the message API's ServiceApi): the run explorer (runs.ts), cancelling runs as a
// job (run-cancel-job.ts), the DLQ's triage (dlq-triage.ts) and job (dlq-job.ts), and the saved views
// (views.ts, stored by store.ts). console-core.ts spreads this into its handler table.
import { join } from 'node:path';
import type { Handlers } from '../../bridge/router';
import { ServiceApi } from '../../http/service-api';
import type { JobHandlerDeps, StoringHandlerDeps } from '../handler-deps';
import { messageEndpoint } from '../messages/client';
import { WorkflowClient } from './client';
import { workflowDlqJobPlan } from './dlq-job';
import { dlqTriageHandlers } from './dlq-triage';
import { fromLegacyJob } from './legacy-jobs';
import { runCancelJobPlan } from './run-cancel-job';
import { runHandlers } from './runs';
import { WorkflowsStore } from './store';
import { viewHandlers } from './views';

export function workflowHandlers({
  profiles,
  dataDir,
  warn,
  now = Date.now,
  jobs,
}: StoringHandlerDeps & JobHandlerDeps & { now?: () => number }) {
  const client = (profileId: string) =>
    new WorkflowClient(new ServiceApi(messageEndpoint(profiles.resolve(profileId))));
  const profileName = (profileId: string) => {
    try {
      return profiles.resolve(profileId).settings.name;
    } catch {
      return profileId;
    }
  };
  // workflows.json holds the saved views; a journal of the old per-service jobs in it is handed over once
  // to the one job journal.
  const store = new WorkflowsStore(join(dataDir, 'workflows.json'), now, warn, (legacy) => {
    for (const job of legacy) jobs.journal.adopt(fromLegacyJob(job, profileName));
  });

  return {
    ...runHandlers(client),
    'workflows.runs.job': jobs.handler('workflows.runs.job', runCancelJobPlan(client)),
    ...dlqTriageHandlers(client),
    'workflows.dlq.job': jobs.handler('workflows.dlq.job', workflowDlqJobPlan(client)),
    ...viewHandlers(store),
  } satisfies Partial<Handlers>;
}
