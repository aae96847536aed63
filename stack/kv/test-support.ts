// Helpers for the KV tests: real redis-server processes on free ports in temp dirs, and KV services on
// 127.0.0.1 port 0. Not a test file itself.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';

import type { KvServiceOptions } from './service';
import { freePort } from '../test-process';
import type { KvServiceInternals } from './service';
import { createKvService } from './service';

/** Fails loudly (with the install command) when redis-server is not installed. */
export function requireRedisServer(): void {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'redis-server is required by the KV tests and was not found on PATH. Install it: ' +
        'Debian/Ubuntu `apt-get install redis-server`, macOS `brew install redis`.',
    );
  }
}

export function tempDir(prefix = 'kv-test-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export const silentLogger = pino({ level: 'silent' });

export interface TestRedis {
  port: number;
  dir: string;
  pid: number;
  url: string;
  /** SIGKILL, no cleanup (the dir stays for a restart). */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts redis-server (optionally with a password) and waits for "Ready to accept connections". */
export async function startTestRedis(
  options: {
    port?: number;
    dir?: string;
    password?: string;
    appendonly?: boolean;
    /** More redis-server arguments (e.g. `--key-load-delay` for a server that stays LOADING). */
    args?: string[];
    /** The log line that means started; default "Ready to accept connections". */
    readyLine?: string;
  } = {},
): Promise<TestRedis> {
  requireRedisServer();
  const port = options.port ?? (await freePort());
  const tmp = options.dir ? undefined : tempDir('kv-redis-');
  const dir = options.dir ?? tmp!.dir;
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
  args.push('--appendonly', options.appendonly ? 'yes' : 'no');
  if (options.password) args.push('--requirepass', options.password);
  args.push(...(options.args ?? []));
  const readyLine = options.readyLine ?? 'Ready to accept connections';
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes(readyLine)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const auth = options.password ? `:${options.password}@` : '';
  return {
    port,
    dir,
    pid: child.pid!,
    url: `redis://${auth}127.0.0.1:${port}`,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      tmp?.remove();
    },
  };
}

export interface TestService extends KvServiceInternals {
  dataDir: string;
  /** fetch against the service with the standard token (unless headers say otherwise). */
  call(pathAndQuery: string, init?: RequestInit): Promise<Response>;
  /** The JSON body and status of a call. */
  json(pathAndQuery: string, init?: RequestInit): Promise<{ status: number; body: unknown }>;
  /** Closes the service and removes its data dir (unless `keepData`). */
  stop(keepData?: boolean): Promise<void>;
}

export async function startTestService(
  overrides: Partial<KvServiceOptions> & { dataDir?: string } = {},
): Promise<TestService> {
  requireRedisServer();
  const tmp = overrides.dataDir ? undefined : tempDir();
  const dataDir = overrides.dataDir ?? tmp!.dir;
  const service = await createKvService({
    host: '127.0.0.1',
    port: 0,
    randomCredentials: false,
    logger: silentLogger,
    ...overrides,
    dataDir,
  });
  const call = (pathAndQuery: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${service.token}`);
    return fetch(service.url + pathAndQuery, { ...init, headers });
  };
  return Object.assign(service, {
    dataDir,
    call,
    async json(pathAndQuery: string, init?: RequestInit) {
      const res = await call(pathAndQuery, init);
      return { status: res.status, body: JSON.parse(await res.text()) as unknown };
    },
    async stop(keepData = false) {
      await service.close();
      if (!keepData) tmp?.remove();
    },
  });
}

/** A file's one KV service: started before its first test, stopped after its last. Read as `env.kv`. */
export function useTestService(overrides: Parameters<typeof startTestService>[0] = {}): { kv: TestService } {
  // `kv` is set before the first test runs.
  const env = {} as { kv: TestService };
  beforeAll(async () => {
    env.kv = await startTestService(overrides);
  });
  afterAll(async () => {
    await env.kv?.stop();
  });
  return env;
}

/** The REST answer to one command (`POST /`), or one entry of a pipeline's: `{result}` or `{error}`. */
export type CommandReply = { result?: unknown; error?: string };

/** One command as `POST /` (the SDK's form) with `token`, answered `{result}` or `{error}` (any status). */
export async function commandAs(
  kv: TestService,
  token: string,
  ...args: (string | number)[]
): Promise<CommandReply> {
  const res = await kv.call('/', {
    method: 'POST',
    body: JSON.stringify(args),
    headers: { authorization: `Bearer ${token}` },
  });
  return (await res.json()) as CommandReply;
}

/** Polls until `check` returns true (no timing assertions: the test timeout is the only limit). */
export async function eventually(check: () => Promise<boolean> | boolean, intervalMs = 20): Promise<void> {
  for (;;) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * The MONITOR lines (timestamp cut off) that mention `marker`, of what `act` runs: a /monitor stream is opened
 * first and read until `end` (a quoted key `act` touches last) shows.
 */
export async function monitorLinesOf(
  kv: TestService,
  marker: string,
  end: string,
  act: () => Promise<unknown>,
): Promise<string[]> {
  const res = await kv.call('/monitor', { method: 'POST' });
  const reader = res.body!.getReader();
  let text = '';
  await act();
  while (!text.includes(`"${end}"`)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += Buffer.from(value).toString();
  }
  await reader.cancel();
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l.includes(marker))
    .map((l) => l.replace(/^data: \d+\.\d+ /, ''));
}

/**
 * The two ways `@upstash/redis` talks to the service that change what crosses the wire: its defaults (commands
 * auto-pipelined, replies base64-encoded) and neither. Options to spread into `new Redis({...})`.
 */
export const SDK_WIRE_MODES = [
  ['auto-pipelining, base64', {}],
  ['no auto-pipelining, no base64', { enableAutoPipelining: false, responseEncoding: false as const }],
] as const;
