// Starts the local stack as a child process (exactly as a user would with `npm run stack`), reads its
// ready line for URLs and credentials, keeps the last log lines, restarts it after an unexpected exit
// (a few times, then reports it failed), and stops it on shutdown. main talks to it over HTTP only.
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { SecretName } from '../../../shared/profiles';
import type { StackStatus } from '../../../shared/stack-status';
import type { LocalStackEndpoints } from '../profiles/profiles-service';
import type { StackLauncher, StackProcess } from './launcher';

export interface StackSupervisorOptions {
  /** The bundled stack entry point (out/stack/cli.cjs). */
  entry: string;
  /** Runs the entry point: a Node child process, or an Electron utility process. */
  launch: StackLauncher;
  dataDir: string;
  /** 8080 / 8079 by default, like the vendor's dev server; 0 picks free ports (tests). */
  port: number;
  kvPort: number;
  /** How long to wait for the ready line. */
  startTimeoutMs?: number;
  logLines?: number;
}

/** The ready line the stack prints (see stack/cli.ts). */
interface ReadyLine {
  ready: true;
  messages: { url: string; token: string; currentSigningKey: string; nextSigningKey: string };
  kv: { url: string; token: string; readOnlyToken: string } | { error: string };
  dataDir: string;
}

const MAX_AUTO_RESTARTS = 3;
const AUTO_RESTART_WINDOW_MS = 5 * 60_000;

