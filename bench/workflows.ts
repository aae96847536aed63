// `npm run bench -- workflows [--quick]`: the local stack's workflow service against the message service it
// is built on, in the same run on the same machine.
//
//   baseline:   chains of plain messages — each delivery publishes the next one (publish → delivery → publish),
//               the same closed loop a workflow run is, without the run bookkeeping.
//   workflows:  runs of a 10-step sequential workflow driven by a minimal protocol client (it answers each
//               delivery by publishing the next step with the SDK's headers, and ends the run with the SDK's
//               DELETE), so that both sides spend the same client time and the ratio isolates the stack.
//   logs:       100,000 runs / 1,000,000 log entries, seeded straight into the SQLite store (faster than
//               running them), then GET /v2/workflows/logs with each single filter.
//   search:     the same seeded runs with the text index filled, then GET /local/workflows/search (a word in
//               every run, a rare word, one run's payload, a word with a filter, a deep page, no match);
//               baseline: the newest logs page without a search, same stack. Budget p99 < 100 ms.
//   bulk:       10,000 failed runs in the DLQ (seeded the same way), restarted by a label filter in
//               cursor batches of 1,000.
// A report, not a test: it prints numbers, ratios and budgets and writes bench/results/workflows.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { openDatabase } from '../stack/store/db';
import { freePortArgs } from '../stack/test-process';
import { messageRow } from '../stack/store/messages';
import { StackStore } from '../stack/store/stack-store';
import { workflowStoreOf } from '../stack/store/workflow-store';
import { addSearchText } from '../stack/workflows/history-writes';
import { entryText } from '../stack/workflows/search-text';
import { serveHttp } from './lib/http-server';
import { percentile, printTable } from './lib/report';

interface Options {
  runs: number;
  steps: number;
  overheadRuns: number;
  logRuns: number;
  dlqRuns: number;
  /** Each step's work in the overhead runs (see Pace). */
  thinkMs: number;
}

const FULL: Options = {
  runs: 200,
  steps: 10,
  overheadRuns: 100,
  logRuns: 100_000,
  dlqRuns: 10_000,
  thinkMs: 1_000,
};
const QUICK: Options = {
  runs: 50,
  steps: 10,
  overheadRuns: 25,
  logRuns: 10_000,
  dlqRuns: 2_000,
  thinkMs: 250,
};

/** Step throughput at least this many times the message service's rate in the same run. */
const STEP_RATE_BUDGET = 1.0;

const ms = (value: number): string => `${value.toFixed(2)} ms`;
const perSecond = (value: number, unit: string): string =>
  `${Math.round(value).toLocaleString('en-US')} ${unit}/s`;

interface StackProcess {
  url: string;
  token: string;
  pid: number;
  stop(): Promise<void>;
}

async function startStack(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<StackProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // SWITCHYARD_BENCH_NODE_ARGS: extra node flags for the stack process (e.g. --cpu-prof while profiling).
      ...(process.env.SWITCHYARD_BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      'out/stack/cli.cjs',
      ...freePortArgs(dataDir),
      ...['--log-level', 'warn'],
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline >= 0) resolve(buffer.slice(0, newline));
    });
    child.once('exit', (code) => reject(new Error(`stack exited with ${code}`)));
  });
  const ready = JSON.parse(line) as { messages: { url: string; token: string } };
  return {
    url: ready.messages.url,
    token: ready.messages.token,
    pid: child.pid as number,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system) the process has used so far, in ms (Linux). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

interface LoopResult {
  perSecond: number;
  latencies: number[];
  /** Hops (deliveries) the loop made. */
  hops: number;
  /** The stack process's CPU time per hop, in ms (load-independent, unlike the latencies). */
  cpuPerHop?: number;
}

/** Runs a loop and adds the stack's CPU time per hop. */
async function measured(stack: StackProcess, loop: Promise<LoopResult>): Promise<LoopResult> {
  const before = cpuMs(stack.pid);
  const result = await loop;
  return { ...result, cpuPerHop: (cpuMs(stack.pid) - before) / result.hops };
}

