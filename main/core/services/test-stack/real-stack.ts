// Test helpers for the message-service handlers: the real local stack as a child process (out/stack/cli.cjs,
// built by vitest's global setup; messages only — KV is pointed at a closed port), a transparent proxy in
// front of it that records every request main sends, and a local HTTP destination with scripted answers.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@upstash/qstash';
import { afterAll, beforeAll } from 'vitest';
import type { ResolvedProfile } from '../../profiles/profiles-service';

const CLI = join(process.cwd(), 'out', 'stack', 'cli.cjs');
export const DEV_TOKEN = 'eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=';

export interface RealStack {
  url: string;
  token: string;
  /** Set when started with `{ kv: true }`: the KV REST service over a redis-server the stack started. */
  kv?: { url: string; token: string; readOnlyToken: string };
  stop(): Promise<void>;
}

export async function startRealStack(
  extraArgs: string[] = [],
  options: { kv?: boolean } = {},
): Promise<RealStack> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build-node.mjs`);
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-svc-test-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      CLI,
      '--port',
      '0',
      '--kv-port',
      '0',
      // Without --redis-url the stack starts its own redis-server; message-only tests skip that cost.
      ...(options.kv ? [] : ['--redis-url', 'redis://127.0.0.1:1']),
      '--data-dir',
      dataDir,
      '--durability',
      'normal',
      '--log-level',
      'error',
      ...extraArgs,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  type Ready = { messages: { url: string; token: string }; kv: RealStack['kv'] | { error: string } };
  const ready = await new Promise<Ready>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`stack not ready in time:\n${stderr}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve(JSON.parse(buffer.slice(0, newline)) as Ready);
      }
    });
    child.once('exit', (code) => reject(new Error(`stack exited with ${code}:\n${stderr}`)));
  });
  if (options.kv && (!ready.kv || 'error' in ready.kv)) {
    throw new Error(
      `the stack started without KV: ${ready.kv && 'error' in ready.kv ? ready.kv.error : '?'}`,
    );
  }
  return {
    url: ready.messages.url,
    token: ready.messages.token,
    kv: ready.kv && !('error' in ready.kv) ? ready.kv : undefined,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback HTTP server that records every request (with its body) before `answer` responds to it. */
async function startRecordingServer(
  answer: (entry: RecordedRequest, body: Buffer, received: RecordedRequest[], res: ServerResponse) => void,
): Promise<{ url: string; received: RecordedRequest[]; close(): Promise<void> }> {
  const received: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const entry = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: body.toString('utf8'),
      };
      received.push(entry);
      answer(entry, body, received, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What the proxy does to a request after the stack acted on it (the stack's answer is lost): answer 503
 * instead, or reset the connection — a gateway failing, a connection cut after the service acted.
 */
export type ProxyFault = 'answer-503' | 'reset';

export interface RecordingProxy {
  url: string;
  requests: RecordedRequest[];
  /** Set to make the proxy lose the stack's answer to the requests it picks (`undefined`: forward it). */
  fault?: (request: RecordedRequest) => ProxyFault | undefined;
  close(): Promise<void>;
}

/** Forwards everything to `target` unchanged and records it (unless `fault` says otherwise). */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const proxy: RecordingProxy = {
    url: '',
    requests: [],
    close: () => Promise.resolve(),
  };
  const { url, received, close } = await startRecordingServer((entry, body, _received, res) => {
    const fault = proxy.fault?.(entry);
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: entry.method,
        path: entry.url,
        headers: { ...entry.headers, host: upstream.host },
      },
      (answer) => {
        if (fault) {
          answer.resume();
          answer.on('end', () => {
            if (fault === 'reset') res.socket?.resetAndDestroy();
            else res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"gateway failed"}');
          });
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', (error) => res.writeHead(502).end(String(error)));
    forward.end(body);
  });
  return Object.assign(proxy, { url, requests: received, close });
}

/** A real stack and a recording proxy in front of it, shared by the tests of one file or describe block. */
export interface StackBehindProxy {
  stack: RealStack;
  proxy: RecordingProxy;
  /** The handlers' `profiles`: every profile id is a profile of the stack, reached through the proxy. */
  profiles: StackProfiles;
}

/** What handlers take as `profiles`. */
export interface StackProfiles {
  resolve(id: string): ResolvedProfile;
}

/** Starts a stack and its proxy before the tests of the enclosing scope and stops both after them. */
export function useStackBehindProxy(): StackBehindProxy {
  // Both are set before the first test runs.
  const env = {} as StackBehindProxy;
  env.profiles = { resolve: (id) => profileFor(env.proxy.url, env.stack.token, id) };
  beforeAll(async () => {
    env.stack = await startRealStack();
    env.proxy = await startRecordingProxy(env.stack.url);
  });
  afterAll(async () => {
    await env.proxy.close();
    await env.stack.stop();
  });
  return env;
}

/**
 * `@upstash/qstash` straight to the stack, as an app uses it: without its own retries (a refused call fails
 * the test at once) and without telemetry (nothing leaves the machine).
 */
export function sdkFor(stack: RealStack): Client {
  return new Client({ baseUrl: stack.url, token: stack.token, retry: false, enableTelemetry: false });
}

/** A real stack, a destination for its messages and an SDK client of it, shared by the tests of one scope. */
export interface StackWithDestination {
  stack: RealStack;
  sink: Destination;
  /** `@upstash/qstash` against the stack, without retries. */
  sdk: Client;
  /** The handlers' `profiles`: every profile id is a profile of the stack. */
  profiles: StackProfiles;
}

/** Starts a stack and a destination before the tests of the enclosing scope and stops both after them. */
export function useStackWithDestination(): StackWithDestination {
  // All three are set before the first test runs.
  const env = {} as StackWithDestination;
  env.profiles = { resolve: (id) => profileFor(env.stack.url, env.stack.token, id) };
  beforeAll(async () => {
    env.stack = await startRealStack();
    env.sink = await startDestination();
    env.sdk = sdkFor(env.stack);
  });
  afterAll(async () => {
    await env.sink.close();
    await env.stack.stop();
  });
  return env;
}

export type Destination = Awaited<ReturnType<typeof startDestination>>;

/** A destination that answers `status(path, count)` and records what arrives. */
export function startDestination(
  status: (path: string, count: number) => number = () => 200,
): Promise<{ url: string; received: RecordedRequest[]; close(): Promise<void> }> {
  return startRecordingServer((entry, _body, received, res) => {
    const count = received.filter((r) => r.url === entry.url).length;
    res.writeHead(status(entry.url, count), { 'content-type': 'text/plain' }).end('destination says no');
  });
}

/** A profile pointing at `url` with `token`, as main's handlers resolve it. */
export function profileFor(url: string, token: string, id = 'test'): ResolvedProfile {
  return {
    id,
    settings: {
      name: 'Test',
      env: 'dev',
      messagesUrl: url,
      kvUrl: '',
      readOnly: false,
      confirmDangerous: true,
    },
    secret: (name) => (name === 'messageToken' ? token : undefined),
  };
}

/** Polls `check` until it returns a value (not undefined) or the time is up. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One item of `POST /v2/batch`: its destination, headers (`Upstash-*` and forwarded) and body. */
export interface BatchItem {
  destination: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The batch item that starts run `runId` of the workflow at `url` the way the SDK's trigger does (the
 * workflow init headers); `headers` add to them (labels, retries, a delay).
 */
export function workflowStart(
  runId: string,
  url: string,
  headers: Record<string, string> = {},
  body = '{}',
): BatchItem {
  return {
    destination: url,
    headers: {
      'Content-Type': 'application/json',
      'Upstash-Workflow-Init': 'true',
      'Upstash-Workflow-RunId': runId,
      'Upstash-Workflow-Url': url,
      'Upstash-Workflow-Sdk-Version': '1',
      ...headers,
    },
    body,
  };
}

/**
 * Sends `items` in one `POST /v2/batch` straight to the stack (past the proxy, which records only what main
 * sends); throws unless the stack accepts them. Resolves with the message ids, in order.
 */
export async function publishBatch(stack: RealStack, items: BatchItem[]): Promise<string[]> {
  const response = await fetch(`${stack.url}/v2/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(items),
  });
  if (!response.ok) throw new Error(`batch failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { messageId: string }[]).map((item) => item.messageId);
}

/**
 * Publishes `count` messages that fail once and go straight to the DLQ (no retries); waits until they are
 * there. It counts only entries for `destination`: other tests of the file may have left entries of their
 * own in the shared stack's DLQ, and counting those returned before this batch had all arrived.
 */
export async function fillDlq(
  stack: RealStack,
  destination: string,
  count: number,
  extraHeaders: Record<string, string> = {},
): Promise<void> {
  const auth = { authorization: `Bearer ${stack.token}` };
  const entriesFor = async (): Promise<number> => {
    let found = 0;
    let cursor: string | undefined;
    do {
      const response = await fetch(`${stack.url}/v2/dlq?count=100${cursor ? `&cursor=${cursor}` : ''}`, {
        headers: auth,
      });
      const page = (await response.json()) as { messages: { url: string }[]; cursor?: string };
      found += page.messages.filter((entry) => entry.url === destination).length;
      cursor = page.cursor;
    } while (cursor);
    return found;
  };
  const already = await entriesFor();
  for (let start = 0; start < count; start += 100) {
    const items = Array.from({ length: Math.min(100, count - start) }, (_, index) => ({
      destination,
      headers: { 'Upstash-Retries': '0', ...extraHeaders },
      body: `item ${start + index}`,
    }));
    await publishBatch(stack, items);
  }
  await eventually(async () => ((await entriesFor()) >= already + count ? true : undefined), 30_000);
}
