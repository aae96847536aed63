// `npm run bench -- burst [--size N]`: how long a burst of concurrent requests blocks the stack's event loop
// (issue 18 item 4: no single request or burst may block the loop for more than 100 ms).
//
// The real stack process runs with bench/lib/loop-probe.mjs preloaded, which watches how late the event loop
// runs a 5 ms timer. Four windows, in one run on one stack:
//   idle:      the stack with nothing to do, as long as the publish burst took (the baseline: what the
//              machine's own noise gives).
//   publishes: N (1,000) publishes sent at once, until all N reached a sink in this process.
//   triggers:  N workflow runs started at once with the vendor's `@upstash/workflow` Client, each a one-step
//              workflow served by the vendor's serve() from this process, until all N runs finished.
//   batch:     the same N runs started by requests of BATCH_SIZE triggers each, one after the other:
//              `client.trigger([...])` sends them as one /v2/batch (500 of the SDK's triggers are ~0.5 MB, under
//              the stack's 1 MB body limit; 1,000 are over it).
// The figure is the longest delay of the loop in each window; the budget is ≤ 100 ms.
// A report, not a test: it prints the numbers with the machine's load and writes bench/results/burst.json.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, serve } from '@upstash/workflow';
import { Agent, request } from 'undici';
import { freePortArgs, spawnStack, type StackProcess } from '../stack/test-process';
import { serveHttp } from './lib/http-server';
import { printTable } from './lib/report';

const PROBE = resolve('bench/lib/loop-probe.mjs');
const BUDGET_MS = 100;
/** Triggers per /v2/batch request in the batch window. */
const BATCH_SIZE = 500;

interface LoopWindow {
  maxMs: number;
  p99Ms: number;
  /** The stack's main thread in this window: time on a CPU, and time ready to run but waiting for one. */
  onCpuMs: number;
  waitingForCpuMs: number;
}

/** The main thread's scheduler counters (Linux /proc/<pid>/schedstat: ns on a CPU, ns waiting on a run queue). */
function schedstat(pid: number): { onCpuMs: number; waitingForCpuMs: number } {
  let fields: number[];
  try {
    fields = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
  } catch {
    return { onCpuMs: Number.NaN, waitingForCpuMs: Number.NaN }; // not Linux: the columns say NaN
  }
  return { onCpuMs: (fields[0] ?? 0) / 1e6, waitingForCpuMs: (fields[1] ?? 0) / 1e6 };
}

const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

let lastSched = { onCpuMs: 0, waitingForCpuMs: 0 };

/**
 * Ends the probe's current window and returns its figures (the probe answers SIGUSR2 on stderr), with the main
 * thread's CPU time and run-queue wait since the last window: a long loop delay with little wait for a CPU is
 * the stack's own work; one with much wait is the machine's.
 */
async function closeWindow(stack: StackProcess): Promise<LoopWindow> {
  const pid = stack.child.pid as number;
  const sched = schedstat(pid);
  const cpu = {
    onCpuMs: sched.onCpuMs - lastSched.onCpuMs,
    waitingForCpuMs: sched.waitingForCpuMs - lastSched.waitingForCpuMs,
  };
  lastSched = sched;
  const seen = stack.stderr().split('loop-probe ').length;
  stack.child.kill('SIGUSR2');
  const deadline = performance.now() + 10_000;
  for (;;) {
    const parts = stack.stderr().split('loop-probe ');
    if (parts.length > seen)
      return { ...(JSON.parse((parts[seen] as string).split('\n')[0] as string) as LoopWindow), ...cpu };
    if (performance.now() > deadline) throw new Error('the stack did not answer the loop probe');
    await new Promise((done) => setTimeout(done, 10));
  }
}

/** Resolves once `count()` reaches `target` (checked as events arrive), or rejects after `timeoutMs`. */
function whenCount(count: () => number, target: number, timeoutMs: number, what: string) {
  let notify = (): void => undefined;
  const reached = new Promise<void>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`timed out waiting for ${what}: ${count()}/${target}`)),
      timeoutMs,
    );
    notify = () => {
      if (count() < target) return;
      clearTimeout(timer);
      done();
    };
  });
  return { reached, notify };
}