// ------------------------------------------------------------------------------------------- baseline

/** `chains` concurrent chains of `length` plain messages: each delivery publishes the next. */
/**
 * Pacing for the overhead runs: each step "works" `thinkMs` (the delivery is held open meanwhile, as a real
 * step's request is) before publishing the next, and the chains start spread over one think time. Without it
 * the loops saturate the stack and a hop's latency is only concurrency ÷ throughput (Little's law).
 */
interface Pace {
  thinkMs: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `count` chains, spread over one think time when paced. */
function startAll(
  count: number,
  pace: Pace | undefined,
  start: (i: number) => Promise<void>,
): Promise<void[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      if (pace) await sleep((pace.thinkMs * i) / count);
      await start(i);
    }),
  );
}

async function messageLoop(
  stack: StackProcess,
  chains: number,
  length: number,
  pace?: Pace,
): Promise<LoopResult> {
  const agent = new Agent({ connections: 128, keepAliveTimeout: 60_000 });
  const latencies: number[] = [];
  let delivered = 0;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const sent = new Map<string, number>();
  const publish = async (target: string, chain: number, i: number): Promise<void> => {
    sent.set(`${chain}:${i}`, performance.now());
    const response = await request(`${stack.url}/v2/publish/${target}/chain`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ chain, i }),
      dispatcher: agent,
    });
    await response.body.dump();
  };
  const sink = await serveHttp(async (_req, body) => {
    const { chain, i } = JSON.parse(body.toString()) as { chain: number; i: number };
    const at = sent.get(`${chain}:${i}`);
    if (at !== undefined) latencies.push(performance.now() - at);
    delivered++;
    if (delivered === chains * length) finish();
    if (i + 1 >= length) return;
    if (pace) await sleep(pace.thinkMs);
    await publish(sink.url, chain, i + 1);
  });
  const start = performance.now();
  await startAll(chains, pace, (chain) => publish(sink.url, chain, 0));
  await done;
  const elapsed = (performance.now() - start) / 1_000;
  await sink.close();
  await agent.close();
  return { perSecond: delivered / elapsed, latencies, hops: delivered };
}

// ------------------------------------------------------------------------------------------- workflows

/**
 * `runs` concurrent runs of a `steps`-step sequential workflow, driven the way the SDK drives one: each step
 * delivery (the log prefix) is answered by publishing the next step on /v2/batch; the last one ends the run.
 * Latency: from sending a step's publish to its delivery arriving (stack time plus two loopback hops).
 */
async function workflowLoop(
  stack: StackProcess,
  runs: number,
  steps: number,
  pace?: Pace,
): Promise<LoopResult> {
  const agent = new Agent({ connections: 128, keepAliveTimeout: 60_000 });
  const auth = `Bearer ${stack.token}`;
  const latencies: number[] = [];
  const sent = new Map<string, number>();
  let stepsDone = 0;
  let ended = 0;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const headers = (runId: string, init: boolean): Record<string, string> => ({
    'upstash-workflow-runid': runId,
    'upstash-workflow-init': String(init),
    'upstash-workflow-url': `${app.url}/wf`,
    'upstash-workflow-sdk-version': '1',
    'upstash-forward-upstash-workflow-sdk-version': '1',
    'upstash-feature-set': 'LazyFetch,InitialBody,WF_DetectTrigger,WF_TriggerOnConfig',
    'upstash-method': 'POST',
    'content-type': 'application/json',
  });
  const batch = async (runId: string, init: boolean, body: string, key: string): Promise<void> => {
    sent.set(key, performance.now());
    const response = await request(`${stack.url}/v2/batch`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify([{ destination: `${app.url}/wf`, headers: headers(runId, init), body }]),
      dispatcher: agent,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`batch answered ${response.statusCode}: ${text}`);
  };
  const app = await serveHttp(async (req, body) => {
    const runId = req.headers['upstash-workflow-runid'] as string;
    const log = JSON.parse(body.toString()) as unknown[];
    const key = `${runId}:${log.length}`;
    const at = sent.get(key);
    if (at !== undefined) {
      latencies.push(performance.now() - at);
      sent.delete(key);
    }
    stepsDone++;
    const next = log.length; // entry 0 is the trigger; step k is entry k
    if (next <= steps) {
      if (pace) await sleep(pace.thinkMs);
      const step = { stepId: next, stepName: `s${next}`, stepType: 'Run', out: String(next), concurrent: 1 };
      await batch(runId, false, JSON.stringify(step), `${runId}:${next + 1}`);
      return;
    }
    const response = await request(`${stack.url}/v2/workflows/runs/${runId}?cancel=false`, {
      method: 'DELETE',
      headers: { authorization: auth },
      body: '"done"',
      dispatcher: agent,
    });
    await response.body.dump();
    if (++ended === runs) finish();
  });
  const start = performance.now();
  const tag = Math.random().toString(36).slice(2, 8);
  await startAll(runs, pace, (i) =>
    batch(`wfr_bench-${tag}-${i}`, true, '{"n":1}', `wfr_bench-${tag}-${i}:1`),
  );
  await done;
  const elapsed = (performance.now() - start) / 1_000;
  await app.close();
  await agent.close();
  // Every delivery is a step's work (the trigger's delivery runs step 1, the last one returns).
  return { perSecond: stepsDone / elapsed, latencies, hops: stepsDone };
}

