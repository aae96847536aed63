// `npm run bench -- ui [--runs N] [--events N]`: how the message console feels in Chromium (Debian's
// /usr/bin/chromium via Playwright, the browser host, a real local stack). A report, not a test.
//
// 1. Opening the composer: time from clicking the Compose tab until the composer is interactive (an enabled
//    form control in the tab is in the DOM, then the next frame is painted), measured inside the page.
//    Cold = the first open of the session (loads the lazy chunk); warm = later switches, from the Signing
//    keys tab and from the Logs tab holding 10,000 events. While the composer is still a placeholder
//    paragraph, "interactive" is that paragraph being painted, and the report says so.
//    Baseline, same page, same measure: a plain DOM click handler that inserts a form with one input.
// 2. Scrolling the logs: the local stack gets N log events (delivered messages: CREATED, ACTIVE, DELIVERED
//    each); the Logs tab loads them all through its cursor paging, then the list is scrolled
//    programmatically (a fixed number of pixels per animation frame) while requestAnimationFrame deltas are
//    recorded. Baseline: a plain static list of the same rows (same markup and CSS, all rows in the DOM, no
//    React, no virtualization) scrolled the same way in the same page.
// 3. The KV key browser over 1,000,000 keys (bench/ui-keys.ts): first screen, list and tree scroll.
//    `--only keys` runs just these rows; `--keys N`, `--browse N` size them.
// 4. Workflows (issue: run list with 10,000 runs at 60 fps; a 1,000-step run opens in < 300 ms and its tree
//    and timeline scroll at 60 fps): the stack gets --wf-runs runs (triggered as the SDK does, their first
//    delivery answered 200 by the sink, so they stay running with one step) and one run of --steps
//    sequential steps from a real serve() app. The Runs tab loads every run through its cursor paging
//    (10 per service page), the list is scrolled like the logs (baseline: a static copy of its rows); the
//    big run is opened by its route, timed in the page until its step rows are painted (baseline: the plain
//    DOM insert above), and its step tree + timeline is scrolled the same way; then the run's own page
//    (#/workflows/run/<id>, issue 24: opens < 300 ms) is timed the same way and its history (about 5,000
//    entries: each step fails once or twice first) scrolled. `--only workflows` runs just these rows.
// 5. The KV live monitor under 20,000 lines/s for 30 s (bench/ui-monitor.ts): frame time, renderer heap,
//    drops. `--only monitor` runs just these rows; `--monitor-rate N`, `--monitor-seconds N` size them.
// 6. The Flow control tab with --fc-keys keys (issue 22: smooth with 1,000 keys): each key gets messages
//    held for an hour (Upstash-Delay) so it stays listed; the tab's list, refreshed every 2 s, is scrolled
//    like the logs (baseline: a static copy of its rows). `--only flow-control` runs just this row.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Locator, Page } from '@playwright/test';
import { serve } from '@upstash/workflow';
import { launchChromium, webHostArgs } from './lib/browser';
import { median, percentile, printTable } from './lib/report';
import { stackPageUrl } from './lib/stack-page';
import { benchKeyBrowser } from './ui-keys';
import { benchMonitor } from './ui-monitor';

const DEV_TOKEN = 'eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=';
const COMPOSER_BUDGET_MS = 100;
const FRAME_BUDGET_MS = 1000 / 60;
const RUN_OPEN_BUDGET_MS = 300;
const SCROLL_FRAMES = 600;
const SCROLL_STEP_PX = 120;

function flag(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(name);
  return index >= 0 ? Number(args[index + 1]) : fallback;
}

async function startHost(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-bench-ui-'));
  const child = spawn(process.execPath, webHostArgs(dataDir), {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, SWITCHYARD_LOG_LEVEL: 'warn' },
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^Switchyard ready at (\S+)$/.exec(line);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`browser host exited with ${code}`)));
  });
  return {
    url,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startSink(): Promise<{ url: string; count: () => number; server: Server }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, count: () => received, server };
}

