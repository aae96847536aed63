// Run, step and failure-function states as badges, one wording and one tone per state everywhere.
import type { FailureFunctionState, RunState, StepState } from '../../../../shared/workflows/types';
import { Badge } from '../../ui/misc';

type Tone = 'success' | 'warning' | 'danger' | 'info' | undefined;

const STATES: Record<RunState | StepState | FailureFunctionState, [string, Tone]> = {
  RUN_STARTED: ['Running', 'info'],
  RUN_SUCCESS: ['Succeeded', 'success'],
  RUN_FAILED: ['Failed', 'danger'],
  RUN_CANCELED: ['Canceled', undefined],
  STEP_SUCCESS: ['Success', 'success'],
  STEP_RETRY: ['Retrying', 'warning'],
  STEP_FAILED: ['Failed', 'danger'],
  STEP_PROGRESS: ['In progress', 'info'],
  STEP_CANCELED: ['Canceled', undefined],
  CALLBACK_INPROGRESS: ['Callback running', 'info'],
  CALLBACK_SUCCESS: ['Callback succeeded', 'success'],
  CALLBACK_FAIL: ['Callback failed', 'danger'],
  CALLBACK_CANCELED: ['Callback canceled', undefined],
};

export function stateLabel(state: string): string {
  return STATES[state as RunState]?.[0] ?? state;
}

export function WorkflowStateBadge({ state }: { state: string }) {
  const [label, tone] = STATES[state as RunState] ?? [state, undefined];
  return (
    <span data-state={state}>
      <Badge tone={tone}>{label}</Badge>
    </span>
  );
}