// ------------------------------------------------------------------------------------------- seeding

const URLS = Array.from({ length: 20 }, (_, i) => `https://app-${i}.example.com/api/workflow`);
const LABELS = ['billing', 'signup', 'etl', 'reports', 'emails'];
/** Words in the seeded payloads (each run's customer is one of these, with the run's number). */
const CUSTOMERS = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'stark', 'wayne'] as const;

const STATES = [
  'RUN_SUCCESS',
  'RUN_SUCCESS',
  'RUN_SUCCESS',
  'RUN_FAILED',
  'RUN_CANCELED',
  'RUN_STARTED',
] as const;

/**
 * Writes `count` finished runs of `steps` log entries each straight into the store (the stack is not running);
 * `failed` ones also get their failed message and a DLQ entry, labelled `dlqLabel`.
 */
export function seed(
  dataDir: string,
  count: number,
  steps: number,
  failed?: { label: string; url: string },
  /** Also fill the text index (the search part), as the stack does when it appends. */
  indexText = false,
): void {
  const db = openDatabase(join(dataDir, 'stack.db'), 'normal');
  const store = new StackStore(db);
  const messages = store.messages;
  const workflows = workflowStoreOf(store);
  const now = Date.now();
  const insert = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const createdAt = now - (count - i) * 1_000;
      const labels = failed ? [failed.label] : [LABELS[i % LABELS.length] as string];
      const url = failed ? failed.url : (URLS[i % URLS.length] as string);
      const runSeq = workflows.insertRun({
        runId: `wfr_seed${failed ? 'dlq' : ''}${i}`,
        url,
        createdAt,
        callerIp: `10.0.${i % 7}.1`,
        config: {
          header: { 'Upstash-Workflow-Sdk-Version': ['1'] },
          maxRetries: 3,
          labels,
          ...(i % 10 === 0 ? { flowControl: { key: `fc-${i % 30}`, parallelism: 1, period: 1 } } : {}),
        },
      });
      for (let pos = 0; pos <= steps; pos++) {
        const body =
          pos === 0
            ? Buffer.from(`{"order":${i},"customer":"${CUSTOMERS[i % CUSTOMERS.length]}-${i}"}`)
            : Buffer.from(
                JSON.stringify({
                  stepId: pos,
                  stepName: `step-${pos}`,
                  stepType: 'Run',
                  out: `"r${pos}"`,
                  concurrent: 1,
                }),
              );
        workflows.appendLog(runSeq, {
          messageId: `msg_seed_${i}_${pos}`,
          callType: 'step',
          createdAt: createdAt + pos,
          body,
        });
        if (indexText) addSearchText(store, runSeq, entryText(pos === 0, 'step', body));
      }
      if (failed) {
        const seq = messages.insertRow(
          messageRow({
            id: `msg_seeddlq_${i}`,
            createdAt,
            dueAt: createdAt,
            spec: {
              url,
              method: 'POST',
              header: {},
              notBefore: createdAt,
              maxRetries: 0,
              meta: { wf: { kind: 'step', runId: `wfr_seeddlq${i}`, createdAt, runSeq } },
            },
            body: Buffer.alloc(0),
          }),
        );
        messages.finish(seq, 'FAILED', createdAt + 50);
        const dlqId = `${createdAt}-${seq}`;
        store.dlq.insert({ dlqId, seq, createdAt: createdAt + 50, responseStatus: 500 });
        workflows.finishRun(runSeq, 'RUN_FAILED', createdAt + 50, null);
        workflows.setDlqId(runSeq, dlqId);
      } else {
        const state = STATES[i % STATES.length] as (typeof STATES)[number];
        if (state !== 'RUN_STARTED')
          workflows.finishRun(runSeq, state, createdAt + 100, state === 'RUN_SUCCESS' ? '"ok"' : null);
        if (state === 'RUN_STARTED')
          workflows.setStepState(runSeq, i % 12 === 5 ? 'STEP_RETRY' : 'STEP_PROGRESS');
      }
    }
  });
  for (let from = 0; from < count; from += 5_000) insert(from, Math.min(count, from + 5_000));
  db.close();
}

