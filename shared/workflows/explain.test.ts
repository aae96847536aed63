// "Why not done" from the real service's record alone (no local-only fields): what the console can say of a
// cloud run. The local stack's richer records are tested against a real serve() app in
// stack/workflows/run-page.test.ts.
import { describe, expect, it } from 'vitest';
import { explainRun, reasonText } from './explain';
import { runHistory } from './history';
import type { NextStepLog, WorkflowRunLog } from './types';

const T0 = 1_700_000_000_000;
const fmt = { time: (ms: number) => `t+${(ms - T0) / 1000}` };

function cloudRun(over: Partial<WorkflowRunLog>): WorkflowRunLog {
  return {
    workflowRunId: 'wfr_c',
    workflowUrl: 'https://app.example/wf',
    workflowState: 'RUN_STARTED',
    workflowRunCreatedAt: T0,
    steps: [
      {
        type: 'sequential',
        steps: [
          {
            stepName: 'init',
            stepType: 'Initial',
            callType: 'step',
            messageId: 'm0',
            state: 'STEP_SUCCESS',
            createdAt: T0,
            concurrent: 1,
            retries: 3,
          },
        ],
      },
    ],
    ...over,
  };
}

/** A cloud run past its trigger whose next step (the one not done yet) is `next`. */
function cloudRunAt(next: NextStepLog): WorkflowRunLog {
  return cloudRun({ steps: [...cloudRun({}).steps, { type: 'next', steps: [next] }] });
}

/** An attempt the app answered with the SDK's error body for `message`. */
function sdkError(message: string, time: number) {
  return {
    error: 'HTTP 500',
    body: JSON.stringify({ error: 'Error', message }),
    headers: {},
    status: 500,
    time,
  };
}

describe('explainRun from a cloud record', () => {
  it('a retrying next step: retry n of the step at its time after the SDK error', () => {
    const run = cloudRunAt({
      messageId: 'm1',
      stepName: 'charge',
      state: 'STEP_RETRY',
      retries: 3,
      nextDeliveryTime: T0 + 65_000,
      errors: [
        sdkError('503 payment gateway down', T0 + 5_000),
        sdkError('503 payment gateway down', T0 + 15_000),
      ],
    });
    expect(explainRun(run, T0 + 20_000).map((reason) => reasonText(reason, fmt))).toEqual([
      'Retry 2 of 3 of step `charge` at t+65 after `503 payment gateway down`',
    ]);
    const history = runHistory(run, T0 + 20_000);
    expect(history.complete).toBe(false);
    expect(history.entries.map((entry) => entry.title)).toEqual([
      'Triggered',
      'Attempt 1 of step `charge` failed: 500',
      'Attempt 2 of step `charge` failed: 500',
    ]);
  });

  it('a wait in progress and a sleep the service reports; a cancel without a "by whom"', () => {
    const waiting = cloudRunAt({
      messageId: '',
      stepName: 'approval',
      state: 'STEP_PROGRESS',
      retries: 3,
      createdAt: T0 + 1_000,
      waitEventId: 'approve-90',
      waitTimeoutDeadline: T0 + 3_601_000,
    });
    expect(reasonText(explainRun(waiting, T0)[0]!, fmt)).toBe(
      'Waiting for event `approve-90` since t+1 (times out t+3601)',
    );
    const canceled = cloudRun({ workflowState: 'RUN_CANCELED', workflowRunCompletedAt: T0 + 9_000 });
    expect(reasonText(explainRun(canceled)[0]!, fmt)).toBe(
      'Canceled (the service does not say by whom) at t+9',
    );
    expect(explainRun(cloudRun({ workflowState: 'RUN_SUCCESS' }))).toEqual([]);
  });

  it("shows a satisfied wait's event data as text (the protocol keeps it base64)", () => {
    const wait = (out: string) =>
      runHistory(
        cloudRun({
          steps: [
            ...cloudRun({}).steps,
            {
              type: 'sequential',
              steps: [
                {
                  stepName: 'approval',
                  stepType: 'Wait',
                  callType: 'step',
                  messageId: 'm2',
                  state: 'STEP_SUCCESS',
                  createdAt: T0 + 2_000,
                  concurrent: 1,
                  retries: 3,
                  out,
                  waitEventId: 'approve-90',
                  waitTimeout: false,
                },
              ],
            },
          ],
        }),
        T0 + 5_000,
      ).entries.find((entry) => entry.kind === 'wait');
    expect(wait(btoa('{"ok":true}'))?.detail).toBe('{"ok":true}');
    // Bytes that are not UTF-8 stay as they came.
    expect(wait(btoa('\xff\xfe'))?.detail).toBe(btoa('\xff\xfe'));
  });

  it('links a step to its message unless the service lists deliveries and that message is not one of them', () => {
    const step = (messageId: string) => ({
      stepName: `after-${messageId}`,
      stepType: 'Run' as const,
      callType: 'step' as const,
      messageId,
      state: 'STEP_SUCCESS' as const,
      createdAt: T0 + 1_000,
      concurrent: 1,
      retries: 3,
      out: '"x"',
    });
    const steps = [...cloudRun({}).steps, { type: 'sequential' as const, steps: [step('m1'), step('m2')] }];
    const linked = (run: WorkflowRunLog) =>
      runHistory(run, T0 + 5_000)
        .entries.filter((entry) => entry.kind === 'step')
        .map((entry) => entry.messageId);
    // The real service lists no deliveries: every step keeps its link.
    expect(linked(cloudRun({ steps }))).toEqual(['m1', 'm2']);
    // The local stack lists them: a step copied into a resumed run (m1, never sent in it) has none.
    const deliveries = [
      {
        messageId: 'm2',
        kind: 'step' as const,
        createdAt: T0 + 1_000,
        state: 'delivered' as const,
        attempts: [],
      },
    ];
    expect(linked(cloudRun({ steps, deliveries }))).toEqual([undefined, 'm2']);
  });
});
