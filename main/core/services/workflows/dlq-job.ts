// The workflow DLQ's job plan: restart or resume (a new run each, with the overrides the start carries),
// delete, or retry the failure function of many failed runs. The runner lists the entries (the DLQ page
// by page) and runs the chunks; this says how: restart, resume and delete take a chunk of ids per request
// (a 404 — some entries gone — falls back to one request per entry, so each gets its own outcome); the
// failure function is retried one entry at a time (the API has no bulk form), and never twice for one entry
// when the service fails mid-way (it would call the failure function twice) — unless the failure proves
// the request never left (a refused connection, DNS): then it is sent again once the service is back.
import type { ParsedInputOf, ParsedStartOf } from '../../../../shared/bridge/procedures';
import { WORKFLOW_DLQ_PAGE } from '../../../../shared/bridge/procedures/workflows/dlq';
import {
  bulkOrOneByOne,
  type ChunkOutcome,
  countedOutcome,
  filtersOf,
  type JobPlan,
  oneByOne,
} from '../../jobs/plan';
import type { WorkflowDlqFilters } from '../../../../shared/bridge/procedures/workflows/filters';
import type { WorkflowClient } from './client';

type Input = ParsedInputOf<'workflows.dlq.job'>;
type Start = ParsedStartOf<'workflows.dlq.job'>;

export function workflowDlqJobPlan(client: (profileId: string) => WorkflowClient): JobPlan<Input, Start> {
  return {
    service: 'workflows',
    noun: ['failed run', 'failed runs'],
    action: (input, start) => actionOf(input, start),
    scan: async ({ profileId, target, action }, cursor, signal) => {
      const filters = action === 'callback' ? withFailedCallback(filtersOf(target)) : filtersOf(target);
      if (filters === undefined) return { items: [] };
      const page = await client(profileId).listDlq(filters, {
        cursor,
        count: WORKFLOW_DLQ_PAGE,
        signal,
      });
      return { items: page.messages.map((entry) => entry.dlqId), cursor: page.cursor };
    },
    act: async (chunk, input, start, context) => {
      const api = client(input.profileId);
      const action = actionOf(input, start);
      // A failure callback is sent again each time it is asked: after a failure that may have come once the
      // service acted (a reset, a 5xx), that entry is not asked again (oneByOne's `repeatable`); after one
      // that proves the request was never sent (refused, DNS), it is.
      if (action === 'callback') {
        return oneByOne(chunk, context, (dlqId) => callback(api, dlqId), { repeatable: false });
      }
      return bulkOrOneByOne(chunk, context, (ids) =>
        action === 'delete' ? remove(api, ids) : rerun(api, action, ids, start),
      );
    },
  };
}

/**
 * The callback job's listing: only runs whose failure function failed, since the service sends no other
 * callback again (400 while one is in flight, after it succeeded, or for a run without a failure function).
 * So the preview counts what the job can do, and a filter over the whole DLQ does not end in a column of
 * refusals. Undefined when the user's own state filter leaves out failed callbacks: nothing to list.
 */
function withFailedCallback(filters: Partial<WorkflowDlqFilters>): Partial<WorkflowDlqFilters> | undefined {
  const wanted = filters.failureFunctionState;
  if (wanted && !wanted.includes('CALLBACK_FAIL')) return undefined;
  return { ...filters, failureFunctionState: ['CALLBACK_FAIL'] };
}

function actionOf(input: Input, start: Start | undefined) {
  return input.action === 'restart' || input.action === 'resume'
    ? (start?.action ?? input.action)
    : input.action;
}

async function rerun(
  api: WorkflowClient,
  action: 'restart' | 'resume',
  dlqIds: readonly string[],
  start: Start,
): Promise<ChunkOutcome> {
  const { workflowRuns } = await api.restartOrResumeDlq(action, dlqIds, start.overrides);
  return {
    ...countedOutcome(dlqIds, workflowRuns.length),
    created: workflowRuns.map((run) => ({ id: run.workflowRunId, createdAt: run.workflowCreatedAt })),
  };
}

async function remove(api: WorkflowClient, dlqIds: readonly string[]): Promise<ChunkOutcome> {
  // The service counts; it does not say which entries were already gone.
  return countedOutcome(dlqIds, (await api.deleteDlqMany(dlqIds)).deleted);
}

async function callback(api: WorkflowClient, dlqId: string): Promise<ChunkOutcome> {
  const result = await api.retryDlqCallback(dlqId);
  if (result.error) return { succeeded: 0, failures: [{ id: dlqId, message: result.error }] };
  return { succeeded: 1, created: [{ id: result.workflowRunId, createdAt: result.workflowCreatedAt }] };
}
