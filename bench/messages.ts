// `npm run bench -- messages [--quick]`: the local stack's message delivery, end to end over HTTP, against
// BullMQ (Redis-backed job queue) doing the same work on the same machine in the same run.
//
//   stack:  bench process publishes over HTTP → stack process (SQLite WAL; default durability: committed to
//           the WAL before the 200, fsynced within ~0.1 s; also measured with fsync per commit) → HTTP
//           delivery to a sink in the bench process.
//   BullMQ: bench process adds jobs → redis-server (AOF, appendfsync everysec) → a BullMQ Worker in the bench
//           process POSTs each job to the same kind of sink.
//   floor:  (throughput rounds only) the least a server of the stack's design can do per message: node:http in,
//           a group-committed SQLite insert, undici out, nothing else (bench/lib/relay-floor.ts); it shows
//           whether a target is reachable at all with this design on this machine.
// Both sides are durable; both deliver over HTTP with keep-alive. A report, not a test: it prints ratios and
// budgets, and writes bench/results/messages.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Queue, Worker } from 'bullmq';
import { Agent, request } from 'undici';
import { freePortArgs, spawnStack, type StackProcess } from '../stack/test-process';
import { RELAY_FLOOR_ARG, runRelayFloor } from './lib/relay-floor';

interface Options {
  throughputMessages: number;
  latencySeconds: number;
  latencyRate: number;
  pending: number;
  delayedProbes: number;
  delayedSpreadSeconds: number;
}

const FULL: Options = {
  throughputMessages: 20_000,
  latencySeconds: 10,
  latencyRate: 1_000,
  pending: 100_000,
  delayedProbes: 2_000,
  delayedSpreadSeconds: 20,
};
const QUICK: Options = {
  throughputMessages: 4_000,
  latencySeconds: 4,
  latencyRate: 1_000,
  pending: 20_000,
  delayedProbes: 500,
  delayedSpreadSeconds: 5,
};

const PUBLISHERS = 64;
const WORKER_CONCURRENCY = 64;

// ------------------------------------------------------------------------------------------- helpers

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;
const rate = (value: number): string => `${Math.round(value).toLocaleString('en-US')} msg/s`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), timeoutMs);
    }),
  ]);
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

/** Records arrival times keyed by the `i` of each JSON body; resolves `done` when `expected` arrived. */
class Sink {
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const now = performance.now();
      const wall = Date.now();
      res.writeHead(200, { 'content-length': '2' });
      res.end('ok');
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { i: number; t?: number; due?: number };
        this.onArrival(body, now, wall);
      } catch {
        // Not a bench message.
      }
    });
  });
  url = '';
  onArrival: (body: { i: number; t?: number; due?: number }, now: number, wall: number) => void = () =>
    undefined;

  async start(): Promise<void> {
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

// ------------------------------------------------------------------------------------------- processes

interface Managed {
  child: ChildProcess;
  stop(): Promise<void>;
}

function manage(child: ChildProcess): Managed {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The real stack process on free ports (the same launcher as the stack's own process tests). */
async function startStack(
  dataDir: string,
  extra: string[] = [],
): Promise<StackProcess & { url: string; token: string }> {
  const stack = spawnStack([...freePortArgs(dataDir), '--log-level', 'warn', ...extra], {
    timeoutMs: 30_000,
  });
  const ready = await stack.ready;
  return Object.assign(stack, { url: ready.messages.url, token: ready.messages.token });
}

async function startRedis(dir: string): Promise<Managed & { port: number }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--save',
      '',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.once('error', () => undefined);
  const managed = manage(child);
  await withTimeout(
    new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) resolve();
      });
      child.once('error', (error) =>
        reject(
          new Error(
            `redis-server could not start (${error.message}); install it: apt-get install redis-server`,
          ),
        ),
      );
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    }),
    15_000,
    'redis-server start',
  );
  return { ...managed, port };
}

// ------------------------------------------------------------------------------------------- the two systems

interface System {
  name: string;
  /** Sends one message whose JSON body is `body`, optionally due at a wall-clock time (ms). */
  send(body: object, dueWallMs?: number): Promise<void>;
  /** Puts many far-future messages in place (for the pending-load scenario). */
  fill(count: number): Promise<void>;
  pid(): number | undefined;
  close(): Promise<void>;
}