export async function run(args: string[]): Promise<void> {
  const sizeArg = args.indexOf('--size');
  const size = sizeArg >= 0 ? Number(args[sizeArg + 1]) : 1_000;
  const root = mkdtempSync(join(tmpdir(), 'switchyard-bench-burst-'));
  const dataDir = join(root, 'stack');
  mkdirSync(dataDir);
  console.log(`burst benchmark — ${cpus().length} CPU(s), node ${process.version}, load average ${load()}`);
  const stack = spawnStack([...freePortArgs(dataDir), '--log-level', 'warn'], {
    env: { NODE_OPTIONS: `--import ${PROBE}` },
    timeoutMs: 60_000,
  });
  // Many sockets at once, as many clients would open.
  const agent = new Agent({ connections: size, keepAliveTimeout: 60_000 });
  let delivered = 0;
  let onDelivery = (): void => undefined;
  const sink = await serveHttp(async () => {
    delivered++;
    onDelivery();
    return { status: 200, headers: {}, body: Buffer.from('ok') };
  });
  const finished = new Set<string>();
  let onFinished = (): void => undefined;
  let app: { url: string; close(): Promise<void> } | undefined;
  try {
    const ready = (await stack.ready).messages;
    const env = {
      QSTASH_URL: ready.url,
      QSTASH_TOKEN: ready.token,
      QSTASH_CURRENT_SIGNING_KEY: ready.currentSigningKey,
      QSTASH_NEXT_SIGNING_KEY: ready.nextSigningKey,
    };
    const { handler } = serve<unknown>(
      async (context) => {
        await context.run('step', () => 1);
        // Code after the last step runs once the run's result is known: the run is finishing.
        finished.add(context.workflowRunId);
        onFinished();
      },
      { env },
    );
    app = await serveHttp(async (req, body) => {
      const headers = new Headers();
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
        headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
      const response = await handler(
        // serve() names the next step's URL after the request's: the app's real address.
        new Request(`${app?.url}${req.url ?? '/'}`, {
          method: req.method,
          headers,
          body: new Uint8Array(body),
        }),
      );
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => (out[name] = value));
      return { status: response.status, headers: out, body: Buffer.from(await response.arrayBuffer()) };
    });
    const publish = async (i: number): Promise<void> => {
      const response = await request(`${ready.url}/v2/publish/${sink.url}/burst`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ready.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ i }),
        dispatcher: agent,
      });
      await response.body.dump();
      if (response.statusCode !== 200) throw new Error(`publish answered ${response.statusCode}`);
    };

    // A few rounds before measuring, so the sockets exist and the burst meets a running stack.
    for (let i = 0; i < 200; i++) await publish(i);
    const client = new Client({ baseUrl: ready.url, token: ready.token });
    const flow = `${app.url}/flow`;
    await Promise.all(Array.from({ length: 20 }, () => client.trigger({ url: flow })));
    const warm = whenCount(() => finished.size, 20, 60_000, 'the warm-up runs');
    onFinished = warm.notify;
    onFinished();
    await warm.reached;
    await closeWindow(stack);

    const windows: Record<string, LoopWindow & { ms: number }> = {};

    delivered = 0;
    const deliveries = whenCount(() => delivered, size, 120_000, 'the burst’s deliveries');
    onDelivery = deliveries.notify;
    let started = performance.now();
    await Promise.all(Array.from({ length: size }, (_, i) => publish(i)));
    await deliveries.reached;
    const publishMs = performance.now() - started;
    windows.publishes = { ...(await closeWindow(stack)), ms: publishMs };

    await new Promise((done) => setTimeout(done, publishMs));
    windows.idle = { ...(await closeWindow(stack)), ms: publishMs };

    finished.clear();
    const runs = whenCount(() => finished.size, size, 180_000, 'the burst’s runs');
    onFinished = runs.notify;
    started = performance.now();
    await Promise.all(Array.from({ length: size }, () => client.trigger({ url: flow })));
    await runs.reached;
    windows.triggers = { ...(await closeWindow(stack)), ms: performance.now() - started };

    finished.clear();
    const batched = whenCount(() => finished.size, size, 180_000, 'the batch’s runs');
    onFinished = batched.notify;
    started = performance.now();
    for (let sent = 0; sent < size; sent += BATCH_SIZE) {
      const count = Math.min(BATCH_SIZE, size - sent);
      await client.trigger(Array.from({ length: count }, () => ({ url: flow })));
    }
    await batched.reached;
    windows.batch = { ...(await closeWindow(stack)), ms: performance.now() - started };

    console.log(
      `${size.toLocaleString('en-US')} at once; the longest event-loop delay of the stack in each window`,
    );
    printTable(
      [
        'window',
        'loop max',
        'loop p99',
        'window',
        'main thread on CPU',
        'waiting for a CPU',
        `max vs budget ${BUDGET_MS} ms`,
      ],
      (['idle', 'publishes', 'triggers', 'batch'] as const).map((name) => {
        const window = windows[name] as LoopWindow & { ms: number };
        return [
          name,
          `${window.maxMs.toFixed(1)} ms`,
          `${window.p99Ms.toFixed(1)} ms`,
          `${Math.round(window.ms)} ms`,
          `${Math.round(window.onCpuMs)} ms`,
          `${Math.round(window.waitingForCpuMs)} ms`,
          name === 'idle' ? 'baseline' : window.maxMs <= BUDGET_MS ? 'within' : 'MISSED',
        ];
      }),
    );
    console.log(`load average at the end ${load()}`);
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/burst.json',
      `${JSON.stringify({ size, windows, load: loadavg(), at: new Date().toISOString() }, null, 2)}\n`,
    );
  } finally {
    await agent.close();
    await app?.close();
    await sink.close();
    await stack.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
