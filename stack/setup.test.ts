import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArgsError, parseArgs } from './args';
import { CredentialStore, DEV_CREDENTIALS } from './credentials';
import { DataDirBusyError, defaultDataDir, lockDataDir } from './data-dir';
import { tempDir } from './messages/test-support';
import { isLoopback, startStack, StackConfigError } from './stack';
import { openDatabase } from './store/db';
import { StackStore } from './store/stack-store';

describe('arguments', () => {
  it('has the documented defaults and reads every flag in both forms', () => {
    expect(parseArgs([])).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      kvPort: 8079,
      randomCredentials: false,
      maxBody: 1_048_576,
      backoffFactor: 2.5,
      durability: 'normal',
    });
    expect(
      parseArgs([
        '--host=::1',
        '--port',
        '0',
        '--kv-port=0',
        '--data-dir',
        '/tmp/x',
        '--redis-url',
        'redis://h:1',
        '--random-credentials',
        '--allow-host',
        'Tunnel.Example',
        '--allow-host=b.example',
        '--max-body',
        '512kb',
        '--backoff-factor',
        '2',
        '--max-concurrency',
        '8',
        '--default-timeout',
        '30s',
        '--retention',
        '1d',
        '--dlq-retention',
        '30d',
        '--durability',
        'full',
        '--llm-url',
        'http://127.0.0.1:1/v1',
        '--llm-key',
        'k',
        '--log-level',
        'warn',
      ]),
    ).toMatchObject({
      host: '::1',
      port: 0,
      kvPort: 0,
      dataDir: '/tmp/x',
      redisUrl: 'redis://h:1',
      randomCredentials: true,
      allowedHosts: ['tunnel.example', 'b.example'],
      maxBody: 524_288,
      backoffFactor: 2,
      maxConcurrency: 8,
      defaultTimeoutMs: 30_000,
      retentionMs: 86_400_000,
      dlqRetentionMs: 30 * 86_400_000,
      durability: 'full',
      llmUrl: 'http://127.0.0.1:1/v1',
      llmKey: 'k',
      logLevel: 'warn',
    });
  });

  it('takes the Redis URL and the LLM key from the environment, off the command line (a flag wins)', () => {
    const env = { SWITCHYARD_REDIS_URL: 'redis://:pw@127.0.0.1:6400', SWITCHYARD_LLM_KEY: 'sk-secret' };
    expect(parseArgs([], env)).toMatchObject({ redisUrl: env.SWITCHYARD_REDIS_URL, llmKey: 'sk-secret' });
    expect(parseArgs(['--redis-url', 'redis://127.0.0.1:6401', '--llm-key=k2'], env)).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6401',
      llmKey: 'k2',
    });
    expect(parseArgs([], { SWITCHYARD_LLM_KEY: '' }).llmKey).toBeUndefined();
  });

  it('says what is wrong with a flag', () => {
    expect(() => parseArgs(['--port', '70000'])).toThrow(
      new ArgsError("--port must be a port from 0 to 65535, got '70000'"),
    );
    expect(() => parseArgs(['--max-body', '1gb'])).toThrow(/--max-body must be a size/);
    expect(() => parseArgs(['--retention', '10x'])).toThrow(
      "--retention: unknown unit 'x' in '10x' (use s, m, h or d)",
    );
    expect(() => parseArgs(['--durability', 'maybe'])).toThrow(/normal or full/);
    expect(() => parseArgs(['--llm-url', 'localhost:1'])).toThrow(/http\(s\) URL/);
    expect(() => parseArgs(['--what'])).toThrow("unknown option '--what'");
    expect(() => parseArgs(['--allow-host', 'http://x/'])).toThrow(/--allow-host takes a host name/);
  });
});

describe('data dir', () => {
  it('defaults to the OS app-data folder', () => {
    expect(defaultDataDir('linux', {}, '/home/u')).toBe('/home/u/.local/share/switchyard/stack');
    expect(defaultDataDir('linux', { XDG_DATA_HOME: '/xdg' }, '/home/u')).toBe('/xdg/switchyard/stack');
    expect(defaultDataDir('darwin', {}, '/Users/u')).toBe(
      '/Users/u/Library/Application Support/Switchyard/stack',
    );
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u')).toContain(
      'Switchyard',
    );
  });

  it('locks, refuses a live holder, and takes over a stale lock', () => {
    const dir = tempDir();
    try {
      const release = lockDataDir(dir);
      release();
      // A lock left by a process that no longer exists is taken over.
      writeFileSync(join(dir, 'stack.lock'), '999999');
      const again = lockDataDir(dir);
      again();
      // A live process (pid 1 always exists) holds it: refused.
      writeFileSync(join(dir, 'stack.lock'), '1');
      expect(() => lockDataDir(dir)).toThrow(DataDirBusyError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('credentials and host safety', () => {
  it('uses the dev credentials by default and rotates persistently', () => {
    const dir = tempDir();
    try {
      const db = openDatabase(join(dir, 'stack.db'), 'normal');
      const store = new StackStore(db);
      const defaults = new CredentialStore(store, false);
      expect(defaults.credentials()).toEqual(DEV_CREDENTIALS);
      const random = new CredentialStore(store, true);
      expect(random.token()).not.toBe(DEV_CREDENTIALS.token);
      const rotated = random.rotate();
      expect(new CredentialStore(store, true).keys()).toEqual(rotated);
      expect(new CredentialStore(store, false).keys().current).toBe(DEV_CREDENTIALS.currentSigningKey);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('knows loopback hosts and refuses others without random credentials', async () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', 'localhost'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.2', 'example.com'].some(isLoopback)).toBe(false);
    await expect(
      startStack({ host: '0.0.0.0', port: 0, kv: false, dataDir: '/nonexistent' }),
    ).rejects.toThrow(StackConfigError);
  });
});