/** The stack's publish as the load generator sends it: one POST a message over keep-alive connections. */
function httpPublisher(agent: Agent, publishUrl: string, auth: string): System['send'] {
  return async (body, dueWallMs) => {
    const headers: Record<string, string> = { authorization: auth, 'content-type': 'application/json' };
    if (dueWallMs !== undefined) headers['upstash-not-before'] = String(Math.floor(dueWallMs / 1000));
    const response = await request(publishUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      dispatcher: agent,
    });
    await response.body.dump();
    if (response.statusCode !== 200) throw new Error(`publish answered ${response.statusCode}`);
  };
}

/**
 * The floor of the stack's design (bench/lib/relay-floor.ts) in a process of its own, published to exactly as
 * the stack is (same client, same headers), delivering to the same sink. Throughput rounds only.
 */
async function relayFloorSystem(sink: Sink): Promise<System> {
  const child = spawn(process.execPath, [process.argv[1]!, 'messages', RELAY_FLOOR_ARG], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.once('error', () => undefined);
  const managed = manage(child);
  const url = await withTimeout(
    new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n').find((candidate) => candidate.startsWith('{'));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.once('exit', (code) => reject(new Error(`the relay floor exited with ${code}`)));
    }),
    30_000,
    'relay floor start',
  );
  const agent = new Agent({ connections: PUBLISHERS, keepAliveTimeout: 60_000 });
  return {
    name: 'floor',
    send: httpPublisher(agent, `${url}/v2/publish/${sink.url}/bench`, 'Bearer relay-floor'),
    fill: () => Promise.reject(new Error('the relay floor keeps no delayed messages')),
    pid: () => child.pid,
    async close() {
      await agent.close();
      await managed.stop();
    },
  };
}

async function stackSystem(sink: Sink, dir: string, extra: string[] = [], label = 'stack'): Promise<System> {
  const stack = await startStack(dir, extra);
  const agent = new Agent({ connections: PUBLISHERS, keepAliveTimeout: 60_000 });
  const auth = `Bearer ${stack.token}`;
  return {
    name: label,
    send: httpPublisher(agent, `${stack.url}/v2/publish/${sink.url}/bench`, auth),
    async fill(count) {
      for (let start = 0; start < count; start += 500) {
        const items = Array.from({ length: Math.min(500, count - start) }, (_, k) => ({
          destination: `${sink.url}/far`,
          headers: { 'Upstash-Delay': '2h', 'Content-Type': 'application/json' },
          body: JSON.stringify({ i: -1, filler: start + k }),
        }));
        const response = await request(`${stack.url}/v2/batch`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify(items),
          dispatcher: agent,
        });
        await response.body.dump();
        if (response.statusCode !== 200) throw new Error(`batch answered ${response.statusCode}`);
      }
    },
    pid: () => stack.child.pid,
    async close() {
      await agent.close();
      await stack.stop();
    },
  };
}

async function bullmqSystem(sink: Sink, dir: string): Promise<System> {
  const redis = await startRedis(dir);
  const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
  const name = `bench-${Date.now()}`;
  const queue = new Queue(name, { connection });
  const agent = new Agent({ connections: WORKER_CONCURRENCY, keepAliveTimeout: 60_000 });
  const target = `${sink.url}/bench`;
  const worker = new Worker(
    name,
    async (job) => {
      const response = await request(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(job.data),
        dispatcher: agent,
      });
      await response.body.dump();
      if (response.statusCode >= 300) throw new Error(`sink answered ${response.statusCode}`);
    },
    {
      connection,
      concurrency: WORKER_CONCURRENCY,
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 1000 },
    },
  );
  await worker.waitUntilReady();
  await queue.waitUntilReady();
  return {
    name: 'BullMQ',
    async send(body, dueWallMs) {
      const delay = dueWallMs === undefined ? undefined : Math.max(0, dueWallMs - Date.now());
      await queue.add('deliver', body, { delay, attempts: 4, backoff: { type: 'exponential', delay: 1000 } });
    },
    async fill(count) {
      for (let start = 0; start < count; start += 500) {
        await queue.addBulk(
          Array.from({ length: Math.min(500, count - start) }, (_, k) => ({
            name: 'deliver',
            data: { i: -1, filler: start + k },
            opts: { delay: 2 * 3_600_000 },
          })),
        );
      }
    },
    pid: () => redis.child.pid,
    async close() {
      await worker.close();
      await queue.close();
      await agent.close();
      await redis.stop();
    },
  };
}

