// The redis-server the stack runs for itself: loopback only, a free port, its own folder under the data
// dir, AOF (everysec), a random password for `default`, and users (incl. the read-only one) in an ACL file.
// It is restarted when it dies and stopped (SIGTERM, so the AOF is flushed) when the stack shuts down.
import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';

import { KvUnavailableError, REDIS_INSTALL_HINT } from './errors';
import { READ_ONLY_USER } from './policy';

export interface ManagedRedisOptions {
  dir: string;
  password: string;
  readOnlyPassword: string;
  logger: Logger;
  /** Defaults to `redis-server` from PATH. */
  binary?: string;
}

/**
 * Read commands that list key names. The read-only token may be public (the hosted service says so), so it
 * may read a key it knows but never learn the names of others: KEYS is `@dangerous`, SCAN and RANDOMKEY
 * (one random name per call; a pipeline of them lists a whole database) are taken away explicitly.
 */
export const KEY_ENUMERATING_READS = ['keys', 'scan', 'randomkey'];

/**
 * ACL rule of the read-only token's user: Redis refuses every write and the key-enumerating reads itself.
 * EVALSHA_RO runs the JSON reads (json/commands.ts): a read-only script, whose every command is checked
 * against these rules too.
 */
export const READ_ONLY_RULES = [
  '+@read',
  '-@dangerous',
  '-scan',
  '-randomkey',
  '+ping',
  '+echo',
  '+evalsha_ro',
  '+time',
];

const READY = 'Ready to accept connections';
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 10_000;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function aclLine(user: string, password: string, rules: string[]): string {
  return `user ${user} on #${sha256(password)} ~* &* ${rules.join(' ')}`;
}

/** A free loopback port (the tiny race until redis-server binds it is handled by retrying). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function isRedisProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('redis-server');
  } catch {
    // No /proc (macOS): trust the pid file, it was written by us.
    return alive(pid);
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

function findExecutable(binary: string): boolean {
  const candidates = binary.includes('/')
    ? [binary]
    : (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, binary));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

let pdeathsig: boolean | undefined;

/**
 * If the stack is killed outright (SIGKILL, or a signal it does not handle) it cannot stop its
 * redis-server. On Linux, util-linux `setpriv --pdeathsig` makes the kernel send SIGTERM to redis-server
 * when the stack dies; elsewhere the leftover is stopped on the next start (see reclaimDir).
 */
function launcher(binary: string, args: string[]): [string, string[]] {
  if (process.platform === 'win32') return [binary, args];
  let command = [binary, ...args];
  if (process.platform === 'linux') {
    pdeathsig ??= /--pdeathsig/.test(spawnSync('setpriv', ['--help'], { encoding: 'utf8' }).stdout ?? '');
    if (pdeathsig) command = ['setpriv', '--pdeathsig', 'SIGTERM', '--', ...command];
  }
  // redis-server creates its AOF files, and rewrites users.acl on every ACL SAVE, with the umask it inherits
  // (0644 and 0755 under the usual 022). They hold the KV data and the hashes of the users' passwords, so it
  // runs under umask 077 whatever the user's is. `exec` keeps the process id (and setpriv's pdeathsig).
  return ['/bin/sh', ['-c', 'umask 077 && exec "$@"', 'redis-server', ...command]];
}

/**
 * Our files in the KV folder, for the user alone: stacks before the umask above left redis-server's own at
 * 0644 / 0755, and writeFileSync's mode applies only to a file it creates.
 */
function tightenFiles(dir: string): void {
  chmodSync(dir, 0o700);
  for (const name of ['users.acl', 'owner.json', 'redis.conf', 'dump.rdb']) {
    const file = path.join(dir, name);
    if (existsSync(file)) chmodSync(file, 0o600);
  }
  const aof = path.join(dir, 'appendonlydir');
  if (!existsSync(aof)) return;
  chmodSync(aof, 0o700);
  for (const name of readdirSync(aof)) chmodSync(path.join(aof, name), 0o600);
}

export class ManagedRedis {
  private child: ChildProcess | undefined;
  private stopping = false;
  private restartDelay = 250;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly exitHook = (): void => {
    this.child?.kill('SIGTERM');
  };
  /** Called after every successful (re)start, e.g. to log the new port. */
  onRestart: (() => void) | undefined;

  private constructor(
    private readonly options: ManagedRedisOptions,
    public port: number,
  ) {}

