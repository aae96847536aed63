// The key-browser rows of `npm run bench -- ui`: the KV key browser over a large keyspace (1,000,000 keys by
// default, `--keys N`), seeded through the stack's KV REST service into its redis-server. A report, not a
// test: nothing here asserts.
//
// 1. First screen: from clicking the Keys tab until the first rows of the first SCAN batch are painted,
//    in tree view and in list view, measured in the page. Baseline: a plain DOM click handler inserting one
//    row (the floor in this page).
// 2. Scrolling: the browser loads `--browse N` keys (default 100,000: the first walk's cap, then "Continue
//    scanning" until N), then the flat list and the tree (every folder expanded) are scrolled a fixed number
//    of pixels per frame while requestAnimationFrame deltas are recorded. Baseline: a static list of 10,000
//    copies of a rendered row (all in the DOM, no React) scrolled the same way in the same page. It is no
//    floor: a CPU profile of its scroll is all native style/layout/paint of 10,000 rows, so on a loaded
//    machine it falls to 30 fps (p95 33 ms) while the virtualized list (~40 rows in the DOM) holds 60.
//    The verdicts use the absolute 16.7 ms budget, never the ratio.
import type { Page } from '@playwright/test';
import { median, percentile } from './lib/report';
import { stackPageUrl } from './lib/stack-page';

export const LOCAL_KV_TOKEN = 'switchyard-local-kv-token';
const FIRST_SCREEN_BUDGET_MS = 300;
const FRAME_BUDGET_MS = 1000 / 60;

export interface KeyBrowserOptions {
  keys: number;
  browse: number;
  runs: number;
  scrollFrames: (page: Page, selector: string) => Promise<number[]>;
}

export const kvUrl = (page: Page): Promise<string> => stackPageUrl(page, 'KV REST');

