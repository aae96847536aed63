// Helpers for the stack's integration tests: an in-process stack on 127.0.0.1:0 over a temp data dir, a sink
// (test-sink.ts) that records what it receives, and waiting helpers that fail with a clear message instead of hanging.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@upstash/qstash';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ManualClock } from '../clock';
import { startStack, type Stack, type StackOptions } from '../stack';
import { type Sink, type SinkReply, startSink } from './test-sink';

export { type Received, type Sink, type SinkReply, startSink } from './test-sink';

export const WRITER_SCRIPT = join(process.cwd(), 'out', 'stack', 'cli.cjs');

export const DEV_TOKEN = 'eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=';

export function tempDir(prefix = 'switchyard-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * The vendor's client (@upstash/qstash) pointed at a stack (a TestStack, or a spawned stack's `ready.messages`).
 * Its own retries are off, so a refused call fails the test at once instead of after backoff, and so is its
 * telemetry, so nothing leaves the machine. `more` adds client options (e.g. global headers).
 */
export function sdkClient(
  target: { url: string; token: string },
  more: ConstructorParameters<typeof Client>[0] = {},
): Client {
  return new Client({
    baseUrl: target.url,
    token: target.token,
    retry: false,
    enableTelemetry: false,
    ...more,
  });
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface TestStack {
  stack: Stack;
  url: string;
  token: string;
  clock: ManualClock;
  dataDir: string;
  /** An authenticated request to the stack; `path` starts with /v2. */
  api(
    method: string,
    path: string,
    options?: { headers?: Record<string, string>; body?: string | Buffer; auth?: boolean },
  ): Promise<ApiResponse>;
  /** Closes the stack (keeps the data dir unless `remove`). */
  close(remove?: boolean): Promise<void>;
  /** Starts a new stack on the same data dir (after close). */
  restart(options?: Partial<StackOptions>): Promise<TestStack>;
}

export async function startTestStack(
  options: Partial<StackOptions> & { clock?: ManualClock } = {},
): Promise<TestStack> {
  const clock = options.clock ?? new ManualClock();
  const dataDir = options.dataDir ?? tempDir();
  // The real SQLite background threads, from the bundled CLI (built by vitest's global setup).
  const stack = await startStack({
    port: 0,
    kv: false,
    writerScript: WRITER_SCRIPT,
    // Hundreds of warm-up requests per stack would slow every test; warm-up.test.ts runs it.
    warmUp: false,
    ...options,
    clock,
    dataDir,
  });
  const url = stack.info.messages.url;
  const token = stack.info.messages.token;
  const test: TestStack = {
    stack,
    url,
    token,
    clock,
    dataDir,
    async api(method, path, { headers = {}, body, auth = true } = {}) {
      const response = await fetch(url + path, {
        method,
        headers: { ...(auth ? { authorization: `Bearer ${token}` } : {}), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : new Uint8Array(body),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    async close(remove = true) {
      await stack.close(500);
      if (remove) rmSync(dataDir, { recursive: true, force: true });
    },
    restart(more = {}) {
      return startTestStack({ ...options, ...more, clock, dataDir });
    },
  };
  return test;
}

/** A stack and a sink shared by the tests of one file. */
export interface StackAndSink {
  stack: TestStack;
  sink: Sink;
  /** How the sink answers, by request path (without the query); back to the file's default before each test. */
  behaviour: (path: string) => SinkReply;
}

/** What `useStackAndSink` starts: stack options, and how the sink answers when a test has not said otherwise. */
export interface StackAndSinkOptions {
  stack?: Parameters<typeof startTestStack>[0];
  /** The sink's answer before each test; 200 "ok" unless given. */
  behaviour?: (path: string) => SinkReply;
}

/**
 * The setup of the DLQ race tests (messages and workflows dlq-claims.test.ts): commits in the writer thread,
 * each with its fsync, so the second of two concurrent requests is read while the first one's writes are still
 * on their way to the disk, as on a busy machine; and a sink that always fails, so every message or run lands
 * in the DLQ.
 */
export const DLQ_RACE: StackAndSinkOptions = {
  stack: { durability: 'full' },
  behaviour: () => ({ status: 500, body: 'down' }),
};

/**
 * Starts a stack and a sink before a file's tests and closes both after them. Before each test the sink
 * forgets what it received and its concurrency high-water mark, and answers as `options.behaviour` says again.
 */
export function useStackAndSink(options: StackAndSinkOptions = {}): StackAndSink {
  const initial = options.behaviour ?? (() => ({}));
  // `stack` and `sink` are set before the first test runs.
  const env = { behaviour: initial } as unknown as StackAndSink;
  beforeAll(async () => {
    env.stack = await startTestStack(options.stack);
    env.sink = await startSink((request) => env.behaviour(request.url.split('?')[0] as string));
  });
  afterAll(async () => {
    await env.stack?.close();
    await env.sink?.close();
  });
  beforeEach(() => {
    env.sink.received.length = 0;
    env.sink.maxOpen = 0;
    env.behaviour = initial;
  });
  return env;
}

/** Polls `check` until it returns a truthy value; fails with `what` after `timeoutMs`. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 10_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits until the logs hold an event in `state` for `messageId` and returns it. */
export function waitForState(
  stack: TestStack,
  messageId: string,
  state: string,
  count = 1,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<any[]> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return eventually<any[] | undefined>(async () => {
    const response = await stack.api('GET', `/v2/logs?messageId=${messageId}&state=${state}&count=1000`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const events = (response.json?.events ?? []) as any[];
    return events.length >= count ? events : undefined;
  }, `${count} ${state} event(s) for ${messageId}`);
}

/** Lets the event loop run a little so that anything that would wrongly happen gets the chance to. */
export function settle(ms = 100): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
