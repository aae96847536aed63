// The runner's own rules, over a scripted plan (the plans themselves are tested against the real local
// stack and redis-server beside their services): the preview is the one listing, a start must confirm its
// count, chunks and progress, cancel aborts a scan in flight, giving up after repeated failures, the
// journal (0600 files) and resume after a console restart, and a scan that goes on past the preview.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { job } from '../../../shared/bridge/define';
import { BridgeError } from '../../../shared/bridge/errors';
import { JOB_GIVE_UP_AFTER, JOB_SCAN_LIMIT, jobInput, type JobSummary } from '../../../shared/bridge/job';
import { createRouter, type Handlers } from '../bridge/router';
import { runJob } from '../testing/jobs';
import { useTempDirs } from '../../../shared/testing/temp-dir';
import { JobJournal } from './journal';
import { type JobInput, type JobPlan, oneByOne } from './plan';
import { JobRunner } from './runner';

const registry = {
  'test.job': job<JobSummary>()(
    jobInput({
      target: z.union([
        z.object({ ids: z.array(z.string()).min(1) }),
        z.object({ filters: z.object({ prefix: z.string().optional() }) }),
        z.object({ all: z.literal(true) }),
      ]),
    }),
    'write',
    { start: z.object({ mark: z.string().default('') }) },
  ),
  'jobs.resume': job<JobSummary>()(z.object({ profileId: z.string(), jobId: z.string() }), 'write'),
};

/**
 * A service of `size` items, `item-0` …, listed `page` at a time after the cursor (the last item's number,
 * so the cursor stays valid while items go); acting on an item removes it.
 */
function scriptedService(size: number, page = 100) {
  const items = new Set(Array.from({ length: size }, (_, i) => `item-${i}`));
  const service = {
    items,
    scans: 0,
    acted: [] as string[][],
    failFor: new Set<string>(),
    /** Set to hold a scan until its signal aborts. */
    hangScans: false,
    aborted: false,
  };
  const plan: JobPlan<JobInput, { mark: string }> = {
    service: 'messages',
    noun: ['item', 'items'],
    action: () => 'remove',
    chunk: 10,
    scan: async (_input, cursor, signal) => {
      service.scans += 1;
      if (service.hangScans) {
        await new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            service.aborted = true;
            reject(new BridgeError({ code: 'CANCELLED', message: 'Request cancelled.' }));
          }),
        );
      }
      const after = cursor === undefined ? -1 : Number(cursor);
      const all = [...items].map((item) => Number(item.slice(5))).filter((n) => n > after);
      all.sort((a, b) => a - b);
      const listed = all.slice(0, page);
      const more = all.length > page;
      return { items: listed.map((n) => `item-${n}`), ...(more ? { cursor: String(listed.at(-1)) } : {}) };
    },
    act: async (chunk) => {
      service.acted.push([...chunk]);
      if (chunk.some((item) => service.failFor.has(item))) throw new Error('service down');
      let gone = 0;
      for (const item of chunk) if (!items.delete(item)) gone += 1;
      return { succeeded: chunk.length - gone, skipped: gone };
    },
  };
  return { service, plan };
}

function routerFor(runner: JobRunner, plan: JobPlan<JobInput, { mark: string }>) {
  return createRouter({
    handlers: {
      'test.job': runner.handler('test.job' as never, plan as never),
      'jobs.resume': runner.resume,
    } as unknown as Handlers,
    isReadOnly: () => false,
    logError: (message, error) => {
      throw new Error(`${message}: ${String(error)}`);
    },
    registry,
  });
}

function newRunner(dir: string) {
  return new JobRunner(new JobJournal(dir), { profileName: () => 'Local' });
}

