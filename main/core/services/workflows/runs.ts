// The run explorer's handlers: pages of run summaries (following several service pages of 10 per bridge
// call, so the list loads ahead), one run in full, cancel, notify and trigger.
import { BridgeError } from '../../../../shared/bridge/errors';
import type { RunSummary, runProcedures } from '../../../../shared/bridge/procedures/workflows/runs';
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
  };
  if (run.workflowRunCompletedAt) summary.workflowRunCompletedAt = run.workflowRunCompletedAt;
  if (run.flowControlKey) summary.flowControlKey = run.flowControlKey;
  if (run.workflowRunCallerIp) summary.callerIp = run.workflowRunCallerIp;
  if (run.dlqId) summary.dlqId = run.dlqId;
  if (currentStep && run.workflowState === 'RUN_STARTED') summary.currentStep = currentStep;
  if (failedStepName && run.workflowState === 'RUN_FAILED') summary.failedStepName = failedStepName;
  if (run.invoker?.workflowRunId) summary.invokerRunId = run.invoker.workflowRunId;
  if (run.failureFunction?.state) summary.failureFunctionState = run.failureFunction.state;
  return summary;
}

export function runHandlers(client: (profileId: string) => WorkflowClient): Pick<Handlers, Names> {
  return {
    'workflows.runs.list': async ({ profileId, filters, cursor, pages }) => {
      const api = client(profileId);
      const runs: RunSummary[] = [];
      let next = cursor;
      for (let page = 0; page < pages; page += 1) {
        const result = await api.logs(filters, { cursor: next });
        runs.push(...result.runs.map(summarizeRun));
        // A cursor that does not move would loop forever; treat it as the end.
        next = result.cursor && result.cursor !== next ? result.cursor : undefined;
        if (!next) break;
      }
      return next ? { runs, cursor: next } : { runs };
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
