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
//   bulk:       10,000 failed runs in the DLQ (seeded the same way), restarted by a label filter in
//               cursor batches of 1,000.
// A report, not a test: it prints numbers, ratios and budgets and writes bench/results/workflows.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { openDatabase } from '../stack/store/db';
import { messageRow } from '../stack/store/messages';
import { StackStore } from '../stack/store/stack-store';
import { workflowStoreOf } from '../stack/store/workflow-store';
import { percentile, printTable } from './lib/report';

interface Options {
  runs: number;
  steps: number;
  overheadRuns: number;
  logRuns: number;
  dlqRuns: number;
}

const FULL: Options = { runs: 200, steps: 10, overheadRuns: 100, logRuns: 100_000, dlqRuns: 10_000 };
const QUICK: Options = { runs: 50, steps: 10, overheadRuns: 25, logRuns: 10_000, dlqRuns: 2_000 };

const ms = (value: number): string => `${value.toFixed(2)} ms`;
const perSecond = (value: number, unit: string): string =>
  `${Math.round(value).toLocaleString('en-US')} ${unit}/s`;

interface StackProcess {
  url: string;
  token: string;
  pid: number;
  stop(): Promise<void>;
}

async function startStack(dataDir: string): Promise<StackProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['out/stack/cli.cjs', '--port', '0', '--kv-port', '0', '--data-dir', dataDir, '--log-level', 'warn'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
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

/** A tiny HTTP server; `handle` answers each request (body already read). */
async function server(
  handle: (req: http.IncomingMessage, body: Buffer) => Promise<void> | void,
): Promise<{ url: string; close(): Promise<void> }> {
  const srv = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      Promise.resolve(handle(req, Buffer.concat(chunks)))
        .then(() => {
          res.writeHead(200, { 'content-length': '2' });
          res.end('ok');
        })
        .catch((error: unknown) => {
          res.writeHead(500);
          res.end(String(error));
        });
    });
  });
  srv.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        srv.closeAllConnections();
        srv.close(() => resolve());
      }),
  };
}

interface LoopResult {
  perSecond: number;
  latencies: number[];
}

// ------------------------------------------------------------------------------------------- baseline

/** `chains` concurrent chains of `length` plain messages: each delivery publishes the next. */
async function messageLoop(stack: StackProcess, chains: number, length: number): Promise<LoopResult> {
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
  const sink = await server(async (_req, body) => {
    const { chain, i } = JSON.parse(body.toString()) as { chain: number; i: number };
    const at = sent.get(`${chain}:${i}`);
    if (at !== undefined) latencies.push(performance.now() - at);
    delivered++;
    if (delivered === chains * length) finish();
    if (i + 1 < length) await publish(sink.url, chain, i + 1);
  });
  const start = performance.now();
  await Promise.all(Array.from({ length: chains }, (_, chain) => publish(sink.url, chain, 0)));
  await done;
  const elapsed = (performance.now() - start) / 1_000;
  await sink.close();
  await agent.close();
  return { perSecond: delivered / elapsed, latencies };
}

// ------------------------------------------------------------------------------------------- workflows

/**
 * `runs` concurrent runs of a `steps`-step sequential workflow, driven the way the SDK drives one: each step
 * delivery (the log prefix) is answered by publishing the next step on /v2/batch; the last one ends the run.
 * Latency: from sending a step's publish to its delivery arriving (stack time plus two loopback hops).
 */
