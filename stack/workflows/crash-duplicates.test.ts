// kill -9 of the stack under load never forks a run (issue 18 item 1). Runs of a real serve() app go
// through sequential steps, a parallel group and a context.call while the stack process is killed three
// times and restarted on the same data dir. A delivery that was in flight at a kill is delivered again, so
// its step may run again and publish its result again: that publish must be answered as a duplicate, never
// logged a second time or delivered. Checked: every run succeeds with the right result; each step is logged
// once per run; a step ran more than once only inside redeliveries of one and the same message (the one in
// flight); the third party was called more than once only by redeliveries of one call message.
import { expect, it } from 'vitest';
import { crashTestResources } from '../crash-test-support';
import { eventually } from '../messages/test-support';
import { allSucceeded, startWorkflowApp } from './test-support';

const RUNS = 30;
const KILLS = 3;
const resources = crashTestResources();

it(
  'kill -9 under load: one log entry per step, and only the deliveries in flight run again',
  async () => {
    // Quick retries: a delivery that failed while the stack restarted is tried again within seconds.
    const start = await resources.restartable('switchyard-wf-dup-crash-', ['--backoff-factor', '0.3'], {
      timeoutMs: 60_000,
    });
    let proc = start();
    const ready = await proc.ready;

    /** `${runId}:${step}` → the message ids of the deliveries that ran the step's code. */
    const executions = new Map<string, string[]>();
    /** runId → the message ids of the calls that reached the third party. */
    const calls = new Map<string, string[]>();
    let executed = 0;
    const record = <T>(runId: string, step: string, messageId: string, value: T): T => {
      const key = `${runId}:${step}`;
      executions.set(key, [...(executions.get(key) ?? []), messageId]);
      executed++;
      return value;
    };
    const app = await startWorkflowApp(
      ready.messages,
      {
        '/flow': {
          fn: async (context) => {
            // Each step remembers which delivery ran it (Upstash-Message-Id reaches the route as a header).
            const id = context.workflowRunId;
            const messageId = context.headers.get('upstash-message-id') ?? '?';
            const run = <T>(step: string, value: T) =>
              context.run(step, () => record(id, step, messageId, value));
            const a = await run('a', 1);
            const [b, c] = await Promise.all([run('b', 2), run('c', 3)]);
            const called = await context.call<string>('call', {
              url: `${app.url}/third-party`,
              method: 'POST',
              body: id,
              // An attempt lost to the machine's load (a reset keep-alive socket) is tried again.
              retries: 3,
            });
            const d = await run('d', 4);
            return { sum: a + b + c + d, call: called.body };
          },
        },
      },
      {
        '/third-party': (req, body) => {
          const runId = body.toString();
          calls.set(runId, [...(calls.get(runId) ?? []), String(req.headers['upstash-message-id'])]);
          return { status: 200, body: `called ${runId}` };
        },
      },
      // Deliveries stay open a little after their step published: a kill finds many such.
      { holdAnswerMs: 150 },
    );
    resources.onCleanup(() => app.close());

    const ids = await Promise.all(
      Array.from(
        { length: RUNS },
        async () => (await app.client.trigger({ url: `${app.url}/flow`, retries: 10 })).workflowRunId,
      ),
    );
    // Kill while the runs are spread over their steps, then again after each restart has made progress.
    const perRun = 4;
    for (let kill = 1; kill <= KILLS; kill++) {
      const target = Math.round((RUNS * perRun * kill) / (KILLS + 1));
      await eventually(() => executed >= target, `${target} step executions`, 120_000);
      proc.child.kill('SIGKILL');
      await proc.exit;
      proc = start();
      await proc.ready;
    }

    const logs = await allSucceeded(app, ids, 180_000);

    for (const [index, log] of logs.entries()) {
      const id = ids[index] as string;
      expect(JSON.parse(log?.workflowRunResponse as string), id).toEqual({ sum: 10, call: `called ${id}` });
      // One entry per step: a step id appears once in the run's sequential and parallel groups.
      const stepIds = (log?.steps ?? [])
        .filter((group) => group.type !== 'next')
        .flatMap((group) => group.steps.map((step) => step.stepId ?? 0));
      expect(stepIds.length, `steps of ${id}`).toBe(new Set(stepIds).size);
      for (const step of ['a', 'b', 'c', 'd']) {
        const ran = executions.get(`${id}:${step}`) ?? [];
        expect(ran.length, `${id}:${step} ran`).toBeGreaterThanOrEqual(1);
        // More than once only as redeliveries of the one message that was in flight.
        expect(new Set(ran).size, `${id}:${step} ran in deliveries ${ran.join(', ')}`).toBe(1);
      }
      const called = calls.get(id) ?? [];
      expect(called.length, `third-party calls of ${id}`).toBeGreaterThanOrEqual(1);
      expect(new Set(called).size, `third-party calls of ${id}: ${called.join(', ')}`).toBe(1);
    }
    await proc.stop();
  },
  // Four stack processes and 30 runs through every kind of step: minutes on a loaded 2-core machine.
  480_000,
);
