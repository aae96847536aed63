// "All" operations of the workflow Client do what the real service does (issue 18 item 9): cancel({all: true})
// and dlq.delete/restart/resume({all: true}) send only `count` (and a cursor), and act on every run or entry,
// a `count` at a time. The console keeps its own guard rails (preview, confirm, typed name on production
// profiles) in its UI and main process; the wire protocol does not refuse. A stack of its own: "all" would
// reach the other files' runs.
/* eslint-disable @typescript-eslint/no-explicit-any -- run records are read as loose JSON */
import { WorkflowNonRetryableError } from '@upstash/workflow';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestStack } from '../messages/test-support';
import { runWhen, startStackWithApp, type WorkflowApp } from './test-support';

let stack: TestStack;
let app: WorkflowApp;
let healthy = false;

beforeAll(async () => {
  ({ stack, app } = await startStackWithApp({
    '/sleeper': { fn: async (context) => context.sleep('long', 3600) },
    '/flaky': {
      fn: async (context) =>
        context.run('only', () => {
          if (!healthy) throw new WorkflowNonRetryableError('not yet');
          return 'fine';
        }),
    },
  }));
});

afterAll(async () => {
  await app?.close();
  await stack?.close();
});

const state = (runId: string, wanted: string): Promise<Record<string, any>> =>
  runWhen(stack, runId, (log) => log.workflowState === wanted, `run ${runId} in ${wanted}`);

async function trigger(path: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++)
    ids.push((await app.client.trigger({ url: `${app.url}${path}` })).workflowRunId);
  return ids;
}

it('cancel({all: true}) cancels every active run, `count` per call', async () => {
  const ids = await trigger('/sleeper', 3);
  await Promise.all(ids.map((id) => state(id, 'RUN_STARTED')));
  expect(await app.client.cancel({ all: true, count: 2 })).toEqual({ cancelled: 2 });
  expect(await app.client.cancel({ all: true })).toEqual({ cancelled: 1 });
  expect(await app.client.cancel({ all: true })).toEqual({ cancelled: 0 });
  await Promise.all(ids.map((id) => state(id, 'RUN_CANCELED')));
});

it('dlq.restart, resume and delete with {all: true} act on every entry, a page at a time', async () => {
  healthy = false;
  const failed = await trigger('/flaky', 5);
  await Promise.all(failed.map((id) => state(id, 'RUN_FAILED')));
  expect((await app.client.dlq.list()).messages).toHaveLength(5);

  // Restart two (pages of one), resume two, delete the last: the DLQ ends empty.
  healthy = true;
  const restarted: string[] = [];
  for (let page = 0; page < 2; page++) {
    const answer = await app.client.dlq.restart({ all: true, count: 1 });
    restarted.push(...answer.workflowRuns.map((run) => run.workflowRunId));
  }
  expect(restarted).toHaveLength(2);
  const resumed = await app.client.dlq.resume({ all: true, count: 2 });
  expect(resumed.workflowRuns).toHaveLength(2);
  expect(await app.client.dlq.delete({ all: true })).toMatchObject({ deleted: 1 });
  expect((await app.client.dlq.list()).messages).toEqual([]);
  for (const id of [...restarted, ...resumed.workflowRuns.map((run) => run.workflowRunId)])
    expect(JSON.parse((await state(id, 'RUN_SUCCESS')).workflowRunResponse as string)).toBe('fine');
});
