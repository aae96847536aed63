import { describe, expect, it } from 'vitest';
import type { WorkflowRunLog } from '../../../../../shared/workflows/types';
import { runMessageIds } from './run-messages';

describe('runMessageIds', () => {
  it('collects every step’s message and the failure callback’s, newest first, each once', () => {
    const run = {
      workflowRunId: 'wfr_1',
      workflowUrl: 'https://app.example.com/wf',
      workflowState: 'RUN_FAILED',
      workflowRunCreatedAt: 1,
      steps: [
        { type: 'sequential', steps: [{ messageId: 'msg_init' }] },
        { type: 'parallel', steps: [{ messageId: 'msg_a' }, { messageId: 'msg_b' }, { messageId: 'msg_a' }] },
        { type: 'next', steps: [{ messageId: 'msg_next' }] },
      ],
      failureFunction: { messageId: 'msg_failure' },
    } as unknown as WorkflowRunLog;
    expect(runMessageIds(run)).toEqual(['msg_failure', 'msg_next', 'msg_a', 'msg_b', 'msg_init']);
    expect(runMessageIds({ ...run, steps: [], failureFunction: undefined })).toEqual([]);
  });
});
