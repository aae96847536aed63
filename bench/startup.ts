// `npm run bench -- startup [--runs N]`: how fast the browser host gets a user to a working console.
//
// Measured: from spawning the host process to the first interactive screen in Chromium (sidebar
// rendered and the bridge answered: the profile switcher shows the active profile). The browser is
// already running, as a user's would be. Baseline, in the same run: a bare Node HTTP server serving a
// one-line page, measured the same way (process start → text visible) — the floor on this machine.
// Also: the gzip size of the JavaScript the first screen loads (entry + its preloaded chunks).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from '@playwright/test';
import { launchChromium, webHostArgs } from './lib/browser';
import { median, printTable } from './lib/report';

const BUDGET_MS = 1500;
const BUDGET_GZIP_KB = 300;

const BASELINE_SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => res.end('<!doctype html><p id="hello">hello</p>'));
server.listen(0, '127.0.0.1', () => console.log('Switchyard ready at http://127.0.0.1:' + server.address().port + '/'));
`;

async function timeToScreen(
  browser: Browser,
  args: string[],
  waitForScreen: (page: Page) => Promise<unknown>,
): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const match = /^Switchyard ready at (\S+)$/.exec(line);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    const page = await browser.newPage();
    await page.goto(url);
    await waitForScreen(page);
    const elapsed = performance.now() - started;
    await page.close();
    return elapsed;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

function initialJavaScriptGzip(): { files: string[]; bytes: number } {
  const html = readFileSync('out/renderer/index.html', 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
  const bytes = files.reduce(
    (sum, file) => sum + gzipSync(readFileSync(join('out/renderer', file))).length,
    0,
  );
  return { files, bytes };
}

export async function run(args: string[]): Promise<void> {
  const runsFlag = args.indexOf('--runs');
  const runs = runsFlag >= 0 ? Number(args[runsFlag + 1]) : 7;
  const browser = await launchChromium();
  const host: number[] = [];
  const baseline: number[] = [];
  try {
    for (let i = 0; i < runs; i += 1) {
      baseline.push(
        await timeToScreen(browser, ['-e', BASELINE_SERVER], (page) => page.locator('#hello').waitFor()),
      );
      const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
      try {
        host.push(
          await timeToScreen(
            browser,
            // The local stack starts in the background; the first screen does not wait for it.
            webHostArgs(dataDir),
            (page) => page.getByRole('button', { name: /Active profile: Local/ }).waitFor(),
          ),
        );
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
  }
  const js = initialJavaScriptGzip();
  const hostMedian = median(host);
  const baselineMedian = median(baseline);
  console.log(
    `startup benchmark: ${runs} runs each, medians (machine: ${process.platform}, node ${process.version})\n`,
  );
  printTable(
    ['measure', 'value', 'baseline', 'ratio', 'budget', 'verdict'],
    [
      [
        'process start → interactive console',
        `${hostMedian.toFixed(0)} ms`,
        `${baselineMedian.toFixed(0)} ms (bare page)`,
        (hostMedian / baselineMedian).toFixed(2),
        `< ${BUDGET_MS} ms`,
        hostMedian < BUDGET_MS ? 'within' : 'MISSED',
      ],
      [
        'initial renderer JavaScript (gzip)',
        `${(js.bytes / 1024).toFixed(1)} KB`,
        `${js.files.length} files`,
        '',
        `≤ ${BUDGET_GZIP_KB} KB`,
        js.bytes / 1024 <= BUDGET_GZIP_KB ? 'within' : 'MISSED',
      ],
    ],
  );
  console.log(
    `\nall runs (ms): console ${host.map((v) => v.toFixed(0)).join(', ')}; bare page ${baseline.map((v) => v.toFixed(0)).join(', ')}`,
  );
}
