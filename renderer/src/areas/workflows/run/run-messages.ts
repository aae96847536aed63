// The messages of one workflow run, for "Messages in logs": every step's message (sequential, parallel
// and the in-flight `next` group) and the failure callback's, newest step first, each id once.
import type { WorkflowRunLog } from '../../../../../shared/workflows/types';

export function runMessageIds(run: WorkflowRunLog): string[] {
  const ids: string[] = [];
  for (const group of run.steps) for (const step of group.steps) ids.push(step.messageId);
  if (run.failureFunction) ids.push(run.failureFunction.messageId);
  return [...new Set(ids.filter(Boolean).reverse())];
}