// ------------------------------------------------------------------------------------------- parts

interface LiveResult {
  baseline: LoopResult;
  workflow: LoopResult;
  baselineOverhead: LoopResult;
  workflowOverhead: LoopResult;
  /** The stack's own time per hop (publish arriving → its delivery leaving), from its probe. */
  stackTime: { workflow: number[]; message: number[] };
}

/**
 * 1 + 2: throughput and step overhead, each against the message service in the same stack process. The
 * overhead runs on a stack of its own with its hop probe on (stack/workflows/step-timing.ts).
 */
async function live(root: string, options: Options): Promise<LiveResult> {
  const warmUp = async (stack: StackProcess): Promise<void> => {
    await messageLoop(stack, 20, 5);
    await workflowLoop(stack, 20, 5);
  };
  const throughputDir = join(root, 'throughput');
  mkdirSync(throughputDir);
  const stack = await startStack(throughputDir);
  let baseline: LoopResult;
  let workflow: LoopResult;
  try {
    await warmUp(stack);
    baseline = await measured(stack, messageLoop(stack, options.runs, options.steps));
    workflow = await measured(stack, workflowLoop(stack, options.runs, options.steps));
  } finally {
    await stack.stop();
  }
  const overheadDir = join(root, 'overhead');
  mkdirSync(overheadDir);
  const timingFile = join(root, 'step-timing.json');
  const probed = await startStack(overheadDir, { SWITCHYARD_STEP_TIMING_FILE: timingFile });
  let baselineOverhead: LoopResult;
  let workflowOverhead: LoopResult;
  try {
    await warmUp(probed);
    const pace = { thinkMs: options.thinkMs };
    baselineOverhead = await messageLoop(probed, options.overheadRuns, options.steps, pace);
    workflowOverhead = await workflowLoop(probed, options.overheadRuns, options.steps, pace);
  } finally {
    await probed.stop();
  }
  const samples = JSON.parse(readFileSync(timingFile, 'utf8')) as { workflow: number[]; message: number[] };
  // The warm-up's hops come first: 20 chains × 5 messages, 20 runs × (trigger + 5 steps).
  const stackTime = { workflow: samples.workflow.slice(20 * 6), message: samples.message.slice(20 * 5) };
  return { baseline, workflow, baselineOverhead, workflowOverhead, stackTime };
}

/** A data dir of its own, seeded straight into SQLite; how long the seeding took. */
function seededDir(
  root: string,
  name: string,
  fill: (dir: string) => void,
): { dir: string; seedSeconds: number } {
  const dir = join(root, name);
  mkdirSync(dir);
  const start = performance.now();
  fill(dir);
  return { dir, seedSeconds: (performance.now() - start) / 1_000 };
}