async function workflowLoop(stack: StackProcess, runs: number, steps: number): Promise<LoopResult> {
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
  const app = await server(async (req, body) => {
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
  await Promise.all(
    Array.from({ length: runs }, (_, i) =>
      batch(`wfr_bench-${tag}-${i}`, true, '{"n":1}', `wfr_bench-${tag}-${i}:1`),
    ),
  );
  await done;
  const elapsed = (performance.now() - start) / 1_000;
  await app.close();
  await agent.close();
  // Every delivery is a step's work (the trigger's delivery runs step 1, the last one returns).
  return { perSecond: stepsDone / elapsed, latencies };
}

// ------------------------------------------------------------------------------------------- seeding

const URLS = Array.from({ length: 20 }, (_, i) => `https://app-${i}.example.com/api/workflow`);
const LABELS = ['billing', 'signup', 'etl', 'reports', 'emails'];
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
function seed(dataDir: string, count: number, steps: number, failed?: { label: string; url: string }): void {
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
            ? Buffer.from(`{"order":${i}}`)
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

// ------------------------------------------------------------------------------------------- run

export async function run(args: string[]): Promise<void> {
  const quick = args.includes('--quick');
  const options = quick ? QUICK : FULL;
  console.log(
    `workflows bench (${quick ? 'quick' : 'full'}): ${cpus().length} cores, load ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
  const root = mkdtempSync(join(tmpdir(), 'switchyard-bench-wf-'));
  const results: Record<string, unknown> = { quick, options, cores: cpus().length };
  try {
    // 1 + 2: throughput and step overhead, each against the message service in the same stack process.
    const liveDir = join(root, 'live');
    mkdirSync(liveDir);
    const stack = await startStack(liveDir);
    let baseline: LoopResult;
    let workflow: LoopResult;
    let baselineOverhead: LoopResult;
    let workflowOverhead: LoopResult;
    try {
      await messageLoop(stack, 20, 5); // warm-up
      await workflowLoop(stack, 20, 5);
      baseline = await messageLoop(stack, options.runs, options.steps);
      workflow = await workflowLoop(stack, options.runs, options.steps);
      baselineOverhead = await messageLoop(stack, options.overheadRuns, options.steps);
      workflowOverhead = await workflowLoop(stack, options.overheadRuns, options.steps);
    } finally {
      await stack.stop();
    }
    const ratio = workflow.perSecond / baseline.perSecond;
    const p50 = percentile(workflowOverhead.latencies, 50);
    const p99 = percentile(workflowOverhead.latencies, 99);

    // 3: logs queries over seeded runs.
    const logsDir = join(root, 'logs');
    mkdirSync(logsDir);
    let seedStart = performance.now();
    seed(logsDir, options.logRuns, options.steps);
    const seedSeconds = (performance.now() - seedStart) / 1_000;
    const logStack = await startStack(logsDir);
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
    const logRows: string[][] = [];
    const logResults: Record<string, { p50: number; p99: number }> = {};
    let worstP99 = 0;
    let logRss = Number.NaN;
    const agent = new Agent({ connections: 4 });
    try {
      for (const [name, query] of queries) {
        const times: number[] = [];
        for (let i = 0; i < 60; i++) {
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
        const result = { p50: percentile(times, 50), p99: percentile(times, 99) };
        logResults[name] = result;
        worstP99 = Math.max(worstP99, result.p99);
        logRows.push([name, ms(result.p50), ms(result.p99), result.p99 < 50 ? 'ok' : 'MISS']);
      }
      logRss = rssMb(logStack.pid);
    } finally {
      await agent.close();
      await logStack.stop();
    }

    // 4: bulk restart of DLQ runs by filter in cursor batches.
    const dlqDir = join(root, 'dlq');
    mkdirSync(dlqDir);
    const target = await server(() => undefined);
    seedStart = performance.now();
    seed(dlqDir, options.dlqRuns, 3, { label: 'bulk', url: `${target.url}/wf` });
    const dlqSeedSeconds = (performance.now() - seedStart) / 1_000;
    const dlqStack = await startStack(dlqDir);
    let restarted = 0;
    const restartStart = performance.now();
    try {
      let cursor: string | undefined;
      do {
        const response = await request(
          `${dlqStack.url}/v2/workflows/dlq/restart?label=bulk&count=1000${cursor ? `&cursor=${cursor}` : ''}`,
          { method: 'POST', headers: { authorization: `Bearer ${dlqStack.token}` } },
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
    const restartRate = restarted / ((performance.now() - restartStart) / 1_000);
    if (restarted !== options.dlqRuns) throw new Error(`restarted ${restarted} of ${options.dlqRuns} runs`);

    console.log('');
    printTable(
      ['budget', 'measured', 'baseline (message service, same run)', 'ratio / limit', 'verdict'],
      [
        [
          `step throughput (${options.runs} runs × ${options.steps} steps)`,
          perSecond(workflow.perSecond, 'steps'),
          perSecond(baseline.perSecond, 'msg'),
          `${ratio.toFixed(2)} (≥ 0.80)`,
          ratio >= 0.8 ? 'ok' : 'MISS',
        ],
        [
          `step overhead p50 (${options.overheadRuns} runs)`,
          ms(p50),
          ms(percentile(baselineOverhead.latencies, 50)),
          '< 2 ms',
          p50 < 2 ? 'ok' : 'MISS',
        ],
        [
          `step overhead p99 (${options.overheadRuns} runs)`,
          ms(p99),
          ms(percentile(baselineOverhead.latencies, 99)),
          '< 10 ms',
          p99 < 10 ? 'ok' : 'MISS',
        ],
        [
          `logs, any single filter, p99 (${options.logRuns.toLocaleString('en-US')} runs)`,
          ms(worstP99),
          '',
          '< 50 ms',
          worstP99 < 50 ? 'ok' : 'MISS',
        ],
        ['logs: stack RSS', `${logRss.toFixed(0)} MB`, '', '< 300 MB', logRss < 300 ? 'ok' : 'MISS'],
        [
          `bulk restart (${options.dlqRuns.toLocaleString('en-US')} DLQ runs, batches of 1,000)`,
          perSecond(restartRate, 'runs'),
          '',
          '≥ 1,000 runs/s',
          restartRate >= 1_000 ? 'ok' : 'MISS',
        ],
      ],
    );
    console.log('');
    console.log('logs queries (60 each, first 10 discarded):');
    printTable(['filter', 'p50', 'p99', '< 50 ms'], logRows);
    console.log(
      `\nseeded ${options.logRuns.toLocaleString('en-US')} runs (${(options.logRuns * (options.steps + 1)).toLocaleString('en-US')} log entries) in ${seedSeconds.toFixed(1)} s and ${options.dlqRuns.toLocaleString('en-US')} DLQ runs in ${dlqSeedSeconds.toFixed(1)} s, straight into SQLite`,
    );
    console.log(
      'step overhead is measured from the client: a step publish sent → its delivery received, so it includes two loopback HTTP hops (the baseline column is the same measure for plain messages)',
    );
    Object.assign(results, {
      throughput: {
        workflowStepsPerSecond: workflow.perSecond,
        messagesPerSecond: baseline.perSecond,
        ratio,
      },
      overhead: {
        p50,
        p99,
        baselineP50: percentile(baselineOverhead.latencies, 50),
        baselineP99: percentile(baselineOverhead.latencies, 99),
      },
      logs: { queries: logResults, worstP99, rssMb: logRss, seedSeconds },
      bulkRestart: { runsPerSecond: restartRate, runs: restarted, seedSeconds: dlqSeedSeconds },
    });
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/workflows.json', JSON.stringify(results, null, 2));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