/** `tenant:<00-99>:<n>`: 100 folders under one, the shape a real keyspace has. MSET 1,000 keys per row. */
async function seed(url: string, keys: number): Promise<number> {
  const started = performance.now();
  const post = async (body: unknown) => {
    const response = await fetch(`${url}/pipeline`, {
      method: 'POST',
      headers: { authorization: `Bearer ${LOCAL_KV_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`seeding failed: ${response.status} ${await response.text()}`);
  };
  await post([['FLUSHDB']]);
  const perRow = 1000;
  const rowsPerRequest = 20;
  for (let start = 0; start < keys; start += perRow * rowsPerRequest) {
    const rows: string[][] = [];
    for (let row = start; row < Math.min(keys, start + perRow * rowsPerRequest); row += perRow) {
      const mset = ['MSET'];
      for (let i = row; i < Math.min(keys, row + perRow); i += 1) {
        mset.push(`tenant:${String(i % 100).padStart(2, '0')}:${i}`, String(i));
      }
      rows.push(mset);
    }
    await post(rows);
  }
  return (performance.now() - started) / 1000;
}

/** Clicks the Keys tab and answers the time until a row of the list is painted. */
async function timeFirstScreen(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const tab = [...document.querySelectorAll<HTMLButtonElement>('[role="tab"]')].find(
      (candidate) => candidate.textContent?.trim() === 'Keys',
    );
    if (!tab) throw new Error('no Keys tab');
    const main = document.querySelector('.main') ?? document.body;
    const started = performance.now();
    tab.click();
    await new Promise<void>((resolve) => {
      const check = () => {
        if (main.querySelector('[data-testid="key-list"] [role="treeitem"]')) {
          observer.disconnect();
          resolve();
        }
      };
      const observer = new MutationObserver(check);
      observer.observe(main, { childList: true, subtree: true });
      check();
    });
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return performance.now() - started;
  });
}

async function timeBaselineRow(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const host = document.createElement('div');
    host.style.cssText = 'position:fixed;right:0;bottom:0;z-index:9999';
    const button = document.createElement('button');
    host.append(button);
    document.body.append(host);
    button.addEventListener('click', () => {
      const row = document.createElement('div');
      row.textContent = 'tenant:00:0';
      host.append(row);
    });
    const started = performance.now();
    button.click();
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const ms = performance.now() - started;
    host.remove();
    return ms;
  });
}

async function scanStatus(page: Page): Promise<{ status: string; loaded: number }> {
  return page.getByTestId('scan-status').evaluate((element) => ({
    status: element.getAttribute('data-status') ?? '',
    loaded: Number(
      (element.querySelector('[data-testid="scanned-count"]')?.textContent ?? '0').replace(/\D/g, ''),
    ),
  }));
}

async function staticListFrames(page: Page, options: KeyBrowserOptions): Promise<number[]> {
  await page.evaluate(() => {
    const list = document.querySelector<HTMLElement>('[data-testid="key-list"]')!;
    const sample = list.querySelector<HTMLElement>('.virtual-slot')!;
    const rect = list.getBoundingClientRect();
    const container = document.createElement('div');
    container.id = 'bench-static-keys';
    container.className = 'virtual-list kv-key-list';
    container.style.cssText = `position:fixed;left:${rect.left}px;top:${rect.top}px;width:${rect.width}px;height:${rect.height}px;z-index:50;contain:none`;
    const html = sample.innerHTML;
    const fragment = document.createDocumentFragment();
    for (let i = 0; i < 10_000; i += 1) {
      const slot = document.createElement('div');
      slot.style.height = '30px';
      slot.innerHTML = html;
      fragment.append(slot);
    }
    container.append(fragment);
    document.body.append(container);
  });
  const frames = await options.scrollFrames(page, '#bench-static-keys');
  await page.evaluate(() => document.getElementById('bench-static-keys')?.remove());
  return frames;
}

/** Answers the report rows: [measure, value, baseline, ratio, budget, verdict]. */
export async function benchKeyBrowser(
  page: Page,
  options: KeyBrowserOptions,
): Promise<{ rows: string[][]; notes: string[] }> {
  const url = await kvUrl(page);
  const seedSeconds = await seed(url, options.keys);

  // First screen, tree view (the default) then list view; each from the Workbench tab, a fresh walk.
  const tree: number[] = [];
  const list: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < options.runs; i += 1) {
    for (const [view, into] of [
      ['Tree', tree],
      ['List', list],
    ] as const) {
      await page.evaluate(() => (location.hash = '#/kv/workbench'));
      await page.getByLabel('Command', { exact: true }).waitFor();
      into.push(await timeFirstScreen(page));
      if (view === 'Tree') {
        await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'List' }).click();
      }
      baseline.push(await timeBaselineRow(page));
    }
  }
  // The view choice lives in the tab's state: leave the last run in tree view for what follows.

  // Load `browse` keys: the first walk stops at its cap, then "Continue scanning".
  await page.evaluate(() => (location.hash = '#/kv/workbench'));
  await page.getByLabel('Command', { exact: true }).waitFor();
  await page.evaluate(() => (location.hash = '#/kv/keys'));
  const loadStarted = performance.now();
  for (;;) {
    const state = await scanStatus(page);
    if (state.loaded >= options.browse || state.status === 'done') break;
    if (state.status === 'capped' || state.status === 'stopped') {
      await page.getByRole('button', { name: 'Continue scanning' }).click();
    }
    await page.waitForTimeout(50);
  }
  const loaded = (await scanStatus(page)).loaded;
  const loadSeconds = (performance.now() - loadStarted) / 1000;

  await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'List' }).click();
  const listFrames = await options.scrollFrames(page, '[data-testid="key-list"]');
  const listRows = Number(await page.getByTestId('key-list').getAttribute('data-rows'));

  await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Tree' }).click();
  await page.locator('[data-path="tenant:"]').click();
  // Expand every tenant folder: scroll through all loaded keys as a tree.
  await page.evaluate(async () => {
    for (;;) {
      const closed = document.querySelector<HTMLButtonElement>(
        '[data-testid="folder-row"][aria-expanded="false"]',
      );
      if (!closed) {
        const list = document.querySelector<HTMLElement>('[data-testid="key-list"]')!;
        if (list.scrollTop + list.clientHeight >= list.scrollHeight - 2) return;
        list.scrollTop += list.clientHeight;
      } else closed.click();
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    }
  });
  const treeRows = Number(await page.getByTestId('key-list').getAttribute('data-rows'));
  const treeFrames = await options.scrollFrames(page, '[data-testid="key-list"]');
  const staticFrames = await staticListFrames(page, options);

  const p95 = (values: number[]) => percentile(values, 95);
  const fps = (values: number[]) => (1000 / median(values)).toFixed(0);
  const base = median(baseline);
  const rows = [
    [
      `keys: first screen, tree view (${options.keys.toLocaleString()} keys), median of ${tree.length}`,
      `${median(tree).toFixed(1)} ms (max ${Math.max(...tree).toFixed(1)})`,
      `${base.toFixed(1)} ms (plain DOM insert)`,
      (median(tree) / base).toFixed(1),
      `< ${FIRST_SCREEN_BUDGET_MS} ms`,
      Math.max(...tree) < FIRST_SCREEN_BUDGET_MS ? 'within' : 'MISSED',
    ],
    [
      `keys: first screen, list view, median of ${list.length}`,
      `${median(list).toFixed(1)} ms (max ${Math.max(...list).toFixed(1)})`,
      `${base.toFixed(1)} ms`,
      (median(list) / base).toFixed(1),
      `< ${FIRST_SCREEN_BUDGET_MS} ms`,
      Math.max(...list) < FIRST_SCREEN_BUDGET_MS ? 'within' : 'MISSED',
    ],
    [
      `keys: list scroll p95 (${listRows.toLocaleString()} rows loaded)`,
      `${p95(listFrames).toFixed(1)} ms (${fps(listFrames)} fps median)`,
      `${p95(staticFrames).toFixed(1)} ms (static 10,000 rows, ${fps(staticFrames)} fps)`,
      (p95(listFrames) / p95(staticFrames)).toFixed(2),
      `≤ ${FRAME_BUDGET_MS.toFixed(1)} ms (60 fps)`,
      p95(listFrames) <= FRAME_BUDGET_MS + 0.5 ? 'within' : 'MISSED',
    ],
    [
      `keys: tree scroll p95 (${treeRows.toLocaleString()} rows, every folder open)`,
      `${p95(treeFrames).toFixed(1)} ms (${fps(treeFrames)} fps median)`,
      `${p95(staticFrames).toFixed(1)} ms`,
      (p95(treeFrames) / p95(staticFrames)).toFixed(2),
      `≤ ${FRAME_BUDGET_MS.toFixed(1)} ms (60 fps)`,
      p95(treeFrames) <= FRAME_BUDGET_MS + 0.5 ? 'within' : 'MISSED',
    ],
  ];
  const notes = [
    `keys: seeded ${options.keys.toLocaleString()} keys through /pipeline (MSET) in ${seedSeconds.toFixed(1)} s; ` +
      `the browser loaded ${loaded.toLocaleString()} of them (walks of 10,000, then "Continue") in ${loadSeconds.toFixed(1)} s`,
    `keys first screen, all runs (ms): tree ${tree.map((v) => v.toFixed(0)).join(', ')}; list ${list
      .map((v) => v.toFixed(0))
      .join(', ')}`,
  ];
  return { rows, notes };
}
