// Every e2e test gets its own console: the real browser host (out/main/web.cjs) with a fresh data
// folder, supervising a real local stack on free ports. Nothing is shared between tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test as base, expect, type Page, type WebSocket } from '@playwright/test';
import { Client } from '@upstash/qstash';
import { webHostArgs } from '../bench/lib/browser';
import { type LocalStack, localStack } from './support/local-stack';
import { type Sink, startSink } from './support/sink';
import { startWorkflowApp, type WorkflowApp } from './support/workflow-app';

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

export const test = base.extend<{
  consoleHost: ConsoleHost;
  frames: FrameLog;
  app: Page;
  stack: LocalStack;
  sink: Sink;
  sdk: Client;
  workflowApp: WorkflowApp;
}>({
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
  /** The console's local stack, running, with clients of its APIs (the page is left where it was). */
  stack: async ({ app }, use) => {
    await use(await localStack(app));
  },
  /** A destination for messages on 127.0.0.1: answers 200 until the test scripts it (`sink.respond`). */
  // eslint-disable-next-line no-empty-pattern
  sink: async ({}, use) => {
    const sink = await startSink();
    await use(sink);
    await sink.close();
  },
  /** The vendor's own client (@upstash/qstash) on the local stack, as an app uses it: no retries, no telemetry. */
  sdk: async ({ stack }, use) => {
    await use(
      new Client({ baseUrl: stack.api.url, token: stack.api.token, retry: false, enableTelemetry: false }),
    );
  },
  /** A serve() workflow app on the local stack (support/workflow-app.ts). */
  workflowApp: async ({ stack }, use) => {
    const workflowApp = await startWorkflowApp(stack.api.url);
    await use(workflowApp);
    await workflowApp.close();
  },
});

export { expect };
export { confirm, go, goOnceStackRuns, openWebhookIntake, runJobDialog, waitForStack } from './support/page';
