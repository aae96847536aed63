// A paused flow-control key holds its deliveries — messages and workflow steps — across a kill -9 of the
// stack: after the restart the key is still paused and pinned, nothing it holds is delivered, and resume
// delivers every one of them, in publish order, and the workflow runs finish. Both durability modes
// (`full` commits in the writer thread, where the flow-control writes must be registered too).
import { expect, it } from 'vitest';
import { crashTestResources } from '../crash-test-support';
import { startWorkflowApp } from '../workflows/test-support';
import { eventually, sdkClient, settle, startSink } from './test-support';

const MESSAGES = 20;
const RUNS = 3;
const KEY = 'held-across-crash';
const resources = crashTestResources();

it.each(['normal', 'full'])(
  'a paused key holds messages and workflow steps across kill -9 and delivers them all after resume (durability %s)',
  async (durability) => {
    // The workflow app must reach the restarted stack at the same address. No warm-up (crash.test.ts covers
    // it): on a loaded machine it delays the ready line by seconds.
    const start = await resources.restartable(
      'switchyard-flow-crash-',
      ['--no-warm-up', '--durability', durability],
      {
        timeoutMs: 60_000,
      },
    );
    const sink = await startSink();
    resources.onCleanup(() => sink.close());
    const first = start();
    const ready = await first.ready;
    const client = sdkClient(ready.messages);
    const steps: string[] = [];
    const app = await startWorkflowApp(ready.messages, {
      '/held': {
        fn: async (context) => {
          const id = context.workflowRunId;
          await context.run('one', () => steps.push(`${id}:one`));
          await context.run('two', () => steps.push(`${id}:two`));
        },
      },
    });
    resources.onCleanup(() => app.close());
    const flowControl = { key: KEY, parallelism: 3 };
    // The key exists once a message used it; then it is paused and pinned to one at a time.
    await client.publish({ url: `${sink.url}/first`, body: 'first', flowControl });
    await sink.waitFor(1);
    await client.flowControl.pause(KEY);
    await client.flowControl.pin(KEY, { parallelism: 1 });
    for (let i = 1; i <= MESSAGES; i++) {
      await client.publish({ url: `${sink.url}/held/${i}`, body: String(i), flowControl });
    }
    const runIds: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      runIds.push((await app.client.trigger({ url: `${app.url}/held`, flowControl })).workflowRunId);
    }
    await eventually(
      async () => (await client.flowControl.get(KEY)).waitListSize === MESSAGES + RUNS,
      `${MESSAGES + RUNS} waiting before the crash`,
      30_000,
    );
    first.child.kill('SIGKILL');
    expect((await first.exit).signal).toBe('SIGKILL');

    const second = start();
    await second.ready;
    await eventually(
      async () => (await client.flowControl.get(KEY)).waitListSize === MESSAGES + RUNS,
      `${MESSAGES + RUNS} waiting after the restart`,
      30_000,
    );
    expect(await client.flowControl.get(KEY)).toMatchObject({
      isPaused: true,
      isPinnedParallelism: true,
      parallelismMax: 1,
      parallelismCount: 0,
    });
    await settle(500);
    expect(sink.received.map((r) => r.url)).toEqual(['/first']);
    expect(steps).toEqual([]);

    await client.flowControl.resume(KEY);
    const delivered = await sink.waitFor(1 + MESSAGES, { timeoutMs: 60_000 });
    expect(delivered.map((r) => r.url)).toEqual([
      '/first',
      ...Array.from({ length: MESSAGES }, (_, i) => `/held/${i + 1}`),
    ]);
    await eventually(
      async () => {
        const logs = await Promise.all(
          runIds.map(async (id) => (await app.client.logs({ workflowRunId: id })).runs[0]),
        );
        return logs.every((log) => log?.workflowState === 'RUN_SUCCESS');
      },
      'every held run to finish after resume',
      60_000,
    );
    for (const id of runIds) expect(steps).toEqual(expect.arrayContaining([`${id}:one`, `${id}:two`]));
    expect(await client.flowControl.get(KEY)).toMatchObject({ waitListSize: 0, isPaused: false });
    await second.stop();
  },
  // Two stack processes, a workflow app and 23 held deliveries: minutes on a loaded 2-core machine.
  240_000,
);
