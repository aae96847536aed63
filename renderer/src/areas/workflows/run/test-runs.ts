// Run logs for the Workflows area's unit tests.
import type { NextStepLog, StepLog, WorkflowRunLog } from '../../../../../shared/workflows/types';

export const T0 = 1_700_000_000_000;

export function step(over: Partial<StepLog> & Pick<StepLog, 'stepName'>): StepLog {
  return {
    stepType: 'Run',
    callType: 'step',
    messageId: `msg_${over.stepName}`,
    state: 'STEP_SUCCESS',
    createdAt: T0,
    concurrent: 1,
    retries: 3,
    ...over,
  };
}

export function run(over: Partial<WorkflowRunLog> = {}): WorkflowRunLog {
  return {
    workflowRunId: 'wfr_a',
    workflowUrl: 'http://127.0.0.1:3000/wf',
    workflowState: 'RUN_SUCCESS',
    workflowRunCreatedAt: T0,
    workflowRunCompletedAt: T0 + 20_000,
    steps: [
      { type: 'sequential', steps: [step({ stepName: 'init', stepType: 'Initial', createdAt: T0 })] },
      { type: 'sequential', steps: [step({ stepName: 'A', createdAt: T0 + 1_000 })] },
      {
        type: 'parallel',
        steps: [
          step({ stepName: 'B', createdAt: T0 + 3_000, concurrent: 2, stepId: 2 }),
          step({
            stepName: 'C',
            createdAt: T0 + 2_000,
            concurrent: 2,
            stepId: 3,
            stepType: 'Call',
            callUrl: 'https://x',
          }),
        ],
      },
      {
        type: 'sequential',
        steps: [step({ stepName: 'S', stepType: 'SleepFor', sleepFor: 10, createdAt: T0 + 4_000 })],
      },
      { type: 'sequential', steps: [step({ stepName: 'done', createdAt: T0 + 15_000 })] },
    ],
    ...over,
  };
}

/** A run still going: its Initial step done, `next` the step being delivered, retried or waiting. */
export function activeRun(next: NextStepLog): WorkflowRunLog {
  return run({
    workflowState: 'RUN_STARTED',
    workflowRunCompletedAt: undefined,
    steps: [
      { type: 'sequential', steps: [step({ stepName: 'init', stepType: 'Initial' })] },
      { type: 'next', steps: [next] },
    ],
  });
}

/** A run whose `charge` step failed twice (HTTP 503, at T0 + 1 s and + 4 s) and is retried at T0 + 9 s. */
export function retryingChargeRun(): WorkflowRunLog {
  const attempt = (time: number) => ({ error: 'HTTP 503', body: '', headers: {}, status: 503, time });
  return activeRun({
    messageId: 'msg_n',
    stepName: 'charge',
    stepType: 'Run',
    state: 'STEP_RETRY',
    retries: 3,
    nextDeliveryTime: T0 + 9_000,
    errors: [attempt(T0 + 1_000), attempt(T0 + 4_000)],
  });
}