/** Publishes ceil(events / 3) messages to the sink (each makes CREATED, ACTIVE, DELIVERED). */
async function createLogEvents(api: string, sinkUrl: string, events: number, delivered: () => number) {
  const messages = Math.ceil(events / 3);
  const started = performance.now();
  for (let start = 0; start < messages; start += 100) {
    const items = Array.from({ length: Math.min(100, messages - start) }, (_, index) => ({
      destination: `${sinkUrl}/hooks/${(start + index) % 7}`,
      headers: { 'Content-Type': 'application/json', 'Upstash-Label': `bench-${(start + index) % 3}` },
      body: JSON.stringify({ order: start + index }),
    }));
    const response = await fetch(`${api}/v2/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(items),
    });
    if (!response.ok) throw new Error(`batch failed: ${response.status} ${await response.text()}`);
  }
  while (delivered() < messages) await new Promise((resolve) => setTimeout(resolve, 100));
  // The DELIVERED events are committed just after the sink answers: wait until the logs hold them all.
  for (;;) {
    let total = 0;
    let cursor: string | undefined;
    do {
      const response = await fetch(`${api}/v2/logs?count=1000${cursor ? `&cursor=${cursor}` : ''}`, {
        headers: { authorization: `Bearer ${DEV_TOKEN}` },
      });
      const page = (await response.json()) as { events: unknown[]; cursor?: string };
      total += page.events.length;
      cursor = page.cursor;
    } while (cursor);
    if (total >= messages * 3)
      return { messages, events: total, seconds: (performance.now() - started) / 1000 };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Clicks the tab named `tab` and answers the time until `ready` holds in the DOM and the next frame is
 * painted, measured in the page. `ready` is evaluated in the page: it returns the kind of thing found.
 */
async function timeTabOpen(page: Page, tab: string): Promise<{ ms: number; found: string }> {
  return page.evaluate(async (name) => {
    const button = [...document.querySelectorAll<HTMLButtonElement>('[role="tab"]')].find(
      (candidate) => candidate.textContent?.trim() === name,
    );
    if (!button) throw new Error(`no tab ${name}`);
    const main = document.querySelector('.main') ?? document.body;
    const ready = (): string | null => {
      if (button.getAttribute('aria-selected') !== 'true') return null;
      const control = [
        ...main.querySelectorAll<HTMLElement>('input, textarea, select, [contenteditable="true"]'),
      ].find(
        (element) =>
          !(element as HTMLInputElement).disabled &&
          element.getClientRects().length > 0 &&
          !element.closest('.tabs, .page-header'),
      );
      if (control) return 'form';
      const placeholder = [...main.querySelectorAll('p.muted')].find((p) =>
        /composer/i.test(p.textContent ?? ''),
      );
      return placeholder ? 'placeholder' : null;
    };
    const started = performance.now();
    button.click();
    const found = await new Promise<string>((resolve) => {
      const check = () => {
        const kind = ready();
        if (kind) {
          observer.disconnect();
          resolve(kind);
        }
      };
      const observer = new MutationObserver(check);
      observer.observe(main, { childList: true, subtree: true, attributes: true });
      check();
    });
    // Interactive = painted: wait for the next frame.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return { ms: performance.now() - started, found };
  }, tab);
}

/** Same measure for a plain DOM handler that inserts a form with one input (the floor in this page). */
async function timeBaselineOpen(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const host = document.createElement('div');
    const button = document.createElement('button');
    host.style.cssText = 'position:fixed;right:0;bottom:0;z-index:9999;background:#fff;padding:4px';
    button.textContent = 'open';
    host.append(button);
    document.body.append(host);
    button.addEventListener('click', () => {
      const form = document.createElement('form');
      const input = document.createElement('input');
      input.name = 'destination';
      form.append(input);
      host.append(form);
    });
    const started = performance.now();
    button.click();
    await new Promise<void>((resolve) => {
      const check = () => (host.querySelector('input') ? resolve() : requestAnimationFrame(check));
      check();
    });
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const ms = performance.now() - started;
    host.remove();
    return ms;
  });
}

/** Scrolls `selector` by a fixed step per frame; answers the rAF deltas (ms). */
/**
 * Loads a cursor-paged list whole, as a user scrolling down would: scrolls to the end until `endText` shows
 * (and, with `atLeast`, until the count in `attribute` reaches it). Answers the seconds it took.
 */
async function scrollToEnd(
  page: Page,
  list: Locator,
  endText: string,
  { attribute = 'data-rows', atLeast = 0 } = {},
): Promise<number> {
  const started = performance.now();
  for (;;) {
    const state = await list.evaluate(
      (element, wanted) => {
        element.scrollTop = element.scrollHeight;
        return {
          count: Number(element.getAttribute(wanted.attribute)),
          end: (element.textContent ?? '').includes(wanted.endText),
        };
      },
      { attribute, endText },
    );
    if (state.end && state.count >= atLeast) break;
    await page.waitForTimeout(30);
  }
  return (performance.now() - started) / 1000;
}

async function scrollFrameTimes(page: Page, selector: string): Promise<number[]> {
  return page.evaluate(
    async ({ target, frames, step }) => {
      const element = document.querySelector<HTMLElement>(target);
      if (!element) throw new Error(`nothing matches ${target}`);
      element.scrollTop = 0;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const deltas: number[] = [];
      let last = performance.now();
      let direction = 1;
      await new Promise<void>((resolve) => {
        const frame = (now: number) => {
          deltas.push(now - last);
          last = now;
          if (deltas.length >= frames) return resolve();
          const max = element.scrollHeight - element.clientHeight;
          if (element.scrollTop + step * direction > max || element.scrollTop + step * direction < 0) {
            direction = -direction;
          }
          element.scrollTop += step * direction;
          requestAnimationFrame(frame);
        };
        requestAnimationFrame((now) => {
          last = now;
          requestAnimationFrame(frame);
        });
      });
      return deltas;
    },
    { target: selector, frames: SCROLL_FRAMES, step: SCROLL_STEP_PX },
  );
}

/**
 * `BENCH_CPU_PROFILE=<dir>`: the same scroll under the CDP sampling profiler; writes a .cpuprofile per
 * scroll (open it in Chrome DevTools' Performance panel) and prints the functions with the most self time.
 * Build the renderer unminified (`npx vite build --minify false`) for readable names.
 */
async function profiledScrollFrames(page: Page, selector: string): Promise<number[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const frames = await scrollFrameTimes(page, selector);
  const { profile } = await cdp.send('Profiler.stop');
  const name = `${process.env.BENCH_CPU_PROFILE}/${selector.replace(/\W+/g, '_')}-${Date.now()}.cpuprofile`;
  writeFileSync(name, JSON.stringify(profile));
  const self = new Map<string, number>();
  const dt = profile.timeDeltas ?? [];
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  (profile.samples ?? []).forEach((id, i) => {
    const n = byId.get(id)!;
    const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`profile ${selector}: ${name}, ${total.toFixed(0)} ms sampled`);
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`  ${v.toFixed(1).padStart(8)} ms  ${k}`);
  }
  await cdp.detach();
  return frames;
}

/** A static copy of the rendered rows, every row in the DOM, laid over the list at the same size. */
async function buildStaticList(
  page: Page,
  rows: number,
  listSelector = '[data-testid="log-list"]',
  rowSelector = '.log-row',
): Promise<void> {
  await page.evaluate(
    ({ count, listSelector, rowSelector }) => {
      const list = document.querySelector<HTMLElement>(listSelector)!;
      const sample = list.querySelector<HTMLElement>(rowSelector)!;
      const rect = list.getBoundingClientRect();
      const container = document.createElement('div');
      container.id = 'bench-static-list';
      container.className = list.className;
      container.style.cssText = `position:fixed;left:${rect.left}px;top:${rect.top}px;width:${rect.width}px;height:${rect.height}px;z-index:50;contain:none`;
      const html = sample.outerHTML;
      const fragment = document.createDocumentFragment();
      for (let i = 0; i < count; i += 1) {
        const slot = document.createElement('div');
        slot.style.height = `${sample.getBoundingClientRect().height}px`;
        slot.innerHTML = html;
        fragment.append(slot);
      }
      container.append(fragment);
      document.body.append(container);
    },
    { count: rows, listSelector, rowSelector },
  );
}

/** `count` runs triggered the way the SDK does (`/v2/batch`, workflow init headers) at the sink. */
async function createWorkflowRuns(api: string, sinkUrl: string, count: number): Promise<number> {
  const started = performance.now();
  for (let start = 0; start < count; start += 100) {
    const items = Array.from({ length: Math.min(100, count - start) }, (_, index) => {
      const url = `${sinkUrl}/wf/${(start + index) % 5}`;
      return {
        destination: url,
        headers: {
          'Content-Type': 'application/json',
          'Upstash-Workflow-Init': 'true',
          'Upstash-Workflow-RunId': `wfr_bench${start + index}`,
          'Upstash-Workflow-Url': url,
          'Upstash-Workflow-Sdk-Version': '1',
          'Upstash-Retries': '0',
          'Upstash-Label': `bench-${(start + index) % 3}`,
        },
        body: JSON.stringify({ order: start + index }),
      };
    });
    const response = await fetch(`${api}/v2/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(items),
    });
    if (!response.ok) throw new Error(`workflow batch failed: ${response.status} ${await response.text()}`);
  }
  return (performance.now() - started) / 1000;
}

