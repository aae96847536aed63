// The live-monitor rows of `npm run bench -- ui` (issue: monitor at 20,000 lines/s for 30 s — frame p95
// ≤ 16.7 ms, renderer heap bounded, drops counted and shown). A report, not a test: nothing here asserts.
//
// Traffic: a worker thread sends SET commands to the stack's KV REST service as `/pipeline` requests,
// paced to `--monitor-rate` commands per second (default 20,000) for `--monitor-seconds` (default 30).
// Every command is one MONITOR line; the stack streams them as SSE, main batches them over the bridge and
// the Monitor tab keeps at most its cap (10,000 lines by default).
// Measured in the page while the traffic runs: requestAnimationFrame deltas (frame time) and the
// renderer's JS heap after a GC at half time and at the end (Chrome DevTools Protocol). Baseline:
// the same tab, live, with no traffic, for 5 s in the same run.
import { Worker } from 'node:worker_threads';
import type { Page } from '@playwright/test';
import { median, percentile } from './lib/report';
import { kvUrl, LOCAL_KV_TOKEN } from './ui-keys';

const FRAME_BUDGET_MS = 1000 / 60;
const BASELINE_SECONDS = 5;

export interface MonitorOptions {
  rate: number;
  seconds: number;
}

/** Runs in a worker thread so pacing never competes with the page measurements on the bench's loop. */
const TRAFFIC_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, token, rate, seconds } = workerData;
(async () => {
  const started = performance.now();
  let sent = 0;
  let requests = 0;
  let failures = 0;
  for (;;) {
    const elapsed = (performance.now() - started) / 1000;
    if (elapsed >= seconds) break;
    const due = Math.min(2000, Math.floor(rate * elapsed) - sent);
    if (due <= 0) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      continue;
    }
    const rows = [];
    for (let i = 0; i < due; i++) rows.push(['SET', 'bench:monitor:' + ((sent + i) % 5000), String(sent + i)]);
    const response = await fetch(url + '/pipeline', {
      method: 'POST',
      headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
      body: JSON.stringify(rows),
    });
    await response.arrayBuffer();
    requests++;
    if (!response.ok) failures++;
    sent += due;
  }
  parentPort.postMessage({ sent, requests, failures, seconds: (performance.now() - started) / 1000 });
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

interface TrafficResult {
  sent: number;
  requests: number;
  failures: number;
  seconds: number;
}

function startTraffic(url: string, rate: number, seconds: number): Promise<TrafficResult> {
  const worker = new Worker(TRAFFIC_SOURCE, {
    eval: true,
    workerData: { url, token: LOCAL_KV_TOKEN, rate, seconds },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (message: TrafficResult & { error?: string }) => {
      void worker.terminate();
      if (message.error) reject(new Error(`monitor traffic failed: ${message.error}`));
      else resolve(message);
    });
    worker.once('error', reject);
  });
}

/**
 * rAF deltas for `seconds`, measured in the page, and the page's long tasks (main-thread work over 50 ms)
 * in the same window: frames missed with few long tasks mean the machine, not the page, was busy.
 */
