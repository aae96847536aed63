// Every e2e test gets its own console: the real browser host (out/main/web.cjs) with a fresh data
// folder, supervising a real local stack on free ports. Nothing is shared between tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test as base, expect, type Page, type WebSocket } from '@playwright/test';
import { webHostArgs } from '../bench/lib/browser';

export interface ConsoleHost {
  /** The URL printed by the host, with the launch secret. */
  url: string;
  dataDir: string;
  /** Everything the host wrote to stderr so far (for failure messages). */
  log: string[];
}

async function startConsole(): Promise<{ host: ConsoleHost; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-e2e-'));
  const child: ChildProcess = spawn(process.execPath, webHostArgs(dataDir), {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SWITCHYARD_LOG_LEVEL: 'warn' },
  });
  const log: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => log.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`browser host did not start:\n${log.join('\n')}`)),
      20_000,
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^Switchyard ready at (\S+)$/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`browser host exited with ${code}:\n${log.join('\n')}`)));
  });
  return {
    host: { url, dataDir, log },
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 8000))]);
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** All bridge frames of a page, both directions, as raw text. */
export interface FrameLog {
  received: string[];
  sent: string[];
}

export const test = base.extend<{ consoleHost: ConsoleHost; frames: FrameLog; app: Page }>({
  // Playwright fixtures must destructure their dependencies; this one has none.
  // eslint-disable-next-line no-empty-pattern
  consoleHost: async ({}, use) => {
    const { host, stop } = await startConsole();
    await use(host);
    await stop();
  },
  frames: async ({ page }, use) => {
    const frames: FrameLog = { received: [], sent: [] };
    page.on('websocket', (socket: WebSocket) => {
      socket.on('framereceived', (frame) => frames.received.push(String(frame.payload)));
      socket.on('framesent', (frame) => frames.sent.push(String(frame.payload)));
    });
    await use(frames);
  },
  /** The page, opened at the console and past the first render. */
  app: async ({ page, consoleHost, frames }, use) => {
    void frames;
    await page.goto(consoleHost.url);
    await expect(page.getByRole('navigation', { name: 'Areas' })).toBeVisible();
    await use(page);
  },
});

export { expect };

/** Waits until the local stack reports Running in the sidebar. */
export async function waitForStack(page: Page): Promise<void> {
  await expect(page.getByTestId('stack-state')).toHaveText('Running', { timeout: 30_000 });
}

/** Moves the single-page app to `hash` (e.g. `#/messages/logs`), as a link would. */
export async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate((target) => (location.hash = target), hash);
}
