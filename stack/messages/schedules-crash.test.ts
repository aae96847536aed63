// The one real-time schedule test: the stack as a real process, a `* * * * *` schedule made with the vendor's
// client, `kill -9` of the stack right after the create was acknowledged, a restart on the same data dir —
// and the next real minute's tick arrives at the sink with the schedule's id, once. Every other schedule
// test moves a manual clock instead of waiting for minutes (schedules.test.ts).
//
// No timing assertion (the machine is shared): the tick's lateness after its minute is printed, and the
// schedules benchmark (bench/schedules.ts) measures it properly.
import { expect, it } from 'vitest';
import { crashTestResources } from '../crash-test-support';
import { freePortArgs } from '../test-process';
import { sdkClient, settle, startSink } from './test-support';

const resources = crashTestResources();

it('a schedule survives kill -9 and fires at the next real minute with its id, once', async () => {
  const arrivals: number[] = [];
  const sink = await startSink(() => {
    arrivals.push(Date.now());
    return {};
  });
  resources.onCleanup(() => sink.close());
  const args = [...freePortArgs(resources.dataDir('switchyard-schedule-crash-')), '--log-level', 'warn'];
  const first = resources.spawn(args);
  const ready = await first.ready;
  const client = sdkClient(ready.messages);
  const { scheduleId } = await client.schedules.create({
    destination: `${sink.url}/every-minute`,
    cron: '* * * * *',
    body: 'tick',
  });
  first.child.kill('SIGKILL');
  expect((await first.exit).signal).toBe('SIGKILL');

  const second = resources.spawn(args);
  const restarted = await second.ready;
  const after = sdkClient(restarted.messages);
  const listed = await after.schedules.list();
  expect(listed.map((s) => s.scheduleId)).toEqual([scheduleId]);

  // At most a minute away, plus however long a loaded machine takes.
  const [delivery] = await sink.waitFor(1, { timeoutMs: 150_000 });
  expect(delivery?.url).toBe('/every-minute');
  expect(delivery?.headers['upstash-schedule-id']).toBe(scheduleId);
  expect(delivery?.body.toString()).toBe('tick');
  const schedule = await after.schedules.get(scheduleId);
  // The minute it fired for (had the restart straddled a minute, the missed tick fired on recovery); the
  // cron then goes on to the following minute.
  const minute = Math.floor((schedule.lastScheduleTime as number) / 60_000) * 60_000;
  expect(schedule.nextScheduleTime).toBe(minute + 60_000);
  console.log(
    `schedule tick delivered ${(arrivals[0] as number) - minute} ms after its minute (${new Date(minute).toISOString()})`,
  );
  expect(Object.keys(schedule.lastScheduleStates ?? {})).toEqual([delivery?.headers['upstash-message-id']]);
  // Once: nothing else arrives for that tick.
  await settle(1_000);
  expect(sink.received).toHaveLength(1);
}, 240_000);