export class StackSupervisor extends EventEmitter<{ change: [StackStatus] }> {
  private child: StackProcess | null = null;
  private current: StackStatus = { state: 'stopped', message: 'The local stack is not running.', log: [] };
  private ready: ReadyLine | null = null;
  private log: string[] = [];
  private readonly crashTimes: number[] = [];
  private stopping = false;
  private logChangePending = false;
  private startTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: StackSupervisorOptions) {
    super();
  }

  status(): StackStatus {
    return { ...this.current, log: [...this.log] };
  }

  /** URLs and credentials for the Local profile, while the stack is ready. */
  endpoints(): LocalStackEndpoints | null {
    const ready = this.ready;
    if (!ready || this.current.state !== 'ready') return null;
    const secrets: Partial<Record<SecretName, string>> = {
      messageToken: ready.messages.token,
      currentSigningKey: ready.messages.currentSigningKey,
      nextSigningKey: ready.messages.nextSigningKey,
    };
    let kvUrl = '';
    if ('url' in ready.kv) {
      kvUrl = ready.kv.url;
      secrets.kvToken = ready.kv.token;
      secrets.kvReadOnlyToken = ready.kv.readOnlyToken;
    }
    return { messagesUrl: ready.messages.url, kvUrl, secrets };
  }

  /** Starts the stack unless it is already starting or ready. */
  ensureStarted(): StackStatus {
    if (this.current.state === 'starting' || this.current.state === 'ready') return this.status();
    this.start();
    return this.status();
  }

  async restart(): Promise<StackStatus> {
    this.crashTimes.length = 0;
    await this.stop();
    this.start();
    return this.status();
  }

  /** Stops the process: SIGTERM, then SIGKILL after the grace period. */
  async stop(graceMs = 5000): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.stopping = true;
    const exited = new Promise<void>((resolve) => child.onExit(() => resolve()));
    child.terminate();
    const timer = setTimeout(() => child.kill(), graceMs);
    await exited;
    clearTimeout(timer);
    this.stopping = false;
  }

  /**
   * Starts the process. A restart after an exit keeps the log (`keepLog`): the lines the stack wrote as it went
   * down, and the exit, are what "see its log" is about.
   */
  private start(keepLog = false): void {
    const { entry, dataDir, port, kvPort } = this.options;
    this.ready = null;
    if (!keepLog) this.log = [];
    if (!existsSync(entry)) {
      this.update({
        state: 'unavailable',
        message: `Local stack not available: ${entry} is missing. Run "npm run build" (or reinstall the app).`,
      });
      return;
    }
    this.update({ state: 'starting', message: 'Starting the local stack…' });
    const args = ['--port', String(port), '--kv-port', String(kvPort), '--data-dir', dataDir];
    const child = this.options.launch(entry, args);
    this.child = child;
    this.current.pid = child.pid;

    createInterface({ input: child.stdout! }).on('line', (line) => this.onStdout(line));
    createInterface({ input: child.stderr! }).on('line', (line) => this.appendLog(line));
    child.onError((error) => {
      this.appendLog(`failed to start: ${error.message}`);
      this.update({ state: 'failed', message: `The local stack could not be started: ${error.message}` });
    });
    child.onExit((code, signal) => this.onExit(child, code, signal));

    this.startTimer = setTimeout(() => {
      if (this.current.state !== 'starting' || this.child !== child) return;
      this.update({
        state: 'failed',
        message: `The local stack did not report ready within ${Math.round((this.options.startTimeoutMs ?? 60_000) / 1000)} s. See its log.`,
      });
      child.kill();
    }, this.options.startTimeoutMs ?? 60_000);
  }

  private onStdout(line: string): void {
    if (line.startsWith('{"ready":true')) {
      try {
        this.ready = JSON.parse(line) as ReadyLine;
      } catch {
        this.appendLog(line);
        return;
      }
      if (this.startTimer) clearTimeout(this.startTimer);
      const kvError = 'error' in this.ready.kv ? this.ready.kv.error : undefined;
      this.update({
        state: 'ready',
        message: kvError ? 'Running; the KV service is unavailable.' : 'Running.',
        messagesUrl: this.ready.messages.url,
        kvUrl: 'url' in this.ready.kv ? this.ready.kv.url : undefined,
        kvError,
        dataDir: this.ready.dataDir,
        startedAt: Date.now(),
      });
      return;
    }
    this.appendLog(line);
  }

  private onExit(child: StackProcess, code: number | null, signal: string | null): void {
    if (this.child !== child) return;
    this.child = null;
    if (this.startTimer) clearTimeout(this.startTimer);
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (this.stopping) {
      this.update({ state: 'stopped', message: 'The local stack was stopped.' });
      return;
    }
    if (this.current.state === 'failed') return;
    const wasReady = this.current.state === 'ready';
    const now = Date.now();
    while (this.crashTimes.length && now - this.crashTimes[0]! > AUTO_RESTART_WINDOW_MS)
      this.crashTimes.shift();
    if (wasReady && this.crashTimes.length < MAX_AUTO_RESTARTS) {
      this.crashTimes.push(now);
      this.appendLog(`exited unexpectedly (${how}); restarting`);
      this.update({ state: 'starting', message: `The local stack exited (${how}); restarting…` });
      setTimeout(() => {
        if (!this.child && this.current.state === 'starting') this.start(true);
      }, 1000);
      return;
    }
    this.appendLog(`exited (${how})`);
    this.update({
      state: 'failed',
      message: wasReady
        ? `The local stack exited (${how}) ${MAX_AUTO_RESTARTS} times in a row. See its log, then restart it.`
        : `The local stack exited before it was ready (${how}). ${diagnose(this.log) ?? 'See its log.'}`,
    });
  }

  private appendLog(line: string): void {
    this.log.push(line);
    const max = this.options.logLines ?? 200;
    if (this.log.length > max) this.log.splice(0, this.log.length - max);
    // A burst of log lines (a failing destination, say) becomes one status per event-loop turn rather
    // than one full copy of the log per line for every watcher.
    if (this.logChangePending) return;
    this.logChangePending = true;
    setImmediate(() => {
      this.logChangePending = false;
      this.emit('change', this.status());
    });
  }

  private update(next: Omit<StackStatus, 'log'>): void {
    const pid =
      next.state === 'starting' || next.state === 'ready' ? (next.pid ?? this.child?.pid) : undefined;
    this.current = { ...next, pid, log: [] };
    if (next.state !== 'ready') this.ready = null;
    this.emit('change', this.status());
  }
}

/** Turns the commonest start-up failures into an instruction; null when the log says nothing we know. */
export function diagnose(log: readonly string[]): string | null {
  const text = log.join('\n');
  const inUse = /EADDRINUSE[^\n]*?(?:127\.0\.0\.1|::|0\.0\.0\.0|localhost)?:(\d+)/.exec(text);
  if (inUse) {
    return `Port ${inUse[1]} is already in use — probably another local stack (npm run stack) or the vendor's dev server. Stop it and restart, or use the stack already running through a profile that points at it.`;
  }
  if (/EACCES/.test(text))
    return 'Permission denied while starting (a privileged port or an unwritable data folder?). See its log.';
  return null;
}
