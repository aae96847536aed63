// `npm run bench -- schedules [--quick] [--minutes N] [--no-warm-up]`: the local stack's scheduler at the budget —
// 10,000 active schedules with mixed crons, exactly 1,000 of them due each minute — against plain publishes
// measured in the same run.
//
//   - lateness: for each delivery of a tick, its arrival at the sink minus the tick's minute (budget: p99 <
//     500 ms);
//   - stack RSS sampled through the run (budget: < 300 MB);
//   - the cost of a tick: the stack process's CPU time per message of a tick (from 2 s before the minute, before
//     the scheduler plans and commits the tick ahead of it, until its last delivery), as a ratio to its CPU time per message of a burst of 1,000 plain publishes to
//     the same sink between two ticks. Both include the delivery; the publish also parses an HTTP request.
//
// A report, not a test: it prints the numbers with the machine's load and writes bench/results/schedules.json.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { freePortArgs, spawnStack } from '../stack/test-process';
import { percentile, printTable } from './lib/report';

const MINUTE = 60_000;
const TOTAL_SCHEDULES = 10_000;
const DUE_PER_MINUTE = 1_000;
const PUBLISH_BURST = 1_000;
const CONCURRENCY = 32;

// ------------------------------------------------------------------------------------------- the crons

/**
 * 10,000 crons of which exactly 1,000 fire in every minute: 400 every minute, and for each step k of
 * 2, 3, 4, 5, 6 and 10 minutes, 100 schedules at each offset (`o-59/k`), so that 100 of them fire in any
 * minute. The other 6,600 never fire during the run: daily, weekly, monthly and yearly crons, a third of them
 * in a time zone, on days of the month or week at least two days away in every zone.
 */
export function benchCrons(now: number): string[] {
  const crons: string[] = [];
  for (let i = 0; i < 400; i++) crons.push('* * * * *');
  for (const step of [2, 3, 4, 5, 6, 10]) {
    for (let offset = 0; offset < step; offset++) {
      for (let i = 0; i < 100; i++) crons.push(`${offset}-59/${step} * * * *`);
    }
  }
  const today = new Date(now);
  const farDay = ((today.getUTCDate() + 9) % 28) + 1; // 8–10 days away from today in any zone
  const farWeekday = (today.getUTCDay() + 3) % 7;
  const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney'];
  for (let i = 0; crons.length < TOTAL_SCHEDULES; i++) {
    const minute = i % 60;
    const hour = Math.floor(i / 60) % 24;
    const zone = i % 3 === 0 ? `CRON_TZ=${zones[i % zones.length]} ` : '';
    switch (i % 4) {
      case 0:
        crons.push(`${zone}${minute} ${hour} ${farDay} * *`);
        break;
      case 1:
        crons.push(`${zone}${minute} ${hour} * * ${farWeekday}`);
        break;
      case 2:
        crons.push(`${zone}${minute} ${hour} ${farDay} ${((today.getUTCMonth() + 6) % 12) + 1} *`);
        break;
      default:
        crons.push(`${zone}${minute} ${hour} ${farDay},${((farDay + 3) % 28) + 1} * ${farWeekday}`);
    }
  }
  return crons;
}

// ------------------------------------------------------------------------------------------- measuring

/** The stack's CPU time so far (user + system), in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After "pid (comm) ": state is field 0, utime 11, stime 12 (clock ticks of 10 ms).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}

interface Arrival {
  wall: number;
  schedule: boolean;
}

class Sink {
  readonly arrivals: Arrival[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];
  private readonly server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      this.arrivals.push({ wall: Date.now(), schedule: req.headers['upstash-schedule-id'] !== undefined });
      res.writeHead(200, { 'content-length': '2' });
      res.end('ok');
      this.waiters = this.waiters.filter((waiter) => {
        if (this.arrivals.length < waiter.count) return true;
        waiter.resolve();
        return false;
      });
    });
  });
  url = '';

  async start(): Promise<void> {
    this.server.keepAliveTimeout = 120_000;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` deliveries have arrived in all (or rejects after `timeoutMs`). */
  until(count: number, timeoutMs: number): Promise<void> {
    if (this.arrivals.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`only ${this.arrivals.length} of ${count} deliveries arrived`)),
        timeoutMs,
      );
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

