// Starting and stopping the KV service: missing redis-server, --redis-url, ports, leftovers of a crash.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { build } from 'esbuild';
import type net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { KvUnavailableError, startKvService } from './index';
import { freePort } from '../test-process';
import { alive } from './redis-server';
import { RespError } from './resp';
import { eventually, silentLogger, startTestRedis, startTestService, tempDir } from './test-support';

const cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

function dataDir(): string {
  const tmp = tempDir();
  cleanup.push(() => tmp.remove());
  return tmp.dir;
}

const base = { host: '127.0.0.1', port: 0, randomCredentials: false, logger: silentLogger };

describe('startKvService', () => {
  it('returns the URL, both tokens and close(), and close() stops its redis-server', async () => {
    const kv = await startTestService();
    const pid = kv.managed!.pid!;
    const port = kv.managed!.port;
    expect(alive(pid)).toBe(true);
    expect(kv.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await kv.stop();
    expect(alive(pid)).toBe(false);
    expect(existsSync(path.join(kv.dataDir, 'kv', 'redis', 'owner.json'))).toBe(false);
    await expect(fetch(kv.url)).rejects.toThrow();
    // Nothing listens on the Redis port any more.
    const probe = await startTestRedis({ port });
    await probe.stop();

    const service = await startKvService({ ...base, dataDir: dataDir() });
    cleanup.push(() => service.close());
    expect(Object.keys(service).sort()).toEqual(['close', 'readOnlyToken', 'token', 'url']);
  });

  it('fails with the install command when redis-server is missing', async () => {
    const error = await startKvService({
      ...base,
      dataDir: dataDir(),
      redisBinary: '/nonexistent/redis-server',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KvUnavailableError);
    expect((error as Error).message).toContain('apt-get install redis-server');
    expect((error as Error).message).toContain('brew install redis');
  });

  it('fails with a clear message when --redis-url cannot be used', async () => {
    const port = await freePort();
    const down = await startKvService({
      ...base,
      dataDir: dataDir(),
      redisUrl: `redis://:secret@127.0.0.1:${port}`,
    }).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(KvUnavailableError);
    expect((down as Error).message).toMatch(
      new RegExp(`cannot use Redis at redis://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`),
    );
    expect((down as Error).message).not.toContain('secret');
    expect((down as Error).message).toContain('apt-get install redis-server');

    const redis = await startTestRedis({ password: 'right' });
    cleanup.push(() => redis.stop());
    const wrong = await startKvService({
      ...base,
      dataDir: dataDir(),
      redisUrl: `redis://:wrong@127.0.0.1:${redis.port}`,
    }).catch((e: unknown) => e);
    expect((wrong as Error).message).toMatch(/WRONGPASS/);
    const tls = await startKvService({
      ...base,
      dataDir: dataDir(),
      redisUrl: 'rediss://127.0.0.1:6380',
    }).catch((e: unknown) => e);
    expect((tls as Error).message).toMatch(/rediss:\/\/ \(TLS\) is not supported/);
  });

  it('uses an existing Redis given by URL, with its own read-only user', async () => {
    const redis = await startTestRedis({ password: 'pw' });
    cleanup.push(() => redis.stop());
    const kv = await startTestService({ redisUrl: `${redis.url}/2` });
    cleanup.push(() => kv.stop());
    expect(kv.managed).toBeUndefined();
    expect((await kv.json('/set/ext:k/v')).body).toEqual({ result: 'OK' });
    // Database 2 of the URL is used.
    expect(await kv.admin(['DBSIZE'])).toBe(1);
    const users = (await kv.admin(['ACL', 'USERS'])) as Buffer[];
    expect(users.map(String)).toContain('default_ro');
    const ro = { headers: { authorization: `Bearer ${kv.readOnlyToken}` } };
    expect(await kv.json('/get/ext:k', ro)).toEqual({ status: 200, body: { result: 'v' } });
    expect((await kv.json('/set/ext:k/w', ro)).status).toBe(400);
  });

  it('refuses to start on a corrupt credentials file instead of replacing its secrets', async () => {
    const dir = dataDir();
    mkdirSync(path.join(dir, 'kv'), { recursive: true });
    const file = path.join(dir, 'kv', 'credentials.json');
    writeFileSync(file, '{ not json');
    const error = await startKvService({ ...base, dataDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KvUnavailableError);
    expect((error as Error).message).toMatch(/credentials file .* is unreadable/);
    // Kept for the user to fix: secrets are never moved (or replaced) from a file that cannot be read.
    expect(existsSync(file)).toBe(true);
  });

  it('reports a KV port that is taken, and leaves no redis-server behind', async () => {
    const blocker = http.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = (blocker.address() as net.AddressInfo).port;
    const dir = dataDir();
    const error = await startKvService({ ...base, port, dataDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KvUnavailableError);
    expect((error as Error).message).toContain('EADDRINUSE');
    expect(existsSync(path.join(dir, 'kv', 'redis', 'owner.json'))).toBe(false);
  });
});

describe('leftovers of a stack that crashed', () => {
  async function deadPid(): Promise<number> {
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.once('exit', resolve));
    return child.pid!;
  }

  it('stops a redis-server left running on the data folder by a dead stack', async () => {
    const dir = dataDir();
    const redisDir = path.join(dir, 'kv', 'redis');
    mkdirSync(redisDir, { recursive: true });
    const orphan = await startTestRedis({ dir: redisDir });
    writeFileSync(
      path.join(redisDir, 'owner.json'),
      JSON.stringify({ stackPid: await deadPid(), redisPid: orphan.pid }),
    );
    const kv = await startTestService({ dataDir: dir });
    cleanup.push(() => kv.stop(true));
    await eventually(() => !alive(orphan.pid));
    expect(kv.managed!.pid).not.toBe(orphan.pid);
    expect((await kv.json('/ping')).body).toEqual({ result: 'PONG' });
  });

  it('refuses a data folder whose stack is still running', async () => {
    const dir = dataDir();
    const redisDir = path.join(dir, 'kv', 'redis');
    mkdirSync(redisDir, { recursive: true });
    const other = await startTestRedis({ dir: redisDir });
    const otherStack = spawn('sleep', ['60']);
    cleanup.push(async () => {
      otherStack.kill();
      await other.stop();
    });
    writeFileSync(
      path.join(redisDir, 'owner.json'),
      JSON.stringify({ stackPid: otherStack.pid, redisPid: other.pid }),
    );
    const error = await startKvService({ ...base, dataDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KvUnavailableError);
    expect((error as Error).message).toContain(`in use by another stack process (pid ${otherStack.pid})`);
    expect(alive(other.pid)).toBe(true);
  });
});

describe('a stack process that is killed outright', () => {
  it.runIf(process.platform === 'linux')('takes its redis-server with it (setpriv --pdeathsig)', async () => {
    // A real child process running the service, bundled on the fly like the stack's own bundle.
    const dir = dataDir();
    const entry = path.join(dir, 'kv-child.cjs');
    await build({
      stdin: {
        contents: `
          const pino = require('pino');
          const { createKvService } = require('./service');
          // Secrets in memory: the child opens no database (its bundle does not carry SQLite's native module).
          const secrets = new Map();
          const settings = { get: (key) => secrets.get(key), set: (key, value) => void secrets.set(key, value) };
          createKvService({ host: '127.0.0.1', port: 0, dataDir: process.argv[2], randomCredentials: false,
            settings, logger: pino({ level: 'silent' }) }).then((s) => console.log(JSON.stringify({ pid: s.managed.pid })));
          setInterval(() => {}, 1000);`,
        resolveDir: import.meta.dirname,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: entry,
      logLevel: 'silent',
    });
    const child = spawn(process.execPath, [entry, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanup.push(() => {
      child.kill('SIGKILL');
    });
    const line = await new Promise<string>((resolve) =>
      child.stdout.once('data', (d: Buffer) => resolve(d.toString())),
    );
    const redisPid = (JSON.parse(line) as { pid: number }).pid;
    expect(alive(redisPid)).toBe(true);
    child.kill('SIGKILL');
    await eventually(() => !alive(redisPid));
  });
});

describe('the admin helper', () => {
  it('returns Redis errors as values', async () => {
    const kv = await startTestService();
    cleanup.push(() => kv.stop());
    expect(await kv.admin(['NOSUCH'])).toBeInstanceOf(RespError);
  });
});
