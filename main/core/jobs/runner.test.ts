// The runner's own rules, over a scripted plan (the plans themselves are tested against the real local
// stack and redis-server beside their services): the preview is the one listing, a start must confirm its
// count, chunks and progress, cancel aborts a scan in flight, giving up after repeated failures, the
// journal (0600 files) and resume after a console restart, a scan that goes on past the preview, and
// waiting through a failure that may pass (the waits made short here; their length is the only change).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { job } from '../../../shared/bridge/define';
import { BridgeError } from '../../../shared/bridge/errors';
import {
  JOB_GIVE_UP_AFTER,
  JOB_SCAN_LIMIT,
  type JobEvent,
  jobInput,
  type JobSummary,
} from '../../../shared/bridge/job';
import { createRouter, type Handlers } from '../bridge/router';
import { runJob } from '../testing/jobs';
import { useTempDirs } from '../../../shared/testing/temp-dir';
import { JobJournal } from './journal';
import { serviceRequest } from '../http/service-http';
import { bulkOrOneByOne, type ChunkOutcome, type JobInput, type JobPlan, oneByOne } from './plan';
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
    /** Set to fail a scan (from `cursor`) with what it answers instead of listing. */
    failScan: undefined as ((cursor: string | undefined) => Error | undefined) | undefined,
    aborted: false,
  };
  const plan: JobPlan<JobInput, { mark: string }> = {
    service: 'messages',
    noun: ['item', 'items'],
    action: () => 'remove',
    chunk: 10,
    scan: async (_input, cursor, signal) => {
      service.scans += 1;
      const failure = service.failScan?.(cursor);
      if (failure) throw failure;
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

function newRunner(dir: string, outageWaitsMs: readonly number[] = [5, 5, 5]) {
  return new JobRunner(new JobJournal(dir), { profileName: () => 'Local', outageWaitsMs });
}

const unavailable = () =>
  new BridgeError({ code: 'SERVICE_ERROR', status: 503, message: 'the stack is restarting' });
const refused = () =>
  new BridgeError({
    code: 'UNREACHABLE',
    message: 'Connection refused by 127.0.0.1:8080: nothing is listening there.',
  });

/**
 * The plan of a service that fails the next asks with `failures` (one each) while some are left — the asks
 * for the chunk starting at `at`, or any chunk —, then acts as `plan` does. `asked`: every ask's chunk.
 */
function failingFirst(plan: JobPlan<JobInput, { mark: string }>, failures: Array<() => Error>, at?: string) {
  const asked: string[][] = [];
  const failing: typeof plan = {
    ...plan,
    act: (chunk, ...rest) => {
      asked.push([...chunk]);
      const failure = at === undefined || chunk[0] === at ? failures.shift() : undefined;
      return failure ? Promise.reject(failure()) : plan.act(chunk, ...rest);
    },
  };
  return { asked, plan: failing };
}

/** `plan`, sending one request per item: `one`. */
function itemByItem(
  plan: JobPlan<JobInput, { mark: string }>,
  one: (item: string) => Promise<ChunkOutcome>,
  options?: { repeatable?: boolean },
): typeof plan {
  return { ...plan, act: (chunk, _input, _start, context) => oneByOne(chunk, context, one, options) };
}

/**
 * `scriptedService`'s items acted on by one bulk request per chunk that refuses a chunk with an item gone
 * (404), as the DLQ's bulk retry does; `fault` may fail an ask before the service acts or after it acted
 * (its answer lost). Each item done makes a new one (`new-…`), as a retry makes a new message.
 */
function bulkService(size: number, fault: (chunk: readonly string[]) => { before?: Error; after?: Error }) {
  const { service, plan } = scriptedService(size);
  const bulk = async (chunk: readonly string[]): Promise<ChunkOutcome> => {
    const { before, after } = fault(chunk);
    if (before) throw before;
    service.acted.push([...chunk]);
    if (chunk.some((item) => !service.items.has(item))) {
      throw new BridgeError({ code: 'SERVICE_ERROR', status: 404, message: 'some entries were not found' });
    }
    for (const item of chunk) service.items.delete(item);
    if (after) throw after;
    return { succeeded: chunk.length, created: chunk.map((item) => ({ id: `new-${item}`, from: item })) };
  };
  const bulkPlan: typeof plan = {
    ...plan,
    act: (chunk, _input, _start, context) => bulkOrOneByOne(chunk, context, bulk),
  };
  return { service, plan: bulkPlan };
}

/** A loopback HTTP server answering `{}` to every request, after `reset` (which may cut the connection). */
const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function listening(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback port nothing listens on (it was just closed): a connection there is refused. */
async function closedPort(): Promise<string> {
  const server = createServer();
  const url = await listening(server);
  servers.pop();
  await new Promise((resolve) => server.close(resolve));
  return url;
}

const everything = { profileId: 'local', target: { all: true } };

const waits = (run: { events: JobEvent[] }) =>
  run.events.flatMap((event) => (event.type === 'waiting' ? [event] : []));

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

  it('a service that stops answering in time mid-way: one request per chunk until the job gives up, not one per item', async () => {
    const dir = tempDir();
    const { plan } = scriptedService(60);
    const requests: string[] = [];
    const down = new BridgeError({
      code: 'TIMEOUT',
      message: 'No response from 127.0.0.1:8080 within 30 s: the service may be overloaded or stuck.',
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
    // 15 done, the one that found the service stuck, then one per chunk: 3 chunks in a row failed. A
    // timeout is not waited through: asking again would only wait as long again.
    expect(requests).toHaveLength(19);
    expect(failed.summary!.failures[1]).toEqual({ id: 'item-16', message: `not attempted: ${down.message}` });
    expect(waits(failed)).toEqual([]);
  });

  it('a service that fails for a moment (503, refused): the job waits, asks again for the same chunk and completes', async () => {
    const dir = tempDir();
    const { service, plan } = scriptedService(30);
    // The second chunk meets the outage (the stack restarting), then the service is back.
    const { asked, plan: failing } = failingFirst(plan, [unavailable], 'item-10');
    const runner = newRunner(dir);
    const run = runJob(routerFor(runner, failing), 'test.job', everything);
    const done = await run;
    expect(done.summary).toMatchObject({
      status: 'done',
      total: 30,
      processed: 30,
      succeeded: 30,
      failed: 0,
    });
    expect(waits(done)).toEqual([
      { type: 'waiting', reason: 'HTTP 503: the stack is restarting', attempt: 2, delayMs: 5 },
    ]);
    expect(service.items.size).toBe(0);
    // The chunk was asked twice and acted on once.
    expect(asked.map((chunk) => chunk[0])).toEqual(['item-0', 'item-10', 'item-10', 'item-20']);
    expect(service.acted.map((chunk) => chunk[0])).toEqual(['item-0', 'item-10', 'item-20']);
  });

  it('waits grow through repeated failures that may pass, and the journal explains them when read back', async () => {
    const dir = tempDir();
    const { service, plan } = scriptedService(20);
    const { asked, plan: failing } = failingFirst(plan, [unavailable, refused, () => unavailable()]);
    const runner = newRunner(dir, [3, 6, 9, 12]);
    const run = await runJob(routerFor(runner, failing), 'test.job', everything);
    expect(run.summary).toMatchObject({ status: 'done', processed: 20, succeeded: 20, failed: 0 });
    expect(waits(run).map(({ attempt, delayMs }) => [attempt, delayMs])).toEqual([
      [2, 3],
      [3, 6],
      [4, 9],
    ]);
    expect(waits(run)[1]!.reason).toMatch(/Connection refused/);
    // The waits come between the chunk's progress events, not after the end.
    const types = run.events.map((event) => event.type).filter((type) => type !== 'collecting');
    expect(types).toEqual([
      'started',
      'progress',
      'waiting',
      'waiting',
      'waiting',
      'progress',
      'progress',
      'done',
    ]);
    expect(asked).toHaveLength(5);
    expect(service.acted).toHaveLength(2);
    const readBack = newRunner(dir).journal.get(run.summary!.jobId)!;
    expect(readBack.waited).toMatchObject({ times: 3, ms: 18, reason: 'HTTP 503: the stack is restarting' });
  });

  it('one request per item: the items done before the outage are not sent again; the rest are, once it passes', async () => {
    const { plan } = scriptedService(10);
    const requests: string[] = [];
    let outage = 2;
    const oneAtATime = itemByItem(plan, async (item) => {
      if (item === 'item-4' && outage > 0) {
        outage -= 1;
        throw refused();
      }
      requests.push(item);
      return { succeeded: 1 };
    });
    const run = await runJob(routerFor(newRunner(tempDir()), oneAtATime), 'test.job', everything);
    expect(run.summary).toMatchObject({ status: 'done', processed: 10, succeeded: 10, failed: 0 });
    expect(requests).toEqual(Array.from({ length: 10 }, (_, i) => `item-${i}`));
    expect(waits(run)).toHaveLength(2);
    // Progress: the four items done before the outage, then the rest.
    expect(run.events.flatMap((event) => (event.type === 'progress' ? [event.processed] : []))).toEqual([
      0, 4, 10,
    ]);
  });

  it('an action that is not harmless to repeat: the item whose request may have reached the service is not asked again', async () => {
    const { plan } = scriptedService(10);
    const requests: string[] = [];
    let outage = 1;
    const callbacks = itemByItem(
      plan,
      async (item) => {
        requests.push(item);
        if (item === 'item-4' && outage > 0) {
          outage -= 1;
          // A reset after the request went out: the service may have sent the callback.
          throw new BridgeError({ code: 'UNREACHABLE', message: 'The connection was closed unexpectedly.' });
        }
        return { succeeded: 1 };
      },
      { repeatable: false },
    );
    const run = await runJob(routerFor(newRunner(tempDir()), callbacks), 'test.job', everything);
    expect(run.summary).toMatchObject({ status: 'done', processed: 10, succeeded: 9, failed: 1 });
    expect(run.summary!.failures).toEqual([
      { id: 'item-4', message: expect.stringMatching(/closed unexpectedly.*not sent again/) },
    ]);
    // Each item asked once: item-4 is not asked again, the ones after it are, after the wait.
    expect(requests).toEqual(Array.from({ length: 10 }, (_, i) => `item-${i}`));
    expect(waits(run)).toHaveLength(1);
  });

  it('a service down for longer than the waits: the job gives up, resumable at the chunk it could not do', async () => {
    const dir = tempDir();
    const { service, plan } = scriptedService(30);
    // Down for the first ask and after each of the two waits; back for the resume.
    const outage = Array.from({ length: 3 }, () => refused);
    const { asked, plan: failing } = failingFirst(plan, outage, 'item-10');
    const runner = newRunner(dir, [5, 10]);
    const router = routerFor(runner, failing);
    const failed = await runJob(router, 'test.job', everything);
    expect(failed.summary).toMatchObject({
      status: 'failed',
      processed: 10,
      succeeded: 10,
      failed: 0,
      error: expect.stringMatching(
        /the service kept failing for 0 s \(Connection refused by 127\.0\.0\.1:8080.*\); resume continues at item 11/,
      ),
    });
    // The first ask and one after each wait.
    expect(asked.filter((chunk) => chunk[0] === 'item-10')).toHaveLength(3);
    expect(waits(failed).map((event) => event.attempt)).toEqual([2, 3]);
    expect(runner.journal.get(failed.summary!.jobId)).toMatchObject({
      status: 'failed',
      waited: { times: 2, ms: 15 },
    });

    expect(outage).toEqual([]);
    const resumed = await runJob(router, 'jobs.resume', { profileId: 'local', jobId: failed.summary!.jobId });
    expect(resumed.found).toBe(20);
    expect(resumed.summary).toMatchObject({ status: 'done', processed: 30, succeeded: 30, failed: 0 });
    expect(service.items.size).toBe(0);
  });

  it('a service that says how long to wait (Retry-After) is asked again no sooner; one asking past the waits left is not waited for', async () => {
    const dir = tempDir();
    const { service, plan } = scriptedService(30);
    const limited = (retryAfterMs: number) => () =>
      new BridgeError({ code: 'SERVICE_ERROR', status: 429, message: 'too many requests', retryAfterMs });
    // First a 40 ms limit (longer than the first 5 ms wait), then a daily limit three hours long.
    const { asked, plan: failing } = failingFirst(plan, [limited(40), limited(3 * 3_600_000)], 'item-10');
    const runner = newRunner(dir, [5, 50, 50]);
    const router = routerFor(runner, failing);
    const stopped = await runJob(router, 'test.job', everything);
    expect(waits(stopped)).toEqual([
      { type: 'waiting', reason: 'HTTP 429: too many requests', attempt: 2, delayMs: 40 },
    ]);
    expect(stopped.summary).toMatchObject({
      status: 'failed',
      processed: 10,
      error: expect.stringMatching(
        /^the service asks to wait 3h, until \d{4}-\d\d-\d\dT.*Z \(HTTP 429: too many requests\); resume continues at item 11$/,
      ),
    });
    // Asked once, once more after the 40 ms, and not again once the service asked for three hours.
    expect(asked.filter((chunk) => chunk[0] === 'item-10')).toHaveLength(2);

    const resumed = await runJob(router, 'jobs.resume', {
      profileId: 'local',
      jobId: stopped.summary!.jobId,
    });
    expect(resumed.summary).toMatchObject({ status: 'done', processed: 30, succeeded: 30, failed: 0 });
    expect(service.items.size).toBe(0);
  });

  it('a refusal (401) is not waited through: it counts toward giving up as before', async () => {
    const { plan } = scriptedService(50);
    const refusal = () => new BridgeError({ code: 'SERVICE_ERROR', status: 401, message: 'invalid token' });
    const { asked, plan: failing } = failingFirst(plan, [refusal, refusal, refusal]);
    const run = await runJob(routerFor(newRunner(tempDir()), failing), 'test.job', everything);
    expect(waits(run)).toEqual([]);
    expect(asked).toHaveLength(JOB_GIVE_UP_AFTER);
    expect(run.summary).toMatchObject({
      status: 'failed',
      processed: 30,
      failed: 30,
      error: expect.stringMatching(/3 failed requests in a row/),
    });
    expect(run.summary!.failures[0]).toEqual({ id: 'item-0', message: 'invalid token' });
  });

  it('cancel during a wait stops at once: no request after it, and resume continues at the chunk', async () => {
    const dir = tempDir();
    const { plan } = scriptedService(30);
    const { asked, plan: failing } = failingFirst(plan, [unavailable]);
    // A wait far longer than the test: only a cancel that ends the wait lets the job end in time.
    const runner = newRunner(dir, [60_000]);
    const started = Date.now();
    const run = await runJob(routerFor(runner, failing), 'test.job', everything, {
      stopWhen: (event) => event.type === 'waiting',
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.summary).toMatchObject({ status: 'cancelled', processed: 0 });
    expect(asked).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toHaveLength(1);
    expect(runner.journal.get(run.summary!.jobId)).toMatchObject({
      status: 'cancelled',
      waited: { times: 1 },
    });
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
  it('a bulk request whose answer was lost after the service acted (503): asked again, its items count as done, not failed', async () => {
    const dir = tempDir();
    let lost = 1;
    const { service, plan } = bulkService(30, (chunk) =>
      chunk[0] === 'item-10' && lost-- > 0 ? { after: unavailable() } : {},
    );
    const runner = newRunner(dir);
    const run = await runJob(routerFor(runner, plan), 'test.job', everything);
    expect(run.summary).toMatchObject({
      status: 'done',
      total: 30,
      succeeded: 30,
      unconfirmed: 10,
      failed: 0,
    });
    expect(run.summary!.failures).toEqual([]);
    // The service acted once on each item; what the lost answer carried is not in `created`.
    expect(service.items.size).toBe(0);
    expect(run.summary!.created.map((item) => item.from)).toEqual(
      [...Array.from({ length: 10 }, (_, i) => i), ...Array.from({ length: 10 }, (_, i) => i + 20)].map(
        (i) => `item-${i}`,
      ),
    );
    expect(waits(run)).toHaveLength(1);
    // Read back from the journal the same.
    expect(newRunner(dir).journal.get(run.summary!.jobId)).toMatchObject({ succeeded: 30, unconfirmed: 10 });
    const chunkLines = readFileSync(join(dir, `${run.summary!.jobId}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; outcome?: object })
      .filter((line) => line.kind === 'chunk');
    // Only the chunk with some says so: the others are written as older versions wrote them.
    expect(chunkLines.map((line) => 'unconfirmed' in line.outcome!)).toEqual([false, true, false]);
  });

  it('a console that exits while the job waits after a lost answer: the resume still counts those items done, not failed', async () => {
    const dir = tempDir();
    let lost = 1;
    const { service, plan } = bulkService(30, (chunk) =>
      chunk[0] === 'item-10' && lost-- > 0 ? { after: unavailable() } : {},
    );
    const first = await runJob(routerFor(newRunner(dir, [60_000]), plan), 'test.job', everything, {
      stopWhen: (event) => event.type === 'waiting',
    });
    const jobId = first.summary!.jobId;
    // What a console that died during the wait leaves: no end line.
    const file = join(dir, `${jobId}.jsonl`);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    writeFileSync(file, `${lines.slice(0, -1).join('\n')}\n`);
    const restarted = newRunner(dir);
    expect(restarted.journal.get(jobId)).toMatchObject({ status: 'interrupted', processed: 10 });
    const resumed = await runJob(routerFor(restarted, plan), 'jobs.resume', { profileId: 'local', jobId });
    expect(resumed.summary).toMatchObject({ status: 'done', succeeded: 30, unconfirmed: 10, failed: 0 });
    expect(service.items.size).toBe(0);
  });

  it('a failure that proves the service did not act (429, a refused connection): an item gone when asked again is still a failure', async () => {
    for (const failure of [
      () => new BridgeError({ code: 'SERVICE_ERROR', status: 429, message: 'slow down' }),
      () => new BridgeError({ ...refused().toData(), networkCode: 'ECONNREFUSED' }),
    ]) {
      let refusing = 1;
      const { service, plan } = bulkService(30, (chunk) => {
        if (chunk[0] !== 'item-10' || refusing-- <= 0) return {};
        // Meanwhile someone else removes one of the chunk's items.
        service.items.delete('item-12');
        return { before: failure() };
      });
      const run = await runJob(routerFor(newRunner(tempDir()), plan), 'test.job', everything);
      expect(run.summary).toMatchObject({ status: 'done', succeeded: 29, failed: 1 });
      expect(run.summary!.unconfirmed).toBeUndefined();
      expect(run.summary!.failures).toEqual([{ id: 'item-12', message: 'some entries were not found' }]);
    }
  });

  it('an action not harmless to repeat goes again after a refused connection (never sent), not after a reset once the service read it', async () => {
    const received: string[] = [];
    let resets = 0;
    const live = await listening(
      createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          received.push(req.url!.slice(1));
          if (req.url === '/item-4' && resets > 0) {
            resets -= 1;
            req.socket.resetAndDestroy();
          } else res.end('{}');
        });
      }),
    );
    const closed = await closedPort();
    let refusals = 0;
    const { plan } = scriptedService(10);
    const callbacks = itemByItem(
      plan,
      async (item) => {
        const base = item === 'item-4' && refusals-- > 0 ? closed : live;
        await serviceRequest({ url: `${base}/${item}`, method: 'POST', body: '{}' });
        return { succeeded: 1 };
      },
      { repeatable: false },
    );
    const all = Array.from({ length: 10 }, (_, i) => `item-${i}`);

    refusals = 2;
    const afterRefusals = await runJob(routerFor(newRunner(tempDir()), callbacks), 'test.job', everything);
    expect(afterRefusals.summary).toMatchObject({ status: 'done', succeeded: 10, failed: 0 });
    expect(waits(afterRefusals).map((wait) => wait.reason)).toEqual([
      expect.stringMatching(/^Connection refused/),
      expect.stringMatching(/^Connection refused/),
    ]);
    expect(received).toEqual(all);

    received.length = 0;
    resets = 1;
    const afterReset = await runJob(routerFor(newRunner(tempDir()), callbacks), 'test.job', everything);
    expect(afterReset.summary).toMatchObject({ status: 'done', succeeded: 9, failed: 1 });
    expect(afterReset.summary!.failures).toEqual([
      { id: 'item-4', message: expect.stringMatching(/closed unexpectedly.*not sent again/) },
    ]);
    expect(waits(afterReset)).toHaveLength(1);
    // The service read item-4 once: it was not sent again.
    expect(received).toEqual(all);
  });

  it('a listing failure that may pass is waited through, then the listing goes on from its cursor', async () => {
    const dir = tempDir();
    const { service, plan } = scriptedService(250);
    const cursors: Array<string | undefined> = [];
    const failures = [unavailable, refused];
    service.failScan = (cursor) => {
      cursors.push(cursor);
      // The second page fails twice, then answers.
      return cursor === '99' ? failures.shift()?.() : undefined;
    };
    const runner = newRunner(dir);
    const run = await runJob(routerFor(runner, plan), 'test.job', everything);
    expect(run.found).toBe(250);
    expect(cursors).toEqual([undefined, '99', '99', '99', '199']);
    expect(waits(run).map(({ attempt, reason }) => [attempt, reason])).toEqual([
      [2, 'HTTP 503: the stack is restarting'],
      [3, expect.stringMatching(/^Connection refused/)],
    ]);
    // The waits came while listing, before the start.
    const types = run.events.map((event) => event.type);
    expect(types.indexOf('waiting')).toBeLessThan(types.indexOf('started'));
    expect(run.summary).toMatchObject({ status: 'done', total: 250, succeeded: 250 });
  });

  it('a listing that keeps failing ends the job with the service’s error; cancel ends a listing’s wait at once', async () => {
    const { service, plan } = scriptedService(30);
    service.failScan = () => unavailable();
    const failed = await runJob(routerFor(newRunner(tempDir(), [5, 5]), plan), 'test.job', everything);
    expect(failed.error).toMatchObject({ code: 'SERVICE_ERROR', status: 503 });
    expect(waits(failed)).toHaveLength(2);
    expect(service.scans).toBe(3);

    service.scans = 0;
    const started = Date.now();
    const cancelled = await runJob(routerFor(newRunner(tempDir(), [60_000]), plan), 'test.job', everything, {
      stopWhen: (event) => event.type === 'waiting',
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(cancelled.error).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(service.scans).toBe(1);
  });

  it('a listing that goes on while the job runs waits through its failure too (a journal wait line) and continues', async () => {
    const { service, plan } = scriptedService(JOB_SCAN_LIMIT + 25, 5000);
    plan.chunk = 5000;
    plan.continuesScan = true;
    let failing = 1;
    service.failScan = (cursor) =>
      Number(cursor) >= JOB_SCAN_LIMIT - 1 && failing-- > 0 ? unavailable() : undefined;
    const dir = tempDir();
    const runner = newRunner(dir);
    const run = await runJob(routerFor(runner, plan), 'test.job', everything);
    expect(run.found).toBe(JOB_SCAN_LIMIT);
    expect(waits(run)).toHaveLength(1);
    expect(run.summary).toMatchObject({
      status: 'done',
      total: JOB_SCAN_LIMIT + 25,
      succeeded: JOB_SCAN_LIMIT + 25,
    });
    expect(service.items.size).toBe(0);
    expect(newRunner(dir).journal.get(run.summary!.jobId)!.waited).toMatchObject({
      times: 1,
      reason: 'HTTP 503: the stack is restarting',
    });
  });
});