const sleepUntil = (wall: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, wall - Date.now())));

// ------------------------------------------------------------------------------------------- the run

interface MinuteResult {
  minute: string;
  deliveries: number;
  p50: number;
  p99: number;
  max: number;
  tickCpuMsPerMessage: number;
  publishCpuMsPerMessage: number;
  publishP99: number;
}

export async function run(args: string[]): Promise<void> {
  const quick = args.includes('--quick');
  const minutesArg = args.indexOf('--minutes');
  const minutes = minutesArg >= 0 ? Number(args[minutesArg + 1]) : quick ? 2 : 4;
  const loadBefore = loadavg();
  console.log(
    `schedules bench: ${TOTAL_SCHEDULES.toLocaleString('en-US')} schedules, ${DUE_PER_MINUTE} due each minute, ${minutes} measured minutes${args.includes('--no-warm-up') ? ', stack started with --no-warm-up' : ''}; ${cpus().length} CPUs, load ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-bench-schedules-'));
  const sink = new Sink();
  await sink.start();
  // The stack as users start it, warm-up included. `--no-warm-up` passes through, to show what the warm-up
  // buys: without it the first tick's 1,000 deliveries run through cold code (each frame about twice its
  // later cost), and that minute is the run's worst.
  const warmUp = args.includes('--no-warm-up') ? ['--no-warm-up'] : [];
  const stack = spawnStack([...freePortArgs(dataDir), '--log-level', 'warn', ...warmUp], {
    timeoutMs: 60_000,
  });
  const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 120_000 });
  const pid = stack.child.pid as number;
  let rssMax = 0;
  const rssTimer = setInterval(() => {
    if (stack.child.exitCode === null) rssMax = Math.max(rssMax, rssMb(pid));
  }, 250);
  try {
    const ready = await stack.ready;
    const api = ready.messages.url;
    const auth = { authorization: `Bearer ${ready.messages.token}` };

    // 1. Create the schedules.
    const crons = benchCrons(Date.now());
    const createStart = Date.now();
    await inParallel(
      crons.map((cron, i) => ({ cron, i })),
      CONCURRENCY,
      async ({ cron, i }) => {
        const response = await request(`${api}/v2/schedules/${sink.url}/s${i % 100}`, {
          method: 'POST',
          dispatcher: agent,
          headers: { ...auth, 'upstash-cron': cron, 'content-type': 'application/json' },
          body: `{"schedule":${i}}`,
        });
        const text = await response.body.text();
        if (response.statusCode !== 200) throw new Error(`create ${cron}: ${response.statusCode} ${text}`);
      },
    );
    const createSeconds = (Date.now() - createStart) / 1_000;
    console.log(
      `created ${crons.length.toLocaleString('en-US')} schedules in ${createSeconds.toFixed(1)} s; RSS ${rssMb(pid).toFixed(0)} MB`,
    );

    // 2. Minutes: each tick's deliveries, then a burst of plain publishes half-way to the next tick.
    const results: MinuteResult[] = [];
    let first = Math.floor(Date.now() / MINUTE) * MINUTE + MINUTE;
    // A tick less than 5 s away may already be firing for schedules created late; start at the next one.
    if (first - Date.now() < 5_000) first += MINUTE;
    // Ticks before the first measured one also deliver; count from what has arrived by then.
    for (let m = 0; m < minutes; m++) {
      const minute = first + m * MINUTE;
      // The scheduler plans and commits a tick 1 s ahead (PLAN_AHEAD_MS): the window opens before that.
      await sleepUntil(minute - 2_000);
      const before = sink.arrivals.length;
      const cpuBefore = cpuMs(pid);
      await sink.until(before + DUE_PER_MINUTE, 50_000);
      const cpuTick = cpuMs(pid) - cpuBefore;
      const tick = sink.arrivals.slice(before, before + DUE_PER_MINUTE);
      const lateness = tick.map((arrival) => arrival.wall - minute);

      await sleepUntil(minute + 25_000);
      const publishBefore = sink.arrivals.length;
      const cpuPublishBefore = cpuMs(pid);
      const sent = Date.now();
      await inParallel(
        Array.from({ length: PUBLISH_BURST }, (_, i) => i),
        CONCURRENCY,
        async (i) => {
          const response = await request(`${api}/v2/publish/${sink.url}/p${i % 100}`, {
            method: 'POST',
            dispatcher: agent,
            headers: { ...auth, 'content-type': 'application/json' },
            body: `{"publish":${i}}`,
          });
          await response.body.text();
          if (response.statusCode !== 200) throw new Error(`publish: ${response.statusCode}`);
        },
      );
      await sink.until(publishBefore + PUBLISH_BURST, 30_000);
      const cpuPublish = cpuMs(pid) - cpuPublishBefore;
      const publishLatency = sink.arrivals
        .slice(publishBefore, publishBefore + PUBLISH_BURST)
        .map((arrival) => arrival.wall - sent);
      const stray = tick.filter((arrival) => !arrival.schedule).length;
      if (stray > 0) throw new Error(`${stray} deliveries of the tick were not scheduled messages`);
      results.push({
        minute: new Date(minute).toISOString().slice(11, 16),
        deliveries: tick.length,
        p50: percentile(lateness, 50),
        p99: percentile(lateness, 99),
        max: Math.max(...lateness),
        tickCpuMsPerMessage: cpuTick / DUE_PER_MINUTE,
        publishCpuMsPerMessage: cpuPublish / PUBLISH_BURST,
        publishP99: percentile(publishLatency, 99),
      });
      const last = results[results.length - 1] as MinuteResult;
      console.log(
        `${last.minute} UTC: ${last.deliveries} deliveries, lateness p50 ${last.p50} / p99 ${last.p99} / max ${last.max} ms; CPU per message: tick ${last.tickCpuMsPerMessage.toFixed(3)} ms, publish ${last.publishCpuMsPerMessage.toFixed(3)} ms`,
      );
    }

    const loadAfter = loadavg();
    const allP99 = percentile(
      results.map((r) => r.p99),
      50,
    );
    const tickCost = percentile(
      results.map((r) => r.tickCpuMsPerMessage),
      50,
    );
    const publishCost = percentile(
      results.map((r) => r.publishCpuMsPerMessage),
      50,
    );
    const ratio = percentile(
      results.map((r) => r.tickCpuMsPerMessage / r.publishCpuMsPerMessage),
      50,
    );
    console.log('');
    printTable(
      [
        'minute (UTC)',
        'deliveries',
        'lateness p50',
        'p99',
        'max',
        'publish p99',
        'CPU/msg tick',
        'CPU/msg publish',
        'ratio',
      ],
      results.map((r) => [
        r.minute,
        String(r.deliveries),
        `${r.p50} ms`,
        `${r.p99} ms`,
        `${r.max} ms`,
        `${r.publishP99} ms`,
        `${r.tickCpuMsPerMessage.toFixed(3)} ms`,
        `${r.publishCpuMsPerMessage.toFixed(3)} ms`,
        (r.tickCpuMsPerMessage / r.publishCpuMsPerMessage).toFixed(2),
      ]),
    );
    console.log('');
    const worstP99 = Math.max(...results.map((r) => r.p99));
    console.log(
      `budget: p99 lateness < 500 ms — median of minutes ${allP99} ms, worst minute ${worstP99} ms: ${worstP99 < 500 ? 'met' : 'MISSED'}`,
    );
    console.log(
      `budget: stack RSS < 300 MB — max ${rssMax.toFixed(0)} MB: ${rssMax < 300 ? 'met' : 'MISSED'}`,
    );
    console.log(
      `cost of a tick: ${tickCost.toFixed(3)} ms CPU per message against ${publishCost.toFixed(3)} ms for a plain publish (medians of minutes); ratio ${ratio.toFixed(2)} (median of the minutes' ratios)`,
    );
    console.log(
      `load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`,
    );
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/schedules.json',
      JSON.stringify(
        { minutes: results, rssMaxMb: rssMax, createSeconds, loadBefore, loadAfter, cpus: cpus().length },
        null,
        2,
      ),
    );
  } finally {
    clearInterval(rssTimer);
    await stack.stop();
    await sink.close();
    await agent.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
