// No acknowledged step is lost across a kill -9: runs that are sleeping, waiting for an event, calling a third
// party and inside parallel groups when the stack dies all finish after a restart on the same data dir (a step
// may run twice — at-least-once — but never zero times). Both durability modes: `full` commits in the writer
// thread, where the workflow writes must be registered too.
import { expect, it } from 'vitest';
import { crashTestResources } from '../crash-test-support';
import { eventually } from '../messages/test-support';
import { allSucceeded, startWorkflowApp } from './test-support';

const RUNS = 12;
const resources = crashTestResources();

it.each(['normal', 'full'])(
  'every run finishes after kill -9 mid-run (durability %s)',
  async (durability) => {
    // The app must reach the restarted stack at the same address.
    const start = await resources.restartable('switchyard-wf-crash-', ['--durability', durability]);
    const first = start();
    const ready = await first.ready;
    const executed = new Map<string, number>();
    const count = (key: string): void => void executed.set(key, (executed.get(key) ?? 0) + 1);
    const app = await startWorkflowApp(
      ready.messages,
      {
        '/crash': {
          fn: async (context) => {
            const id = context.workflowRunId;
            const a = await context.run('a', () => (count(`${id}:a`), 1));
            const [b, c] = await Promise.all([
              context.run('b', () => (count(`${id}:b`), 2)),
              context.run('c', () => (count(`${id}:c`), 3)),
            ]);
            const called = await context.call('call', { url: `${app.url}/slow`, method: 'POST', body: id });
            await context.sleep('nap', 1);
            const event = await context.waitForEvent('wait', `crash-${id}`, { timeout: '1h' });
            const last = await context.run('last', () => (count(`${id}:last`), 'done'));
            return { sum: a + b + c, call: called.body, event: event.eventData, last };
          },
        },
      },
      {
        '/slow': async (_req, body) => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return { status: 200, body: `echo ${body.toString()}` };
        },
      },
    );
    resources.onCleanup(() => app.close());
    const ids: string[] = [];
    for (let i = 0; i < RUNS; i++)
      ids.push((await app.client.trigger({ url: `${app.url}/crash`, retries: 5 })).workflowRunId);
    // Die while runs are spread over the steps: some already waiting, others still calling or sleeping.
    await eventually(
      async () => {
        const waiting = await Promise.all(ids.map((id) => app.client.getWaiters({ eventId: `crash-${id}` })));
        return waiting.filter((list) => list.length > 0).length >= 2;
      },
      'two runs waiting',
      30_000,
    );
    first.child.kill('SIGKILL');
    await first.exit;

    const second = start();
    await second.ready;
    // Every run reaches its wait (steps acknowledged before the crash are not lost), and is notified.
    const pending = new Set(ids);
    await eventually(
      async () => {
        for (const id of [...pending]) {
          const notified = await app.client.notify({ eventId: `crash-${id}`, eventData: id });
          if (notified.length > 0) pending.delete(id);
        }
        return pending.size === 0;
      },
      'every run waiting after the restart',
      60_000,
    );
    const results = await allSucceeded(app, ids, 60_000);
    for (const [index, log] of results.entries()) {
      const id = ids[index] as string;
      expect(JSON.parse(log?.workflowRunResponse as string)).toEqual({
        sum: 6,
        call: `echo ${id}`,
        event: id,
        last: 'done',
      });
      for (const step of ['a', 'b', 'c', 'last'])
        expect(executed.get(`${id}:${step}`) ?? 0).toBeGreaterThanOrEqual(1);
    }
    await second.stop();
  },
  // Two stack processes and a dozen runs through every kind of step: minutes on a loaded 2-core machine.
  240_000,
);