// ------------------------------------------------------------------------------------------- scenarios

/** Closed loop: PUBLISHERS concurrent senders push `count` messages; time from first send to last arrival. */
/** CPU seconds (user + system, all threads) a process has used so far; NaN where /proc is missing. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    // Fields after the `(comm)`: state is 3rd, utime 14th, stime 15th (in clock ticks, 100 per second on Linux).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

interface ThroughputResult {
  rate: number;
  /** CPU time per message, in µs, of the system's server process (stack or redis-server)… */
  serverCpuUs: number;
  /** …and of this bench process (publishers, sink, and for BullMQ its worker). */
  benchCpuUs: number;
}

/** Closed loop: PUBLISHERS concurrent senders push `count` messages; time from first send to last arrival. */
async function throughput(system: System, sink: Sink, count: number): Promise<ThroughputResult> {
  let arrived = 0;
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  sink.onArrival = (body) => {
    if (body.i >= 0 && ++arrived === count) resolveDone();
  };
  const serverCpu = cpuSeconds(system.pid());
  const benchCpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PUBLISHERS }, async () => {
      while (next < count) await system.send({ i: next++ });
    }),
  );
  await withTimeout(done, 300_000, `${system.name}: ${count} deliveries`);
  const seconds = (performance.now() - started) / 1000;
  const bench = process.cpuUsage(benchCpu);
  return {
    rate: count / seconds,
    serverCpuUs: ((cpuSeconds(system.pid()) - serverCpu) * 1e6) / count,
    benchCpuUs: (bench.user + bench.system) / count,
  };
}

/**
 * Open loop at a fixed offered rate; latency = arrival at the sink − the moment the send started. With
 * `sentAt`, the send time of each latency (ms since the loop started) is pushed there, in the same order.
 */
async function latency(
  system: System,
  sink: Sink,
  perSecond: number,
  seconds: number,
  sentAt?: number[],
): Promise<number[]> {
  const total = perSecond * seconds;
  const latencies: number[] = [];
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const start = performance.now();
  sink.onArrival = (body, now) => {
    if (body.t === undefined) return;
    latencies.push(now - body.t);
    sentAt?.push(body.t - start);
    if (latencies.length === total) resolveDone();
  };
  const sends: Promise<void>[] = [];
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * perSecond));
      while (sent < due) {
        sends.push(system.send({ i: sent++, t: performance.now() }));
      }
      if (sent >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(sends);
  await withTimeout(done, 120_000, `${system.name}: latency deliveries`);
  return latencies;
}

/** With `pending` far-future messages in place, `probes` messages due over the next seconds; lateness. */
async function delayed(
  system: System,
  sink: Sink,
  options: Options,
): Promise<{ lateness: number[]; rss: number; fillSeconds: number }> {
  const fillStart = performance.now();
  await system.fill(options.pending);
  const fillSeconds = (performance.now() - fillStart) / 1000;
  const lateness: number[] = [];
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  sink.onArrival = (body, _now, wall) => {
    if (body.due === undefined) return;
    lateness.push(wall - body.due);
    if (lateness.length === options.delayedProbes) resolveDone();
  };
  // Due times on whole seconds (Not-Before has second resolution), starting 3 s from now.
  const firstSecond = Math.ceil(Date.now() / 1000) + 3;
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < options.delayedProbes) {
        const i = next++;
        const due = (firstSecond + (i % options.delayedSpreadSeconds)) * 1000;
        await system.send({ i, due }, due);
      }
    }),
  );
  const pid = system.pid();
  const rss = pid === undefined ? NaN : rssMb(pid);
  await withTimeout(done, (options.delayedSpreadSeconds + 60) * 1000, `${system.name}: delayed deliveries`);
  return { lateness, rss: Math.max(rss, pid === undefined ? NaN : rssMb(pid)), fillSeconds };
}

// ------------------------------------------------------------------------------------------- report

function median(values: number[]): number {
  return percentile(values, 50);
}