describe('the job runner', () => {
  const tempDir = useTempDirs();

  it('lists once, starts with the confirmed count, works in chunks with progress, and journals the job', async () => {
    const dir = tempDir();
    const { service, plan } = scriptedService(35);
    const runner = newRunner(dir);
    const run = await runJob(
      routerFor(runner, plan),
      'test.job',
      {
        profileId: 'local',
        target: { filters: { prefix: 'item' } },
      },
      { start: { mark: 'x' } },
    );
    expect(run.error).toBeUndefined();
    expect(service.scans).toBe(1);
    expect(service.acted.map((chunk) => chunk.length)).toEqual([10, 10, 10, 5]);
    expect(
      run.events.filter((e) => e.type === 'progress').map((e) => e.type === 'progress' && e.processed),
    ).toEqual([0, 10, 20, 30, 35]);
    expect(run.summary).toMatchObject({ status: 'done', total: 35, succeeded: 35, action: 'remove' });
    const record = runner.journal.get(run.summary!.jobId)!;
    expect(record).toMatchObject({
      procedure: 'test.job',
      profileName: 'Local',
      status: 'done',
      options: { mark: 'x' },
      target: { filters: { prefix: 'item' } },
      description: 'items matching prefix item',
    });
    // Private to the user: the folder 0700, the file 0600.
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const [file] = readdirSync(dir);
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
  });

  it('ids are deduplicated; a start confirming another count sends nothing', async () => {
    const { service, plan } = scriptedService(5);
    const router = routerFor(newRunner(tempDir()), plan);
    const input = { profileId: 'local', target: { ids: ['item-1', 'item-1', 'item-2'] } };
    const wrong = await runJob(router, 'test.job', input, { confirmed: 3 });
    expect(wrong.found).toBe(2);
    expect(wrong.error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(service.acted).toEqual([]);
    const right = await runJob(router, 'test.job', input);
    expect(service.acted).toEqual([['item-1', 'item-2']]);
    expect(right.summary).toMatchObject({ total: 2, succeeded: 2 });
  });

  it('an empty filter is refused by the runner too, never taken as "all"', async () => {
    const { service, plan } = scriptedService(5);
    const router = routerFor(newRunner(tempDir()), plan);
    const run = await runJob(router, 'test.job', { profileId: 'local', target: { filters: {} } });
    expect(run.error).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/empty filter/),
    });
    expect(service.scans).toBe(0);
    const all = await runJob(
      router,
      'test.job',
      { profileId: 'local', target: { all: true } },
      { start: false },
    );
    expect(all.found).toBe(5);
  });

  it('closing the job aborts a scan in flight, and nothing is journaled', async () => {
    const dir = tempDir();
    const { service, plan } = scriptedService(5);
    service.hangScans = true;
    let ended = false;
    const control = await routerFor(newRunner(dir), plan).open(
      'test.job',
      { profileId: 'local', target: { all: true } },
      { push: () => {}, end: () => (ended = true) },
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    control.stop();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(service.aborted).toBe(true);
    expect(ended).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });

  it(`gives up after ${JOB_GIVE_UP_AFTER} failed requests in a row, and resume goes on from there`, async () => {
    const dir = tempDir();
    const { service, plan } = scriptedService(60);
    for (let i = 10; i < 40; i += 1) service.failFor.add(`item-${i}`);
    const runner = newRunner(dir);
    const router = routerFor(runner, plan);
    const failed = await runJob(router, 'test.job', { profileId: 'local', target: { all: true } });
    expect(failed.summary).toMatchObject({
      status: 'failed',
      processed: 40,
      succeeded: 10,
      failed: 30,
      error: expect.stringMatching(/3 failed requests in a row; resume continues at item 41/),
    });
    expect(failed.summary!.failures[0]).toEqual({ id: 'item-10', message: 'service down' });
    service.failFor.clear();
    const resumed = await runJob(router, 'jobs.resume', { profileId: 'local', jobId: failed.summary!.jobId });
    expect(resumed.found).toBe(20);
    expect(resumed.summary).toMatchObject({
      status: 'done',
      total: 60,
      processed: 60,
      succeeded: 30,
      failed: 30,
    });
  });

  it('a service that goes away mid-way: one request per chunk until the job gives up, not one per item', async () => {
    const dir = tempDir();
    const { plan } = scriptedService(60);
    const requests: string[] = [];
    const down = new BridgeError({
      code: 'UNREACHABLE',
      message: 'Connection refused by 127.0.0.1:8080: nothing is listening there.',
    });
    const oneAtATime: typeof plan = {
      ...plan,
      act: (chunk, _input, _start, context) =>
        oneByOne(chunk, context, async (item) => {
          requests.push(item);
          if (requests.length > 15) throw down;
          return { succeeded: 1 };
        }),
    };
    const failed = await runJob(routerFor(newRunner(dir), oneAtATime), 'test.job', {
      profileId: 'local',
      target: { all: true },
    });
    expect(failed.summary).toMatchObject({
      status: 'failed',
      processed: 50,
      succeeded: 15,
      error: expect.stringMatching(/3 failed requests in a row; resume continues at item 51/),
    });
    // 15 done, the one that found the service gone, then one per chunk: 3 chunks in a row failed.
    expect(requests).toHaveLength(19);
    expect(failed.summary!.failures[1]).toEqual({ id: 'item-16', message: `not attempted: ${down.message}` });
  });

  it('a job cut short by a console exit is interrupted when read back, and resumes at its next chunk', async () => {
    const dir = tempDir();
    const { service, plan } = scriptedService(30);
    const first = await runJob(
      routerFor(newRunner(dir), plan),
      'test.job',
      { profileId: 'local', target: { all: true } },
      { stopWhen: (event) => event.type === 'progress' && event.processed >= 10 },
    );
    const jobId = first.summary!.jobId;
    // What a console that died mid-job leaves: no end line (and half a line being written).
    const file = join(dir, `${jobId}.jsonl`);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ kind: 'end', status: 'cancelled' });
    writeFileSync(file, `${lines.slice(0, -1).join('\n')}\n{"kind":"chu`);

    const restarted = newRunner(dir);
    expect(restarted.journal.get(jobId)).toMatchObject({ status: 'interrupted', processed: 10 });
    const router = routerFor(restarted, plan);
    await expect(runJob(router, 'jobs.resume', { profileId: 'someone-else', jobId })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    const resumed = await runJob(router, 'jobs.resume', { profileId: 'local', jobId });
    expect(resumed.found).toBe(20);
    expect(service.acted.flat()).toHaveLength(30);
    expect(new Set(service.acted.flat()).size).toBe(30);
    expect(resumed.summary).toMatchObject({ status: 'done', total: 30, succeeded: 30 });
    expect(newRunner(dir).journal.get(jobId)).toMatchObject({ status: 'done', processed: 30 });
    await expect(runJob(router, 'jobs.resume', { profileId: 'local', jobId })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it(`stops listing at ${JOB_SCAN_LIMIT.toLocaleString()} ("at least"); a plan whose scan goes on continues past it`, async () => {
    const { service, plan } = scriptedService(JOB_SCAN_LIMIT + 25, 5000);
    plan.chunk = 5000;
    const capped = await runJob(
      routerFor(newRunner(tempDir()), plan),
      'test.job',
      {
        profileId: 'local',
        target: { all: true },
      },
      { start: false },
    );
    expect(capped.events.at(-1)).toMatchObject({ type: 'collecting', found: JOB_SCAN_LIMIT, capped: true });

    plan.continuesScan = true;
    const dir = tempDir();
    const run = await runJob(routerFor(newRunner(dir), plan), 'test.job', {
      profileId: 'local',
      target: { all: true },
    });
    expect(run.found).toBe(JOB_SCAN_LIMIT);
    expect(run.summary).toMatchObject({
      status: 'done',
      total: JOB_SCAN_LIMIT + 25,
      succeeded: JOB_SCAN_LIMIT + 25,
    });
    expect(service.items.size).toBe(0);
  });
});