function frameTimes(page: Page, seconds: number): Promise<{ deltas: number[]; longTaskMs: number }> {
  return page.evaluate(async (ms) => {
    const deltas: number[] = [];
    let longTaskMs = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTaskMs += entry.duration;
    });
    observer.observe({ type: 'longtask' });
    await new Promise<void>((resolve) => {
      let first = 0;
      let last = 0;
      const frame = (now: number) => {
        if (first === 0) first = now;
        else deltas.push(now - last);
        last = now;
        if (now - first >= ms) resolve();
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    observer.disconnect();
    return { deltas, longTaskMs };
  }, seconds * 1000);
}

const count = async (page: Page, testId: string): Promise<number> =>
  Number(((await page.getByTestId(testId).textContent()) ?? '').replace(/[^\d]/g, ''));

/** Answers the report rows: [measure, value, baseline, ratio, budget, verdict], and notes. */
export async function benchMonitor(
  page: Page,
  options: MonitorOptions,
): Promise<{ rows: string[][]; notes: string[] }> {
  const url = await kvUrl(page);
  await page.evaluate(() => (location.hash = '#/kv/monitor'));
  await page.getByTestId('monitor-state').getByText('Live').waitFor({ timeout: 60_000 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const heapMb = async (): Promise<number> => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return (metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? Number.NaN) / 2 ** 20;
  };
  await cdp.send('HeapProfiler.collectGarbage');
  const heapBefore = await heapMb();

  const { deltas: idle } = await frameTimes(page, BASELINE_SECONDS);

  // The kept lines reach the cap within a second; a heap measured after GC at half time and at the end
  // (both with the cap full) shows whether anything else grows. Two GCs cost two frames out of thousands.
  const traffic = startTraffic(url, options.rate, options.seconds);
  const measuring = frameTimes(page, options.seconds);
  await new Promise((resolve) => setTimeout(resolve, (options.seconds * 1000) / 2));
  await cdp.send('HeapProfiler.collectGarbage');
  const heapHalf = await heapMb();
  const { deltas: busy, longTaskMs } = await measuring;
  const sent = await traffic;
  await cdp.send('HeapProfiler.collectGarbage');
  const heapEnd = await heapMb();

  // Let the last batches arrive, then read what the screen says about them.
  await page.waitForTimeout(1000);
  const kept = await count(page, 'monitor-kept');
  const dropped = await count(page, 'monitor-dropped');
  const statsText = (await page.getByTestId('monitor-stats').textContent()) ?? '';
  const evicted = Number(/Evicted by the cap: ([\d,]+)/.exec(statsText)?.[1]?.replace(/,/g, '') ?? 'NaN');
  await page.getByRole('button', { name: 'Stop monitor' }).click();
  await cdp.detach();

  const p95 = (values: number[]) => percentile(values, 95);
  const growth = heapEnd / heapHalf;
  const received = kept + evicted;
  const achievedRate = sent.sent / sent.seconds;
  return {
    rows: [
      [
        `monitor at ${Math.round(achievedRate).toLocaleString('en-US')} lines/s for ${options.seconds} s, frame time p95`,
        `${p95(busy).toFixed(1)} ms (${(1000 / median(busy)).toFixed(0)} fps median)`,
        `${p95(idle).toFixed(1)} ms (same tab, no traffic)`,
        (p95(busy) / p95(idle)).toFixed(2),
        `≤ ${FRAME_BUDGET_MS.toFixed(1)} ms (60 fps)`,
        p95(busy) <= FRAME_BUDGET_MS + 0.5 ? 'within' : 'MISSED',
      ],
      [
        'monitor renderer heap after GC, end / half time',
        `${heapEnd.toFixed(1)} MB / ${heapHalf.toFixed(1)} MB`,
        `${heapBefore.toFixed(1)} MB before (after GC)`,
        growth.toFixed(2),
        'bounded (no growth: ratio ≤ 1.2)',
        growth <= 1.2 ? 'within' : 'MISSED',
      ],
      [
        'monitor lines: sent / reached the tab / dropped (shown)',
        `${sent.sent.toLocaleString('en-US')} / ${received.toLocaleString('en-US')} / ${dropped.toLocaleString('en-US')}`,
        '',
        (received / sent.sent).toFixed(3),
        'drops counted and shown',
        received + dropped >= sent.sent ? 'within' : 'UNACCOUNTED',
      ],
    ],
    notes: [
      `monitor: traffic ${sent.sent.toLocaleString('en-US')} SETs in ${sent.requests} /pipeline requests ` +
        `(${sent.failures} failed) over ${sent.seconds.toFixed(1)} s (target ${options.rate.toLocaleString('en-US')}/s); ` +
        `tab kept ${kept.toLocaleString('en-US')} (cap), evicted ${evicted.toLocaleString('en-US')}, dropped ${dropped}; ` +
        `frame p50/p99/max under traffic ${median(busy).toFixed(1)}/${percentile(busy, 99).toFixed(1)}/` +
        `${Math.max(...busy).toFixed(1)} ms; the page's long tasks (> 50 ms) took ${longTaskMs.toFixed(0)} ms ` +
        `of the ${options.seconds} s`,
    ],
  };
}