  get host(): string {
    return '127.0.0.1';
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  private get pidFile(): string {
    return path.join(this.options.dir, 'owner.json');
  }

  private get aclFile(): string {
    return path.join(this.options.dir, 'users.acl');
  }

  static async start(options: ManagedRedisOptions): Promise<ManagedRedis> {
    const binary = options.binary ?? 'redis-server';
    if (!findExecutable(binary)) {
      throw new KvUnavailableError(
        `redis-server was not found (looked for ${binary} on PATH); ${REDIS_INSTALL_HINT}`,
      );
    }
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    tightenFiles(options.dir);
    const redis = new ManagedRedis(options, await freePort());
    await redis.reclaimDir();
    await redis.launch(true);
    process.on('exit', redis.exitHook);
    return redis;
  }

  /**
   * A stack that crashed can leave its redis-server running on our folder. Stop it (two servers on one
   * AOF would corrupt it), unless the stack that started it is still alive — then the dir is in use.
   */
  private async reclaimDir(): Promise<void> {
    if (!existsSync(this.pidFile)) return;
    let owner: { stackPid?: number; redisPid?: number } = {};
    try {
      owner = JSON.parse(readFileSync(this.pidFile, 'utf8')) as typeof owner;
    } catch {
      // unreadable: treat as stale
    }
    if (
      owner.stackPid &&
      owner.stackPid !== process.pid &&
      alive(owner.stackPid) &&
      owner.redisPid &&
      alive(owner.redisPid)
    ) {
      throw new KvUnavailableError(
        `the KV data folder ${this.options.dir} is in use by another stack process (pid ${owner.stackPid})`,
      );
    }
    if (owner.redisPid && isRedisProcess(owner.redisPid)) {
      this.options.logger.warn(
        { pid: owner.redisPid },
        'kv: stopping a redis-server left over by a previous stack',
      );
      process.kill(owner.redisPid, 'SIGTERM');
      if (!(await waitForExit(owner.redisPid, STOP_TIMEOUT_MS))) process.kill(owner.redisPid, 'SIGKILL');
    }
    rmSync(this.pidFile, { force: true });
  }

  /** Rewrites our two users in the ACL file; users created through the API (ACL SAVE) are kept. */
  private writeConfig(): string {
    const { dir, password, readOnlyPassword } = this.options;
    const others = existsSync(this.aclFile)
      ? readFileSync(this.aclFile, 'utf8')
          .split('\n')
          .filter((line) => line.trim() !== '' && !/^user (default|default_ro) /.test(line))
      : [];
    const acl = [
      aclLine('default', password, ['+@all']),
      aclLine(READ_ONLY_USER, readOnlyPassword, READ_ONLY_RULES),
      ...others,
    ];
    writeFileSync(this.aclFile, acl.join('\n') + '\n', { mode: 0o600 });
    const conf = [
      'bind 127.0.0.1',
      `port ${this.port}`,
      'protected-mode yes',
      'daemonize no',
      `dir "${dir}"`,
      'appendonly yes',
      'appendfsync everysec',
      'save ""',
      `aclfile "${this.aclFile}"`,
      'logfile ""',
    ];
    const confFile = path.join(dir, 'redis.conf');
    writeFileSync(confFile, conf.join('\n') + '\n', { mode: 0o600 });
    return confFile;
  }

  private async launch(first: boolean): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.spawnOnce();
        return;
      } catch (error) {
        const portTaken = /Address already in use|bind:/i.test((error as Error).message);
        if (!portTaken || attempt >= 3) {
          if (first && !(error instanceof KvUnavailableError)) {
            throw new KvUnavailableError(`redis-server did not start: ${(error as Error).message}`);
          }
          throw error;
        }
        this.port = await freePort();
      }
    }
  }

  private spawnOnce(): Promise<void> {
    const confFile = this.writeConfig();
    const binary = this.options.binary ?? 'redis-server';
    return new Promise<void>((resolve, reject) => {
      const [command, args] = launcher(binary, [confFile]);
      const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      let ready = false;
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`no "${READY}" within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      const onData = (chunk: Buffer): void => {
        if (ready) return; // keep draining the pipe, or redis-server would block on a full one
        output += chunk.toString('utf8');
        if (output.includes(READY)) {
          ready = true;
          clearTimeout(timer);
          this.child = child;
          writeFileSync(this.pidFile, JSON.stringify({ stackPid: process.pid, redisPid: child.pid }), {
            mode: 0o600,
          });
          child.on('exit', (code, signal) => this.onExit(child, code, signal));
          resolve();
        } else if (output.length > 64_000) {
          output = output.slice(-32_000);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(
          error.code === 'ENOENT'
            ? new KvUnavailableError(`redis-server was not found on PATH; ${REDIS_INSTALL_HINT}`)
            : error,
        );
      });
      child.once('exit', (code, signal) => {
        if (ready) return;
        clearTimeout(timer);
        const lastLines = output.trim().split('\n').slice(-3).join(' | ');
        reject(new Error(`redis-server exited (${signal ?? code}) before it was ready: ${lastLines}`));
      });
    });
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = undefined;
    if (this.stopping) return;
    this.options.logger.warn(
      { code, signal },
      `kv: redis-server exited; restarting in ${this.restartDelay} ms`,
    );
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stopping) return;
      const startedAt = Date.now();
      this.launch(false).then(
        () => {
          this.options.logger.info({ port: this.port }, 'kv: redis-server restarted');
          this.restartDelay = 250;
          this.onRestart?.();
        },
        (error: Error) => {
          this.restartDelay = Math.min(this.restartDelay * 2, 5000);
          this.options.logger.error(
            { err: error.message, after: Date.now() - startedAt },
            `kv: redis-server restart failed; retrying in ${this.restartDelay} ms`,
          );
          this.scheduleRestart();
        },
      );
    }, this.restartDelay);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    process.off('exit', this.exitHook);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    this.child = undefined;
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.pidFile, { force: true });
  }
}
