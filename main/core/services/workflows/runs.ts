// The run explorer's handlers: pages of run summaries (following several service pages of 10 per bridge
// call, so the list loads ahead), one run in full, cancel, notify and trigger.
import { BridgeError } from '../../../../shared/bridge/errors';
import type { RunSummary, runProcedures } from '../../../../shared/bridge/procedures/workflows/runs';
import { LOCAL_PROFILE_ID } from '../../../../shared/profiles';
import { explainRun } from '../../../../shared/workflows/explain';
import type { WorkflowRunLog } from '../../../../shared/workflows/types';
import type { Handlers } from '../../bridge/router';
import type { WorkflowClient } from './client';

type Names = keyof typeof runProcedures;

/** What the run list shows of a run. */
export function summarizeRun(run: WorkflowRunLog): RunSummary {
  const groups = Array.isArray(run.steps) ? run.steps : [];
  let stepCount = 0;
  let failedStepName: string | undefined;
  let currentStep: RunSummary['currentStep'];
  for (const group of groups) {
    if (group.type === 'next') {
      const step = group.steps[0];
      if (step) {
        currentStep = { ...(step.stepName ? { name: step.stepName } : {}), state: step.state };
        if (step.state === 'STEP_FAILED' && step.stepName) failedStepName = step.stepName;
      }
      continue;
    }
    for (const step of group.steps) {
      stepCount += 1;
      if (step.state === 'STEP_FAILED') failedStepName = step.stepName;
    }
  }
  const labels = run.labels?.length ? run.labels : run.label ? [run.label] : [];
  const summary: RunSummary = {
    workflowRunId: run.workflowRunId,
    workflowUrl: run.workflowUrl,
    workflowState: run.workflowState,
    workflowRunCreatedAt: run.workflowRunCreatedAt,
    labels,
    stepCount,
    reasons: explainRun(run),
  };
  if (run.workflowRunCompletedAt) summary.workflowRunCompletedAt = run.workflowRunCompletedAt;
  if (run.flowControlKey) summary.flowControlKey = run.flowControlKey;
  if (run.workflowRunCallerIp) summary.callerIp = run.workflowRunCallerIp;
  if (run.dlqId) summary.dlqId = run.dlqId;
  if (currentStep && run.workflowState === 'RUN_STARTED') summary.currentStep = currentStep;
  if (failedStepName && run.workflowState === 'RUN_FAILED') summary.failedStepName = failedStepName;
  if (run.invoker?.workflowRunId) summary.invokerRunId = run.invoker.workflowRunId;
  if (run.failureFunction?.state) summary.failureFunctionState = run.failureFunction.state;
  for (const event of run.history ?? []) {
    if (event.kind === 'triggered') {
      summary.triggeredBy = event.source;
      if (event.restartedFrom) {
        const { workflowRunId, workflowRunCreatedAt } = event.restartedFrom;
        summary.restartedFrom = { workflowRunId, workflowRunCreatedAt };
      }
      if (event.resumedFrom) {
        const { workflowRunId, workflowRunCreatedAt } = event.resumedFrom;
        summary.resumedFrom = { workflowRunId, workflowRunCreatedAt };
      }
    }
  }
  return summary;
}

/** True when the run's payload, outputs, call bodies, errors or response contain every word of `text`. */
export function runMatches(run: WorkflowRunLog, text: string): boolean {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return true;
  const haystack = [
    run.workflowRunResponse,
    run.failureFunction?.failResponse,
    ...run.steps.flatMap((group) =>
      group.steps.flatMap((step) => [
        'out' in step ? step.out : undefined,
        'callBody' in step ? step.callBody : undefined,
        'callResponseBody' in step ? step.callResponseBody : undefined,
        ...(step.errors ?? []).flatMap((error) => [error.error, error.body]),
      ]),
    ),
  ]
    .filter((part): part is string => typeof part === 'string')
    .join('\n')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** Bodies main reads per run when it searches the real service's pages itself. */
const CLOUD_SEARCH_TRIM = 4096;

export function runHandlers(
  client: (profileId: string) => WorkflowClient,
  /** True for the built-in Local profile (the local stack, with its local-only endpoints). */
  isLocal: (profileId: string) => boolean = (profileId) => profileId === LOCAL_PROFILE_ID,
): Pick<Handlers, Names> {
  return {
    'workflows.runs.list': async ({ profileId, filters, cursor, pages, search }) => {
      const api = client(profileId);
      const text = search?.trim() || undefined;
      // The local stack has a text index; the real service has none, so main searches the pages it reads.
      const indexed = text !== undefined && isLocal(profileId);
      const runs: RunSummary[] = [];
      let searched = 0;
      let next = cursor;
      for (let page = 0; page < pages; page += 1) {
        const result = indexed
          ? await api.search(text, filters, { cursor: next })
          : await api.logs(filters, { cursor: next, ...(text ? { trimBody: CLOUD_SEARCH_TRIM } : {}) });
        searched += result.runs.length;
        const kept = text && !indexed ? result.runs.filter((run) => runMatches(run, text)) : result.runs;
        runs.push(...kept.map(summarizeRun));
        // A cursor that does not move would loop forever; treat it as the end.
        next = result.cursor && result.cursor !== next ? result.cursor : undefined;
        if (!next) break;
      }
      const scope = text
        ? { search: indexed ? { scope: 'index' as const } : { scope: 'loaded' as const, searched } }
        : {};
      return next ? { runs, cursor: next, ...scope } : { runs, ...scope };
    },
    'workflows.runs.get': async ({ profileId, workflowRunId, workflowCreatedAt, trimBody }) => {
      const run = await client(profileId).run(workflowRunId, workflowCreatedAt, trimBody);
      if (!run) {
        throw new BridgeError({
          code: 'NOT_FOUND',
          message: `No workflow run ${workflowRunId}${workflowCreatedAt ? ` created at ${new Date(workflowCreatedAt).toISOString()}` : ''}: it may have been removed by retention.`,
        });
      }
      return run;
    },
    'workflows.runs.cancel': ({ profileId, workflowRunIds }) => client(profileId).cancel(workflowRunIds),
    'workflows.runs.notify': ({ profileId, eventId, eventData, workflowRunId }) =>
      client(profileId).notify(eventId, eventData, workflowRunId),
    'workflows.runs.trigger': ({ profileId, ...input }) => client(profileId).trigger(input),
  };
}