interface LogsResult {
  queries: Record<string, { p50: number; p99: number; cpuMs: number }>;
  worstP99: number;
  rssMb: number;
  seedSeconds: number;
}

/** 3: logs queries over seeded runs. */
async function logs(root: string, options: Options): Promise<LogsResult> {
  const { dir, seedSeconds } = seededDir(root, 'logs', (logsDir) =>
    seed(logsDir, options.logRuns, options.steps),
  );
  const logStack = await startStack(dir);
  const queries: [string, string][] = [
    ['none (newest page)', ''],
    ['workflowUrl', `workflowUrl=${encodeURIComponent(URLS[3] as string)}`],
    ['workflowRunId', `workflowRunId=wfr_seed${Math.floor(options.logRuns / 2)}`],
    ['state (run)', 'state=RUN_FAILED'],
    ['state (step)', 'state=STEP_RETRY'],
    ['label', 'label=etl'],
    ['flowControlKey', 'flowControlKey=fc-10'],
    ['callerIp', 'callerIp=10.0.3.1'],
    ['fromDate/toDate', `fromDate=${Date.now() - 3_600_000}&toDate=${Date.now() - 1_800_000}`],
    ['label, deep page', 'label=billing&cursor=' + Math.floor(options.logRuns / 3)],
  ];
  const results: Record<string, { p50: number; p99: number; cpuMs: number }> = {};
  let worstP99 = 0;
  let rss = Number.NaN;
  const agent = new Agent({ connections: 4 });
  try {
    for (const [name, query] of queries) {
      const times: number[] = [];
      let cpuBefore = 0;
      for (let i = 0; i < 60; i++) {
        if (i === 10) cpuBefore = cpuMs(logStack.pid);
        const start = performance.now();
        const response = await request(`${logStack.url}/v2/workflows/logs?${query}&trimBody=200`, {
          headers: { authorization: `Bearer ${logStack.token}` },
          dispatcher: agent,
        });
        const body = (await response.body.json()) as { runs: unknown[] };
        if (response.statusCode !== 200) throw new Error(`logs ${query}: ${response.statusCode}`);
        if (i === 0 && body.runs.length === 0) throw new Error(`logs ${query}: no runs matched`);
        if (i >= 10) times.push(performance.now() - start);
      }
      const result = {
        p50: percentile(times, 50),
        p99: percentile(times, 99),
        // The stack's CPU time per query: what the query costs, whatever the machine's load.
        cpuMs: (cpuMs(logStack.pid) - cpuBefore) / times.length,
      };
      results[name] = result;
      worstP99 = Math.max(worstP99, result.p99);
    }
    rss = rssMb(logStack.pid);
  } finally {
    await agent.close();
    await logStack.stop();
  }
  return { queries: results, worstP99, rssMb: rss, seedSeconds };
}

interface SearchResult {
  queries: Record<string, { p50: number; p99: number; cpuMs: number; runs: number }>;
  worstP99: number;
  /** The newest page of the logs, without a search, in the same run (the baseline). */
  baseline: { p50: number; p99: number };
  seedSeconds: number;
}

/**
 * 3b: text search over the seeded runs (`GET /local/workflows/search`, the stack's FTS5 index): a word in
 * every run, a word in one run in 100, one run's own id, a word with a filter, a word in no run.
 */