/** The Flow control tab with `keys` keys, each holding `perKey` delayed messages: its list scrolled. */
async function benchFlowControl(
  page: Page,
  api: string,
  sinkUrl: string,
  options: { keys: number; perKey: number },
): Promise<{ rows: string[][]; notes: string[] }> {
  const started = performance.now();
  const messages = Array.from({ length: options.keys * options.perKey }, (_, index) => index);
  for (let start = 0; start < messages.length; start += 100) {
    const items = messages.slice(start, start + 100).map((index) => ({
      destination: `${sinkUrl}/fc/${index}`,
      headers: {
        'Upstash-Delay': '1h',
        'Upstash-Flow-Control-Key': `bench-key-${String(index % options.keys).padStart(5, '0')}`,
        'Upstash-Flow-Control-Value': `parallelism=${1 + (index % 5)}, rate=${10 + (index % 90)}, period=1m`,
      },
      body: '{}',
    }));
    const response = await fetch(`${api}/v2/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(items),
    });
    if (!response.ok)
      throw new Error(`flow-control batch failed: ${response.status} ${await response.text()}`);
  }
  const createSeconds = (performance.now() - started) / 1000;
  await page.evaluate(() => (location.hash = '#/messages/flow-control'));
  const summary = page.getByTestId('fc-summary');
  const keysText = `${options.keys.toLocaleString('en-US')} keys`;
  for (let tries = 0; !((await summary.textContent()) ?? '').startsWith(keysText); tries += 1) {
    if (tries > 300)
      throw new Error(`the Flow control tab never listed ${keysText}: ${await summary.textContent()}`);
    await page.waitForTimeout(100);
  }
  const list = '[data-testid="fc-list"]';
  const domRows = await page.locator(list).evaluate((element) => element.querySelectorAll('.fc-row').length);
  const frames = await scrollFrameTimes(page, list);
  await buildStaticList(page, options.keys, list, '.fc-row');
  const staticFrames = await scrollFrameTimes(page, '#bench-static-list');
  await page.evaluate(() => document.getElementById('bench-static-list')?.remove());
  const p95 = percentile(frames, 95);
  const staticP95 = percentile(staticFrames, 95);
  return {
    rows: [
      [
        `Flow control tab, ${options.keys.toLocaleString('en-US')} keys (refreshed every 2 s): scroll frame time p95`,
        `${p95.toFixed(1)} ms (${(1000 / median(frames)).toFixed(0)} fps median)`,
        `${staticP95.toFixed(1)} ms (static list)`,
        (p95 / staticP95).toFixed(2),
        `≤ ${FRAME_BUDGET_MS.toFixed(1)} ms (60 fps)`,
        p95 <= FRAME_BUDGET_MS + 0.5 ? 'within' : 'MISSED',
      ],
    ],
    notes: [
      `flow control: ${options.keys} keys × ${options.perKey} delayed messages made in ${createSeconds.toFixed(1)} s; ` +
        `${domRows} rows in the DOM while ${options.keys} are listed`,
    ],
  };
}

/**
 * One run of `steps` sequential steps from a real serve() app; resolves with its id once it succeeded. Every
 * step fails its first attempt and every other step its second too (retried at once: `Upstash-Retry-Delay:
 * 0`), so that the run's history holds about 5 entries a step (attempts, retries, the step): 5,000 for 1,000.
 */
async function createBigRun(api: string, steps: number): Promise<{ runId: string; seconds: number }> {
  const started = performance.now();
  const failures = new Map<number, number>();
  const handler = serve(
    async (context) => {
      for (let i = 0; i < steps; i += 1) {
        await context.run(`step-${i}`, () => {
          const failed = failures.get(i) ?? 0;
          if (failed < (i % 2 === 0 ? 2 : 1)) {
            failures.set(i, failed + 1);
            throw new Error(`step ${i} fails attempt ${failed + 1} on purpose`);
          }
          return i;
        });
      }
    },
    { env: { QSTASH_URL: api, QSTASH_TOKEN: DEV_TOKEN } },
  ).handler;
  let base = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = new Headers();
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
        headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      void handler(
        new Request(base + (req.url ?? '/'), { method: 'POST', headers, body: Buffer.concat(chunks) }),
      )
        .then(async (response) => {
          const out: Record<string, string> = {};
          response.headers.forEach((value, name) => (out[name] = value));
          res.writeHead(response.status, out).end(Buffer.from(await response.arrayBuffer()));
        })
        .catch((error: unknown) => res.writeHead(500).end(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const runId = `wfr_bench_big_${Date.now()}`;
    const trigger = await fetch(`${api}/v2/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify([
        {
          destination: `${base}/big`,
          headers: {
            'Content-Type': 'application/json',
            'Upstash-Workflow-Init': 'true',
            'Upstash-Workflow-RunId': runId,
            'Upstash-Workflow-Url': `${base}/big`,
            'Upstash-Workflow-Sdk-Version': '1',
            'Upstash-Forward-Upstash-Workflow-Sdk-Version': '1',
            'Upstash-Feature-Set': 'LazyFetch,InitialBody,WF_DetectTrigger,WF_TriggerOnConfig',
            'Upstash-Retries': '3',
            'Upstash-Retry-Delay': '0',
          },
          body: '{}',
        },
      ]),
    });
    if (!trigger.ok) throw new Error(`big run trigger failed: ${trigger.status} ${await trigger.text()}`);
    for (;;) {
      const response = await fetch(`${api}/v2/workflows/logs?workflowRunId=${runId}`, {
        headers: { authorization: `Bearer ${DEV_TOKEN}` },
      });
      const body = (await response.json()) as { runs?: { workflowState: string }[] };
      const state = body.runs?.[0]?.workflowState;
      if (state === 'RUN_SUCCESS') return { runId, seconds: (performance.now() - started) / 1000 };
      if (state === 'RUN_FAILED' || state === 'RUN_CANCELED') throw new Error(`big run ended ${state}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** Where a run's step tree opens: the Runs tab's detail panel, or the run's own page. */
const RUN_VIEWS = {
  detail: { route: '#/workflows/runs/', tree: '[data-testid="step-tree"]' },
  page: { route: '#/workflows/run/', tree: '[data-testid="run-page"] [data-testid="step-tree"]' },
};

/**
 * Opens the run in `view` by its route `opens` times, each from the Runs tab; the time of each until `steps`
 * step rows are laid out and painted.
 */
async function timeRunOpens(
  page: Page,
  view: keyof typeof RUN_VIEWS,
  runId: string,
  { steps, opens }: { steps: number; opens: number },
): Promise<number[]> {
  const { route, tree } = RUN_VIEWS[view];
  const runList = page.getByTestId('run-list');
  const times: number[] = [];
  for (let i = 0; i < opens; i += 1) {
    await page.evaluate(() => (location.hash = '#/workflows/runs'));
    await runList.waitFor();
    times.push(await timeStepTreeOpen(page, `${route}${encodeURIComponent(runId)}`, tree, steps));
  }
  return times;
}

/** Goes to `hash`; the time until the step tree at `treeSelector` has laid out `steps` rows and painted. */
async function timeStepTreeOpen(
  page: Page,
  hash: string,
  treeSelector: string,
  steps: number,
): Promise<number> {
  return page.evaluate(
    async ({ route, selector, rows }) => {
      const started = performance.now();
      location.hash = route;
      await new Promise<void>((resolve) => {
        const check = () => {
          const tree = document.querySelector(selector);
          if (tree && Number(tree.getAttribute('data-rows')) >= rows && tree.querySelector('.wf-step-line')) {
            observer.disconnect();
            resolve();
          }
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { childList: true, subtree: true, attributes: true });
        check();
      });
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - started;
    },
    { route: hash, selector: treeSelector, rows: steps },
  );
}

/** The workflow rows: runs list scroll, opening a big run, its tree + timeline scroll. */
async function benchWorkflows(
  page: Page,
  api: string,
  sinkUrl: string,
  options: { runs: number; steps: number; opens: number; baseline: number },
): Promise<{ rows: string[][]; notes: string[] }> {
  const { baseline } = options;
  const p95 = (values: number[]) => percentile(values, 95);
  const fps = (values: number[]) => 1000 / median(values);
  const wfSeconds = await createWorkflowRuns(api, sinkUrl, options.runs);
  const big = await createBigRun(api, options.steps);
  await page.evaluate(() => (location.hash = '#/workflows/runs'));
  const runList = page.getByTestId('run-list');
  await runList.waitFor();
  const runsLoadSeconds = await scrollToEnd(page, runList, 'the end');
  const runRows = Number(await runList.getAttribute('data-rows'));
  const runDomRows = await runList.evaluate((element) => element.querySelectorAll('.run-row').length);
  const runFrames = await scrollFrameTimes(page, '[data-testid="run-list"]');
  await buildStaticList(page, runRows, '[data-testid="run-list"]', '.run-row');
  const runStaticFrames = await scrollFrameTimes(page, '#bench-static-list');
  await page.evaluate(() => document.getElementById('bench-static-list')?.remove());

  const opens = await timeRunOpens(page, 'detail', big.runId, options);
  const treeFrames = await scrollFrameTimes(page, '[data-testid="step-tree"]');

  // The run's own page: opened by its route, then its history scrolled.
  const pageOpens = await timeRunOpens(page, 'page', big.runId, options);
  await page
    .getByTestId('run-page')
    .getByRole('button', { name: /^History/ })
    .click();
  const history = page.getByTestId('run-history');
  await history.waitFor();
  const historyRows = Number(await history.getAttribute('data-rows'));
  const historyFrames = await scrollFrameTimes(page, '[data-testid="run-history"]');
  return {
    rows: [
      [
        `workflow runs scroll, frame time p95 (${runRows} runs)`,
        `${p95(runFrames).toFixed(1)} ms (${fps(runFrames).toFixed(0)} fps median)`,
        `${p95(runStaticFrames).toFixed(1)} ms (static list, ${fps(runStaticFrames).toFixed(0)} fps)`,
        (p95(runFrames) / p95(runStaticFrames)).toFixed(2),
        `≤ ${FRAME_BUDGET_MS.toFixed(1)} ms (60 fps)`,
        p95(runFrames) <= FRAME_BUDGET_MS + 0.5 ? 'within' : 'MISSED',
      ],
      [
        `open a ${options.steps}-step run, first (fetch + layout)`,
        `${opens[0]!.toFixed(1)} ms`,
        `${baseline.toFixed(1)} ms (plain DOM insert)`,
        (opens[0]! / baseline).toFixed(1),
        `< ${RUN_OPEN_BUDGET_MS} ms`,
        opens[0]! < RUN_OPEN_BUDGET_MS ? 'within' : 'MISSED',
      ],
      [
        `open a ${options.steps}-step run again, median of ${opens.length - 1}`,
        `${median(opens.slice(1)).toFixed(1)} ms (max ${Math.max(...opens.slice(1)).toFixed(1)})`,
        `${baseline.toFixed(1)} ms`,
        (median(opens.slice(1)) / baseline).toFixed(1),
        `< ${RUN_OPEN_BUDGET_MS} ms`,
        Math.max(...opens.slice(1)) < RUN_OPEN_BUDGET_MS ? 'within' : 'MISSED',
      ],
      [
        `open a ${options.steps}-step run's page, first (fetch + layout)`,
        `${pageOpens[0]!.toFixed(1)} ms`,
        `${baseline.toFixed(1)} ms (plain DOM insert)`,
        (pageOpens[0]! / baseline).toFixed(1),
        `< ${RUN_OPEN_BUDGET_MS} ms`,
        pageOpens[0]! < RUN_OPEN_BUDGET_MS ? 'within' : 'MISSED',
      ],
      [
        `open a ${options.steps}-step run's page again, median of ${pageOpens.length - 1}`,
        `${median(pageOpens.slice(1)).toFixed(1)} ms (max ${Math.max(...pageOpens.slice(1)).toFixed(1)})`,
        `${baseline.toFixed(1)} ms`,
        (median(pageOpens.slice(1)) / baseline).toFixed(1),
        `< ${RUN_OPEN_BUDGET_MS} ms`,
        Math.max(...pageOpens.slice(1)) < RUN_OPEN_BUDGET_MS ? 'within' : 'MISSED',
      ],
      [
        `its history of ${historyRows.toLocaleString('en-US')} entries, scroll frame time p95`,
        `${p95(historyFrames).toFixed(1)} ms (${fps(historyFrames).toFixed(0)} fps median)`,
        `${p95(runStaticFrames).toFixed(1)} ms (static run list)`,
        (p95(historyFrames) / p95(runStaticFrames)).toFixed(2),
        `≤ ${FRAME_BUDGET_MS.toFixed(1)} ms (60 fps)`,
        p95(historyFrames) <= FRAME_BUDGET_MS + 0.5 ? 'within' : 'MISSED',
      ],
      [
        `${options.steps}-step tree + timeline scroll, frame time p95`,
        `${p95(treeFrames).toFixed(1)} ms (${fps(treeFrames).toFixed(0)} fps median)`,
        `${p95(runStaticFrames).toFixed(1)} ms (static run list)`,
        (p95(treeFrames) / p95(runStaticFrames)).toFixed(2),
        `≤ ${FRAME_BUDGET_MS.toFixed(1)} ms (60 fps)`,
        p95(treeFrames) <= FRAME_BUDGET_MS + 0.5 ? 'within' : 'MISSED',
      ],
    ],
    notes: [
      `workflows: ${options.runs} runs triggered in ${wfSeconds.toFixed(1)} s, loaded by the Runs tab in ${runsLoadSeconds.toFixed(1)} s ` +
        `(${runDomRows} rows in the DOM); the ${options.steps}-step run took ${big.seconds.toFixed(1)} s; ` +
        `opens (ms): ${opens.map((v) => v.toFixed(0)).join(', ')}; page opens (ms): ${pageOpens.map((v) => v.toFixed(0)).join(', ')}`,
    ],
  };
}