export async function run(args: string[]): Promise<void> {
  if (args.includes(RELAY_FLOOR_ARG)) return runRelayFloor();
  const quick = args.includes('--quick');
  const options = quick ? QUICK : FULL;
  const rounds = quick ? 1 : 5;
  // `--cold`: only the cold-start measurement (`--cold-rounds N`, default 3).
  const coldOnly = args.includes('--cold');
  const coldRoundsArg = args.indexOf('--cold-rounds');
  const coldRounds = coldRoundsArg >= 0 ? Number(args[coldRoundsArg + 1]) : 3;
  // `--cold-rate N`: the offered rate of the cold-start runs (default the latency rate, 1,000 msg/s).
  const coldRateArg = args.indexOf('--cold-rate');
  const coldRate = coldRateArg >= 0 ? Number(args[coldRateArg + 1]) : undefined;
  const root = mkdtempSync(join(tmpdir(), 'switchyard-bench-messages-'));
  const sink = new Sink();
  await sink.start();
  const lines: string[] = [];
  const say = (line = ''): void => {
    lines.push(line);
    console.log(line);
  };
  const load = (): string =>
    loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
  const results: Record<string, unknown> = {
    options,
    rounds,
    cpus: cpus().length,
    node: process.version,
    at: new Date().toISOString(),
  };
  const open = new Set<System>();
  let dirs = 0;
  const freshDir = (): string => {
    const dir = join(root, String(dirs++));
    mkdirSync(dir);
    return dir;
  };
  /** Starts a fresh system, runs `body`, and always closes it. */
  const withSystem = async <T>(
    make: () => Promise<System>,
    body: (system: System) => Promise<T>,
  ): Promise<T> => {
    const system = await make();
    open.add(system);
    try {
      return await body(system);
    } finally {
      open.delete(system);
      await system.close();
    }
  };
  const stack =
    (extra: string[] = [], label?: string) =>
    () =>
      stackSystem(sink, freshDir(), extra, label);
  const bullmq = () => bullmqSystem(sink, freshDir());
  try {
    say(
      `messages benchmark — ${cpus().length} CPU(s), node ${process.version}${quick ? ' (quick)' : ''}, load average ${load()}`,
    );
    say(
      `(a shared machine gives noisy numbers: systems alternate over ${rounds} round(s) and medians are reported)`,
    );
    say();

    // Cold start: a fresh stack under load from the moment it says it is ready; the first second against
    // the seconds after it, in the same runs.
    // Without the warm-up (`--no-warm-up`) and with it, alternating, so both see the same background load.
    const variants = { cold: ['--no-warm-up'], warm: [] as string[] };
    const samples = () => ({
      first: [] as number[],
      rest: [] as number[],
      ready: [] as number[],
      roundRatios: [] as number[],
    });
    const cold = { cold: samples(), warm: samples() };
    for (let round = 0; round < coldRounds; round++) {
      for (const key of ['cold', 'warm'] as const) {
        // Spawn to ready line: what the warm-up costs before the stack can be used.
        const timedStart = async (): Promise<System> => {
          const spawned = performance.now();
          const system = await stack(variants[key])();
          cold[key].ready.push(performance.now() - spawned);
          return system;
        };
        await withSystem(timedStart, async (system) => {
          const sentAt: number[] = [];
          const values = await latency(system, sink, coldRate ?? options.latencyRate, 3, sentAt);
          const into = cold[key];
          const round = { first: [] as number[], rest: [] as number[] };
          values.forEach((value, i) =>
            ((sentAt[i] as number) < 1_000 ? round.first : round.rest).push(value),
          );
          into.first.push(...round.first);
          into.rest.push(...round.rest);
          into.roundRatios.push(percentile(round.first, 99) / percentile(round.rest, 99));
        });
      }
    }
    const stats = (values: number[]) => ({
      p50: percentile(values, 50),
      p99: percentile(values, 99),
      max: Math.max(...values),
    });
    say(
      `cold start: a fresh stack at ${coldRate ?? options.latencyRate} msg/s from its ready line, ${coldRounds} × 3 s each; first second vs seconds 2–3`,
    );
    results.coldStart = {};
    for (const key of ['cold', 'warm'] as const) {
      const first = stats(cold[key].first);
      const rest = stats(cold[key].rest);
      const ready = median(cold[key].ready);
      const label = key === 'cold' ? '--no-warm-up' : 'warm-up (default)';
      say(
        `  ${label.padEnd(18)} first second p50 ${ms(first.p50)} p99 ${ms(first.p99)} max ${ms(first.max)}   ` +
          `seconds 2–3 p99 ${ms(rest.p99)} max ${ms(rest.max)}   ratio p99 ${(first.p99 / rest.p99).toFixed(2)}, max ${(first.max / rest.max).toFixed(2)}   ` +
          `spawn to ready ${ms(ready)} (median)`,
      );
      // The verdict is the pooled ratio above; the rounds show whether one backlogged round set it.
      const roundRatios = cold[key].roundRatios;
      say(
        `  ${''.padEnd(18)} per round: ratio p99 ${roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')}`,
      );
      (results.coldStart as Record<string, unknown>)[key] = { first, rest, readyMs: ready, roundRatios };
    }
    say();
    if (coldOnly) return;

    // Throughput, alternating the systems round by round so that both see the same background load.
    const runs = {
      stack: [] as ThroughputResult[],
      full: [] as ThroughputResult[],
      bullmq: [] as ThroughputResult[],
      floor: [] as ThroughputResult[],
    };
    for (let round = 0; round < rounds; round++) {
      for (const [key, make] of [
        ['stack', stack()],
        ['full', stack(['--durability', 'full'], 'stack (durability full)')],
        ['bullmq', bullmq],
        ['floor', () => relayFloorSystem(sink)],
      ] as const) {
        const result = await withSystem(make, async (system) => {
          await throughput(system, sink, 1_000); // warm-up: connections, JIT
          return throughput(system, sink, options.throughputMessages);
        });
        runs[key].push(result);
      }
    }
    const rates = {
      stack: runs.stack.map((r) => r.rate),
      full: runs.full.map((r) => r.rate),
      bullmq: runs.bullmq.map((r) => r.rate),
      floor: runs.floor.map((r) => r.rate),
    };
    const cpuUs = (list: ThroughputResult[]) => {
      const server = median(list.map((r) => r.serverCpuUs));
      const bench = median(list.map((r) => r.benchCpuUs));
      return { server, bench, total: server + bench };
    };
    const cpu = (list: ThroughputResult[]): string => {
      const { server, bench, total } = cpuUs(list);
      return `${Math.round(total)} µs CPU/msg (server ${Math.round(server)} + bench ${Math.round(bench)})`;
    };
    const stackRate = median(rates.stack);
    const fullRate = median(rates.full);
    const bullRate = median(rates.bullmq);
    const floorRate = median(rates.floor);
    say(
      `throughput: ${options.throughputMessages.toLocaleString('en-US')} messages, ${PUBLISHERS} concurrent publishers, delivered to a local HTTP sink (median of ${rounds})`,
    );
    say(
      `  stack (SQLite WAL, default durability)      ${rate(stackRate)}   runs: ${rates.stack.map(Math.round).join(', ')}`,
    );
    say(
      `  stack (--durability full: fsync per commit) ${rate(fullRate)}   runs: ${rates.full.map(Math.round).join(', ')}`,
    );
    say(
      `  BullMQ (Redis AOF everysec, ${WORKER_CONCURRENCY} workers)      ${rate(bullRate)}   runs: ${rates.bullmq.map(Math.round).join(', ')}`,
    );
    say(
      `  ratio stack / BullMQ = ${(stackRate / bullRate).toFixed(2)} (full: ${(fullRate / bullRate).toFixed(2)})   budget ≥ 1.0 → ${stackRate >= bullRate ? 'met' : 'MISSED'}`,
    );
    say(
      `  floor (HTTP relay + batched SQLite insert)  ${rate(floorRate)}   runs: ${rates.floor.map(Math.round).join(', ')}`,
    );
    say(`  cost: stack ${cpu(runs.stack)}; BullMQ ${cpu(runs.bullmq)}; floor ${cpu(runs.floor)}`);
    // Issue 26's targets, each beside what the design's floor reaches in the same rounds: a target the floor
    // misses is out of reach on this machine for any HTTP-in / HTTP-out server on Node's http and undici, not
    // only for the stack.
    const cpuRatio = cpuUs(runs.stack).total / cpuUs(runs.bullmq).total;
    const floorCpuRatio = cpuUs(runs.floor).total / cpuUs(runs.bullmq).total;
    say(
      `  CPU per message / BullMQ's: stack ${cpuRatio.toFixed(2)} (target ≤ 0.67 → ${cpuRatio <= 0.67 ? 'met' : 'MISSED'}), floor ${floorCpuRatio.toFixed(2)}; the stack above the floor: ${Math.round(cpuUs(runs.stack).total - cpuUs(runs.floor).total)} µs`,
    );
    say(
      `  throughput / BullMQ's: stack ${(stackRate / bullRate).toFixed(2)} (target ≥ 1.5 → ${stackRate >= 1.5 * bullRate ? 'met' : 'MISSED'}), floor ${(floorRate / bullRate).toFixed(2)}`,
    );
    say();
    results.throughput = { ...runs, ratio: stackRate / bullRate, cpuRatio, floorCpuRatio };

    // Latency at a fixed offered load.
    const latencyRounds = quick ? 1 : 2;
    const stackLatency: number[] = [];
    const bullLatency: number[] = [];
    // Steady state: each fresh system first runs 2 s at the same rate (JIT, connections, first WAL growth).
    const measured = async (system: System): Promise<number[]> => {
      await latency(system, sink, options.latencyRate, 2);
      return latency(system, sink, options.latencyRate, options.latencySeconds);
    };
    for (let round = 0; round < latencyRounds; round++) {
      stackLatency.push(...(await withSystem(stack(), measured)));
      bullLatency.push(...(await withSystem(bullmq, measured)));
    }
    const stackP99 = percentile(stackLatency, 99);
    const bullP99 = percentile(bullLatency, 99);
    say(
      `latency publish → delivery at ${options.latencyRate} msg/s, ${latencyRounds} × ${options.latencySeconds} s`,
    );
    say(
      `  stack   p50 ${ms(percentile(stackLatency, 50))}   p99 ${ms(stackP99)}   max ${ms(Math.max(...stackLatency))}`,
    );
    say(
      `  BullMQ  p50 ${ms(percentile(bullLatency, 50))}   p99 ${ms(bullP99)}   max ${ms(Math.max(...bullLatency))}`,
    );
    say(
      `  ratio p99 BullMQ / stack = ${(bullP99 / stackP99).toFixed(2)}   budget stack p99 < 25 ms → ${stackP99 < 25 ? 'met' : 'MISSED'}`,
    );
    say();
    results.latency = {
      stack: { p50: percentile(stackLatency, 50), p99: stackP99, max: Math.max(...stackLatency) },
      bullmq: { p50: percentile(bullLatency, 50), p99: bullP99, max: Math.max(...bullLatency) },
    };

    // Delayed deliveries with many pending.
    const stackDelayed = await withSystem(stack(), (system) => delayed(system, sink, options));
    const bullDelayed = await withSystem(bullmq, (system) => delayed(system, sink, options));
    const stackLate99 = percentile(stackDelayed.lateness, 99);
    say(
      `delayed: ${options.pending.toLocaleString('en-US')} pending (due in 2 h), then ${options.delayedProbes} due over ${options.delayedSpreadSeconds} s; lateness = arrival − due time`,
    );
    say(
      `  stack   p50 ${ms(percentile(stackDelayed.lateness, 50))}   p99 ${ms(stackLate99)}   max ${ms(Math.max(...stackDelayed.lateness))}   (filled in ${stackDelayed.fillSeconds.toFixed(1)} s)`,
    );
    say(
      `  BullMQ  p50 ${ms(percentile(bullDelayed.lateness, 50))}   p99 ${ms(percentile(bullDelayed.lateness, 99))}   max ${ms(Math.max(...bullDelayed.lateness))}   (filled in ${bullDelayed.fillSeconds.toFixed(1)} s)`,
    );
    say(`  budget stack p99 < 50 ms → ${stackLate99 < 50 ? 'met' : 'MISSED'}`);
    say(
      `  stack RSS with ${options.pending.toLocaleString('en-US')} pending: ${stackDelayed.rss.toFixed(0)} MB   budget < 250 MB → ${stackDelayed.rss < 250 ? 'met' : 'MISSED'}   (redis-server for BullMQ: ${bullDelayed.rss.toFixed(0)} MB)`,
    );
    say();
    say(`load average at the end: ${load()}`);
    results.delayed = {
      stack: {
        p50: percentile(stackDelayed.lateness, 50),
        p99: stackLate99,
        max: Math.max(...stackDelayed.lateness),
        rssMb: stackDelayed.rss,
      },
      bullmq: {
        p50: percentile(bullDelayed.lateness, 50),
        p99: percentile(bullDelayed.lateness, 99),
        max: Math.max(...bullDelayed.lateness),
        redisRssMb: bullDelayed.rss,
      },
    };
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/messages.json', JSON.stringify({ ...results, report: lines }, null, 2));
  } finally {
    for (const system of open) await system.close().catch(() => undefined);
    await sink.close();
    rmSync(root, { recursive: true, force: true });
  }
}
