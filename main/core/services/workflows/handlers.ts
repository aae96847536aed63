// The `workflows.*` procedures: the run explorer (runs.ts), cancelling runs as a job (run-cancel-job.ts),
// the workflow DLQ — list, triage groups, and its job (dlq-job.ts) — and the saved views (store.ts).
import { join } from 'node:path';
import {
  TRIAGE_SCAN_LIMIT,
  type workflowDlqProcedures,
  WORKFLOW_DLQ_PAGE,
} from '../../../../shared/bridge/procedures/workflows/dlq';
import type { WorkflowDlqFilters } from '../../../../shared/bridge/procedures/workflows/filters';
import type { viewProcedures } from '../../../../shared/bridge/procedures/workflows/views';
import type { WorkflowDlqMessage } from '../../../../shared/workflows/types';
import type { Handlers } from '../../bridge/router';
import type { JobHandlerDeps, StoringHandlerDeps } from '../handler-deps';
import { ServiceApi } from '../../http/service-api';
import { messageEndpoint } from '../messages/client';
import { WorkflowClient } from './client';
import { workflowDlqJobPlan } from './dlq-job';
import { groupFailures } from './failure-groups';
import { fromLegacyJob } from './legacy-jobs';
import { runCancelJobPlan } from './run-cancel-job';
import { runHandlers } from './runs';
import { WorkflowsStore } from './store';

type Names = keyof typeof workflowDlqProcedures | keyof typeof viewProcedures | 'workflows.runs.job';

/** Every DLQ entry a filter matches, page by page, up to `limit` (the triage groups). */
export async function scanDlq(
  client: WorkflowClient,
  filters: WorkflowDlqFilters,
  limit = TRIAGE_SCAN_LIMIT,
): Promise<{ entries: WorkflowDlqMessage[]; capped: boolean }> {
  const entries: WorkflowDlqMessage[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.listDlq(filters, { cursor, count: WORKFLOW_DLQ_PAGE });
    for (const entry of page.messages) {
      if (seen.has(entry.dlqId)) continue;
      seen.add(entry.dlqId);
      entries.push(entry);
    }
    if (entries.length >= limit) return { entries: entries.slice(0, limit), capped: true };
    cursor = page.cursor && page.cursor !== cursor && page.messages.length > 0 ? page.cursor : undefined;
  } while (cursor);
  return { entries, capped: false };
}

export function workflowHandlers({
  profiles,
  dataDir,
  warn,
  now = Date.now,
  jobs,
}: StoringHandlerDeps &
  JobHandlerDeps & {
    now?: () => number;
  }): Pick<Handlers, Names | keyof ReturnType<typeof runHandlers>> {
  const client = (profileId: string) =>
    new WorkflowClient(new ServiceApi(messageEndpoint(profiles.resolve(profileId))));
  const profileName = (profileId: string) => {
    try {
      return profiles.resolve(profileId).settings.name;
    } catch {
      return profileId;
    }
  };
  const store = new WorkflowsStore(join(dataDir, 'workflows.json'), now, warn, (legacy) => {
    for (const job of legacy) jobs.journal.adopt(fromLegacyJob(job, profileName));
  });

  return {
    ...runHandlers(client),
    'workflows.runs.job': jobs.handler('workflows.runs.job', runCancelJobPlan(client)),

    'workflows.dlq.list': async ({ profileId, filters, cursor }) =>
      client(profileId).listDlq(filters, { cursor, count: WORKFLOW_DLQ_PAGE }),
    'workflows.dlq.groups': async ({ profileId, filters }) => {
      const { entries, capped } = await scanDlq(client(profileId), filters);
      return { groups: groupFailures(entries), scanned: entries.length, capped };
    },
    'workflows.dlq.job': jobs.handler('workflows.dlq.job', workflowDlqJobPlan(client)),

    'workflows.views.list': ({ profileId }) => store.views(profileId),
    'workflows.views.save': ({ profileId, name, filters }) => store.saveView(profileId, name, filters),
    'workflows.views.delete': ({ profileId, id }) => ({ deleted: store.deleteView(profileId, id) }),
  };
}