export async function run(args: string[]): Promise<void> {
  const runs = flag(args, '--runs', 15);
  const eventTarget = flag(args, '--events', 10_000);
  const wfRuns = flag(args, '--wf-runs', 10_000);
  const bigSteps = flag(args, '--steps', 1000);
  const browser = await launchChromium();
  const host = await startHost();
  const sink = await startSink();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    const keyOptions = {
      keys: flag(args, '--keys', 1_000_000),
      browse: flag(args, '--browse', 100_000),
      runs: Math.min(runs, 5),
      scrollFrames: process.env.BENCH_CPU_PROFILE ? profiledScrollFrames : scrollFrameTimes,
    };
    const monitorOptions = {
      rate: flag(args, '--monitor-rate', 20_000),
      seconds: flag(args, '--monitor-seconds', 30),
    };
    // `--only <part>` runs one part's rows and prints them alone.
    const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
    const printOnly = (title: string, result: { rows: string[][]; notes: string[] }) => {
      console.log(
        `ui benchmark (${title} only) — Chromium ${browser.version()}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}\n`,
      );
      printTable(['measure', 'value', 'baseline (same run)', 'ratio', 'budget', 'verdict'], result.rows);
      console.log(`\n${result.notes.join('\n')}`);
    };
    if (only === 'monitor') return printOnly('KV monitor', await benchMonitor(page, monitorOptions));
    if (only === 'keys') return printOnly('key browser', await benchKeyBrowser(page, keyOptions));
    const api = await stackPageUrl(page, 'Message + workflow API');
    const wfOptions = { runs: wfRuns, steps: bigSteps, opens: Math.min(runs, 6), baseline: 0 };
    if (only === 'flow-control') {
      const fcOptions = { keys: flag(args, '--fc-keys', 1_000), perKey: flag(args, '--fc-per-key', 2) };
      return printOnly('flow control', await benchFlowControl(page, api, sink.url, fcOptions));
    }
    if (only === 'workflows') {
      const floor: number[] = [];
      for (let i = 0; i < runs; i += 1) floor.push(await timeBaselineOpen(page));
      return printOnly(
        'workflows',
        await benchWorkflows(page, api, sink.url, { ...wfOptions, baseline: median(floor) }),
      );
    }

    // ---- composer open -------------------------------------------------------------------------------
    await page.evaluate(() => (location.hash = '#/messages/keys'));
    await page.getByTestId('key-current').waitFor();
    const cold = await timeTabOpen(page, 'Compose');
    const fromKeys: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      await page.evaluate(() => (location.hash = '#/messages/keys'));
      await page.getByTestId('key-current').waitFor();
      fromKeys.push((await timeTabOpen(page, 'Compose')).ms);
      baseline.push(await timeBaselineOpen(page));
    }

    // ---- logs data ------------------------------------------------------------------------------------
    const data = await createLogEvents(api, sink.url, eventTarget, sink.count);
    await page.evaluate(() => (location.hash = '#/messages/logs'));
    const list = page.getByTestId('log-list');
    await list.waitFor();
    await page.getByRole('button', { name: 'Refresh' }).click();
    const loadSeconds = await scrollToEnd(page, list, 'End of the logs', {
      attribute: 'data-events',
      atLeast: data.events,
    });
    const rows = Number(await list.getAttribute('data-rows'));
    const loadedEvents = Number(await list.getAttribute('data-events'));
    const domRows = await list.evaluate((element) => element.querySelectorAll('.log-row').length);

    const virtualized = await scrollFrameTimes(page, '[data-testid="log-list"]');
    await buildStaticList(page, rows);
    const staticFrames = await scrollFrameTimes(page, '#bench-static-list');
    await page.evaluate(() => document.getElementById('bench-static-list')?.remove());

    // Composer opened from the Logs tab with everything loaded (it unmounts the big list).
    const fromLogs: number[] = [];
    for (let i = 0; i < Math.min(runs, 5); i += 1) {
      await page.evaluate(() => (location.hash = '#/messages/logs'));
      await list.waitFor();
      await page.waitForTimeout(200);
      fromLogs.push((await timeTabOpen(page, 'Compose')).ms);
    }

    // ---- KV key browser -------------------------------------------------------------------------------
    const keys = await benchKeyBrowser(page, keyOptions);
    const monitor = await benchMonitor(page, monitorOptions);

    // ---- workflows ------------------------------------------------------------------------------------
    const workflows = await benchWorkflows(page, api, sink.url, { ...wfOptions, baseline: median(baseline) });

    // ---- report ---------------------------------------------------------------------------------------
    const p95 = (values: number[]) => percentile(values, 95);
    const fps = (values: number[]) => 1000 / median(values);
    const over = (values: number[]) =>
      (100 * values.filter((value) => value > FRAME_BUDGET_MS * 1.5).length) / values.length;
    const composerKind = cold.found === 'form' ? 'composer form' : 'composer PLACEHOLDER (not built yet)';
    const baselineMedian = median(baseline);
    console.log(
      `ui benchmark — Chromium ${browser.version()}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}; ` +
        `measured: ${composerKind}\n`,
    );
    printTable(
      ['measure', 'value', 'baseline (same run)', 'ratio', 'budget', 'verdict'],
      [
        [
          'open composer, cold (first open, lazy chunk)',
          `${cold.ms.toFixed(1)} ms`,
          `${baselineMedian.toFixed(1)} ms (plain DOM insert)`,
          (cold.ms / baselineMedian).toFixed(1),
          `< ${COMPOSER_BUDGET_MS} ms`,
          cold.ms < COMPOSER_BUDGET_MS ? 'within' : 'MISSED',
        ],
        [
          `open composer from Signing keys, median of ${runs}`,
          `${median(fromKeys).toFixed(1)} ms (p95 ${p95(fromKeys).toFixed(1)})`,
          `${baselineMedian.toFixed(1)} ms`,
          (median(fromKeys) / baselineMedian).toFixed(1),
          `< ${COMPOSER_BUDGET_MS} ms`,
          p95(fromKeys) < COMPOSER_BUDGET_MS ? 'within' : 'MISSED',
        ],
        [
          `open composer from Logs (${loadedEvents} events), median of ${fromLogs.length}`,
          `${median(fromLogs).toFixed(1)} ms (max ${Math.max(...fromLogs).toFixed(1)})`,
          `${baselineMedian.toFixed(1)} ms`,
          (median(fromLogs) / baselineMedian).toFixed(1),
          `< ${COMPOSER_BUDGET_MS} ms`,
          Math.max(...fromLogs) < COMPOSER_BUDGET_MS ? 'within' : 'MISSED',
        ],
        [
          `logs scroll, frame time p95 (${loadedEvents} events, ${rows} rows)`,
          `${p95(virtualized).toFixed(1)} ms (${fps(virtualized).toFixed(0)} fps median)`,
          `${p95(staticFrames).toFixed(1)} ms (static list, ${fps(staticFrames).toFixed(0)} fps)`,
          (p95(virtualized) / p95(staticFrames)).toFixed(2),
          `≤ ${FRAME_BUDGET_MS.toFixed(1)} ms (60 fps)`,
          p95(virtualized) <= FRAME_BUDGET_MS + 0.5 ? 'within' : 'MISSED',
        ],
        ...workflows.rows,
        [
          'logs scroll, frames over 25 ms',
          `${over(virtualized).toFixed(1)} %`,
          `${over(staticFrames).toFixed(1)} %`,
          '',
          '',
          '',
        ],
        ...keys.rows,
        ...monitor.rows,
      ],
    );
    console.log(`\n${keys.notes.join('\n')}`);
    console.log(monitor.notes.join('\n'));
    console.log(
      `\nscroll: ${SCROLL_FRAMES} frames at ${SCROLL_STEP_PX} px/frame; virtualized list keeps ${domRows} rows in the DOM, ` +
        `the static baseline ${rows}. frame p50/p99/max: virtualized ${median(virtualized).toFixed(1)}/` +
        `${percentile(virtualized, 99).toFixed(1)}/${Math.max(...virtualized).toFixed(1)} ms, static ` +
        `${median(staticFrames).toFixed(1)}/${percentile(staticFrames, 99).toFixed(1)}/${Math.max(...staticFrames).toFixed(1)} ms`,
    );
    console.log(
      `data: ${data.messages} delivered messages → ${data.events} log events in ${data.seconds.toFixed(1)} s; ` +
        `the Logs tab loaded them through ${Math.ceil(data.events / 100)} cursor pages in ${loadSeconds.toFixed(1)} s`,
    );
    console.log(
      `composer open, all runs (ms): from keys ${fromKeys.map((v) => v.toFixed(0)).join(', ')}; ` +
        `from logs ${fromLogs.map((v) => v.toFixed(0)).join(', ')}; baseline ${baseline.map((v) => v.toFixed(1)).join(', ')}`,
    );
    console.log(`\n${workflows.notes.join('\n')}`);
  } finally {
    sink.server.close();
    await browser.close();
    await host.stop();
  }
}