async function searchBench(root: string, options: Options): Promise<SearchResult> {
  const { dir, seedSeconds } = seededDir(root, 'search', (searchDir) =>
    seed(searchDir, options.logRuns, options.steps, undefined, true),
  );
  const stack = await startStack(dir);
  const middle = Math.floor(options.logRuns / 2);
  const one = `${CUSTOMERS[middle % CUSTOMERS.length]} ${middle}`;
  const queries: [string, string][] = [
    ['a word in every run', 'q=order'],
    ['a word in 1 run of 7', `q=${CUSTOMERS[3]}`],
    ['one run by its payload', `q=${encodeURIComponent(`"${one}"`)}`],
    ['a word and a label filter', `q=${CUSTOMERS[2]}&label=etl`],
    ['an output word, a deep page', `q=r7&cursor=${Math.floor(options.logRuns / 3)}`],
    ['a word in no run', 'q=zzyzx'],
  ];
  const agent = new Agent({ connections: 4 });
  const timed = async (path: string, check: (body: { runs: unknown[] }) => void) => {
    const times: number[] = [];
    let cpuBefore = 0;
    let runs = 0;
    for (let i = 0; i < 60; i++) {
      if (i === 10) cpuBefore = cpuMs(stack.pid);
      const start = performance.now();
      const response = await request(`${stack.url}${path}`, {
        headers: { authorization: `Bearer ${stack.token}` },
        dispatcher: agent,
      });
      const body = (await response.body.json()) as { runs: unknown[] };
      if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode}`);
      if (i === 0) check(body);
      runs = body.runs.length;
      if (i >= 10) times.push(performance.now() - start);
    }
    return {
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      cpuMs: (cpuMs(stack.pid) - cpuBefore) / times.length,
      runs,
    };
  };
  const results: SearchResult['queries'] = {};
  let worstP99 = 0;
  let baseline = { p50: Number.NaN, p99: Number.NaN };
  try {
    const plain = await timed('/v2/workflows/logs?trimBody=200', () => undefined);
    baseline = { p50: plain.p50, p99: plain.p99 };
    for (const [name, query] of queries) {
      const result = await timed(`/local/workflows/search?${query}&trimBody=200`, (body) => {
        if (name !== 'a word in no run' && body.runs.length === 0)
          throw new Error(`search ${query}: no runs`);
        if (name === 'a word in no run' && body.runs.length > 0)
          throw new Error(`search ${query}: runs found`);
      });
      results[name] = result;
      worstP99 = Math.max(worstP99, result.p99);
    }
  } finally {
    await agent.close();
    await stack.stop();
  }
  return { queries: results, worstP99, baseline, seedSeconds };
}

interface RestartResult {
  runsPerSecond: number;
  runs: number;
  seedSeconds: number;
}

/** 4: bulk restart of DLQ runs by filter in cursor batches. */
/**
 * `deferred`: the restart asks for the new runs' first delivery an hour later (Upstash-Delay), so the rate is the
 * workflow service's own work; otherwise the first deliveries of the new runs go out meanwhile, on the same
 * cores, and the rate is bounded by the message engine's delivery rate.
 */
async function bulkRestart(root: string, options: Options, deferred: boolean): Promise<RestartResult> {
  const target = await serveHttp(() => undefined);
  const { dir, seedSeconds } = seededDir(root, deferred ? 'dlq-deferred' : 'dlq', (dlqDir) =>
    seed(dlqDir, options.dlqRuns, 3, { label: 'bulk', url: `${target.url}/wf` }),
  );
  const dlqStack = await startStack(dir);
  let restarted = 0;
  const restartStart = performance.now();
  try {
    let cursor: string | undefined;
    do {
      const response = await request(
        `${dlqStack.url}/v2/workflows/dlq/restart?label=bulk&count=1000${cursor ? `&cursor=${cursor}` : ''}`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${dlqStack.token}`,
            ...(deferred ? { 'upstash-delay': '1h' } : {}),
          },
        },
      );
      const body = (await response.body.json()) as {
        workflowRuns: unknown[];
        cursor: string;
        error?: string;
      };
      if (response.statusCode !== 200) throw new Error(`restart: ${response.statusCode} ${body.error}`);
      restarted += body.workflowRuns.length;
      cursor = body.cursor || undefined;
    } while (cursor);
  } finally {
    await dlqStack.stop();
    await target.close();
  }
  const runsPerSecond = restarted / ((performance.now() - restartStart) / 1_000);
  if (restarted !== options.dlqRuns) throw new Error(`restarted ${restarted} of ${options.dlqRuns} runs`);
  return { runsPerSecond, runs: restarted, seedSeconds };
}

// ------------------------------------------------------------------------------------------- run

const PARTS = ['live', 'logs', 'search', 'restart'] as const;

