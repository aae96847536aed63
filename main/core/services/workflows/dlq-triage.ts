// The workflow DLQ as the triage screen reads it: a page of failed runs, and the triage groups (by URL +
// failing step + status + error signature) over every entry a filter matches. Acting on many entries is the
// DLQ job (dlq-job.ts).
import {
  TRIAGE_SCAN_LIMIT,
  type workflowDlqProcedures,
  WORKFLOW_DLQ_PAGE,
} from '../../../../shared/bridge/procedures/workflows/dlq';
import type { WorkflowDlqFilters } from '../../../../shared/bridge/procedures/workflows/filters';
import type { WorkflowDlqMessage } from '../../../../shared/workflows/types';
import type { Handlers } from '../../bridge/router';
import type { WorkflowClient } from './client';
import { groupFailures } from './failure-groups';

type Names = Exclude<keyof typeof workflowDlqProcedures, 'workflows.dlq.job'>;

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

export function dlqTriageHandlers(client: (profileId: string) => WorkflowClient): Pick<Handlers, Names> {
  return {
    'workflows.dlq.list': async ({ profileId, filters, cursor }) =>
      client(profileId).listDlq(filters, { cursor, count: WORKFLOW_DLQ_PAGE }),
    'workflows.dlq.groups': async ({ profileId, filters }) => {
      const { entries, capped } = await scanDlq(client(profileId), filters);
      return { groups: groupFailures(entries), scanned: entries.length, capped };
    },
  };
}