/** `--only=live,logs,restart` runs some of the parts (all by default). */
function selectedParts(args: string[]): Set<(typeof PARTS)[number]> {
  const only = args.find((arg) => arg.startsWith('--only='));
  if (!only) return new Set(PARTS);
  const names = only.slice('--only='.length).split(',');
  for (const name of names) {
    if (!(PARTS as readonly string[]).includes(name)) throw new Error(`--only: unknown part '${name}'`);
  }
  return new Set(names as (typeof PARTS)[number][]);
}

export async function run(args: string[]): Promise<void> {
  const quick = args.includes('--quick');
  const options = quick ? QUICK : FULL;
  const parts = selectedParts(args);
  console.log(
    `workflows bench (${quick ? 'quick' : 'full'}; ${[...parts].join(', ')}): ${cpus().length} cores, load ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
  const root = mkdtempSync(join(tmpdir(), 'switchyard-bench-wf-'));
  const results: Record<string, unknown> = { quick, options, cores: cpus().length };
  try {
    const liveResult = parts.has('live') ? await live(root, options) : undefined;
    const logsResult = parts.has('logs') ? await logs(root, options) : undefined;
    const searchResult = parts.has('search') ? await searchBench(root, options) : undefined;
    const restartResult = parts.has('restart') ? await bulkRestart(root, options, true) : undefined;
    const restartDelivered = parts.has('restart') ? await bulkRestart(root, options, false) : undefined;

    const rows: string[][] = [];
    if (liveResult) {
      const { baseline, workflow, baselineOverhead, workflowOverhead, stackTime } = liveResult;
      const ratio = workflow.perSecond / baseline.perSecond;
      const p50 = percentile(stackTime.workflow, 50);
      const p99 = percentile(stackTime.workflow, 99);
      rows.push(
        [
          'stack CPU per hop (throughput run)',
          ms(workflow.cpuPerHop ?? Number.NaN),
          ms(baseline.cpuPerHop ?? Number.NaN),
          `${((workflow.cpuPerHop ?? 0) / (baseline.cpuPerHop ?? 1)).toFixed(2)}`,
          '',
        ],
        [
          `step throughput (${options.runs} runs × ${options.steps} steps)`,
          perSecond(workflow.perSecond, 'steps'),
          perSecond(baseline.perSecond, 'msg'),
          // Issue 26 raised this budget from 0.8: a step should cost no more than the message it rides on.
          `${ratio.toFixed(2)} (≥ ${STEP_RATE_BUDGET.toFixed(2)})`,
          ratio >= STEP_RATE_BUDGET ? 'ok' : 'MISS',
        ],
        [
          `step overhead p50 (${options.overheadRuns} runs, stack time)`,
          ms(p50),
          ms(percentile(stackTime.message, 50)),
          '< 2 ms',
          p50 < 2 ? 'ok' : 'MISS',
        ],
        [
          `step overhead p99 (${options.overheadRuns} runs, stack time)`,
          ms(p99),
          ms(percentile(stackTime.message, 99)),
          '< 10 ms',
          p99 < 10 ? 'ok' : 'MISS',
        ],
        [
          'step hop p50 seen by the client (2 loopback hops)',
          ms(percentile(workflowOverhead.latencies, 50)),
          ms(percentile(baselineOverhead.latencies, 50)),
          '',
          '',
        ],
        [
          'step hop p99 seen by the client (2 loopback hops)',
          ms(percentile(workflowOverhead.latencies, 99)),
          ms(percentile(baselineOverhead.latencies, 99)),
          '',
          '',
        ],
      );
      results.throughput = {
        workflowStepsPerSecond: workflow.perSecond,
        messagesPerSecond: baseline.perSecond,
        workflowCpuMsPerHop: workflow.cpuPerHop,
        messageCpuMsPerHop: baseline.cpuPerHop,
        ratio,
      };
      results.overhead = {
        p50,
        p99,
        baselineP50: percentile(stackTime.message, 50),
        baselineP99: percentile(stackTime.message, 99),
        samples: stackTime.workflow.length,
        baselineSamples: stackTime.message.length,
        client: {
          p50: percentile(workflowOverhead.latencies, 50),
          p99: percentile(workflowOverhead.latencies, 99),
          baselineP50: percentile(baselineOverhead.latencies, 50),
          baselineP99: percentile(baselineOverhead.latencies, 99),
        },
      };
    }
    if (logsResult) {
      const { worstP99, rssMb: rss } = logsResult;
      rows.push(
        [
          `logs, any single filter, p99 (${options.logRuns.toLocaleString('en-US')} runs)`,
          ms(worstP99),
          '',
          '< 50 ms',
          worstP99 < 50 ? 'ok' : 'MISS',
        ],
        ['logs: stack RSS', `${rss.toFixed(0)} MB`, '', '< 300 MB', rss < 300 ? 'ok' : 'MISS'],
      );
      results.logs = logsResult;
    }
    if (searchResult) {
      rows.push([
        `text search, p99 of the worst query (${options.logRuns.toLocaleString('en-US')} runs)`,
        ms(searchResult.worstP99),
        `${ms(searchResult.baseline.p99)} (newest logs page, no search)`,
        '< 100 ms',
        searchResult.worstP99 < 100 ? 'ok' : 'MISS',
      ]);
      results.search = searchResult;
    }
    if (restartResult) {
      const rate = restartResult.runsPerSecond;
      rows.push([
        `bulk restart (${options.dlqRuns.toLocaleString('en-US')} DLQ runs, batches of 1,000, first delivery in 1 h)`,
        perSecond(rate, 'runs'),
        '',
        '≥ 1,000 runs/s',
        rate >= 1_000 ? 'ok' : 'MISS',
      ]);
      if (restartDelivered) {
        rows.push([
          '  … with the new runs delivered meanwhile',
          perSecond(restartDelivered.runsPerSecond, 'runs'),
          '',
          '',
          '',
        ]);
      }
      results.bulkRestart = { ...restartResult, withDeliveries: restartDelivered };
    }

    console.log('');
    printTable(
      ['budget', 'measured', 'baseline (message service, same run)', 'ratio / limit', 'verdict'],
      rows,
    );
    if (logsResult) {
      console.log('');
      console.log('logs queries (60 each, first 10 discarded):');
      printTable(
        ['filter', 'p50', 'p99', 'stack CPU / query', '< 50 ms'],
        Object.entries(logsResult.queries).map(([name, result]) => [
          name,
          ms(result.p50),
          ms(result.p99),
          ms(result.cpuMs),
          result.p99 < 50 ? 'ok' : 'MISS',
        ]),
      );
      console.log(
        `\nseeded ${options.logRuns.toLocaleString('en-US')} runs (${(options.logRuns * (options.steps + 1)).toLocaleString('en-US')} log entries) in ${logsResult.seedSeconds.toFixed(1)} s, straight into SQLite`,
      );
    }
    if (searchResult) {
      console.log('');
      console.log('text search queries (60 each, first 10 discarded; 10 runs a page):');
      printTable(
        ['query', 'p50', 'p99', 'stack CPU / query', 'runs', '< 100 ms'],
        Object.entries(searchResult.queries).map(([name, result]) => [
          name,
          ms(result.p50),
          ms(result.p99),
          ms(result.cpuMs),
          String(result.runs),
          result.p99 < 100 ? 'ok' : 'MISS',
        ]),
      );
      console.log(
        `seeded and indexed ${options.logRuns.toLocaleString('en-US')} runs in ${searchResult.seedSeconds.toFixed(1)} s`,
      );
    }
    if (restartResult) {
      console.log(
        `seeded ${options.dlqRuns.toLocaleString('en-US')} DLQ runs in ${restartResult.seedSeconds.toFixed(1)} s, straight into SQLite`,
      );
    }
    if (liveResult) {
      console.log(
        `step overhead is the stack's own time from a publish arriving to its delivery leaving (${liveResult.stackTime.workflow.length} workflow hops, ${liveResult.stackTime.message.length} message hops); the client rows add two loopback HTTP hops`,
      );
    }
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/workflows.json', JSON.stringify(results, null, 2));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
