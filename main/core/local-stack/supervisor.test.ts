import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StackStatus } from '../../../shared/stack-status';
import { nodeLauncher } from './launcher';
import { StackSupervisor } from './supervisor';

const script = join(import.meta.dirname, '..', 'testing', 'scripted-stack.cjs');
const supervisors: StackSupervisor[] = [];

function supervise(mode: string, extraEnv: Record<string, string> = {}, entry = script) {
  const supervisor = new StackSupervisor({
    entry,
    launch: nodeLauncher(process.execPath, { SCRIPTED_STACK_MODE: mode, ...extraEnv }),
    dataDir: '/tmp/switchyard-scripted',
    port: 0,
    kvPort: 0,
    startTimeoutMs: 1500,
  });
  supervisors.push(supervisor);
  return supervisor;
}

function waitFor(supervisor: StackSupervisor, predicate: (status: StackStatus) => boolean, what: string) {
  return new Promise<StackStatus>((resolve, reject) => {
    if (predicate(supervisor.status())) return resolve(supervisor.status());
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${what}: ${JSON.stringify(supervisor.status())}`)),
      10_000,
    );
    supervisor.on('change', (status) => {
      if (predicate(status)) {
        clearTimeout(timer);
        resolve(status);
      }
    });
  });
}

afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((s) => s.stop()));
});

describe('local stack supervisor', () => {
  it('reads URLs and credentials from the ready line and passes ports and data dir', async () => {
    const supervisor = supervise('ready');
    supervisor.ensureStarted();
    const status = await waitFor(supervisor, (s) => s.state === 'ready', 'ready');
    expect(status).toMatchObject({ messagesUrl: 'http://127.0.0.1:18080', kvUrl: 'http://127.0.0.1:18079' });
    expect(status.pid).toBeGreaterThan(0);
    expect(status.log.join('\n')).toContain(
      '--port 0 --kv-port 0 --data-dir /tmp/switchyard-scripted --exit-with-stdin',
    );
    expect(supervisor.endpoints()).toEqual({
      messagesUrl: 'http://127.0.0.1:18080',
      kvUrl: 'http://127.0.0.1:18079',
      secrets: {
        messageToken: 'tok-msg-123456789',
        currentSigningKey: 'sig_current_abcdef',
        nextSigningKey: 'sig_next_abcdef',
        kvToken: 'tok-kv-123456789',
        kvReadOnlyToken: 'tok-kvro-123456789',
      },
    });
    // The ready line (with tokens) is consumed, never shown in the log.
    expect(status.log.join('\n')).not.toContain('tok-msg');
  });

  it('reports a KV error while the message services run', async () => {
    const supervisor = supervise('ready', {
      SCRIPTED_STACK_KV_ERROR: 'redis-server not found: apt-get install redis-server',
    });
    supervisor.ensureStarted();
    const status = await waitFor(supervisor, (s) => s.state === 'ready', 'ready');
    expect(status.kvError).toMatch(/apt-get install redis-server/);
    expect(supervisor.endpoints()?.kvUrl).toBe('');
  });

  it('reports failure with the log when the stack exits before it is ready', async () => {
    const supervisor = supervise('fail');
    supervisor.ensureStarted();
    const status = await waitFor(supervisor, (s) => s.state === 'failed', 'failed');
    expect(status.message).toMatch(/exited before it was ready \(code 3\)/);
    expect(status.message).toMatch(/Port 8080 is already in use/);
    expect(status.log.join('\n')).toContain('EADDRINUSE');
    expect(supervisor.endpoints()).toBeNull();
  });

  it('gives up on a stack that never reports ready', async () => {
    const supervisor = supervise('hang');
    supervisor.ensureStarted();
    const status = await waitFor(supervisor, (s) => s.state === 'failed', 'failed');
    expect(status.message).toMatch(/did not report ready/);
  });

  it('says honestly that the stack is not available when its entry point is missing', () => {
    const supervisor = supervise('ready', {}, '/nonexistent/out/stack/cli.cjs');
    const status = supervisor.ensureStarted();
    expect(status.state).toBe('unavailable');
    expect(status.message).toMatch(/Local stack not available/);
  });

  it('coalesces a burst of log lines into a few status changes, keeping only the newest lines', async () => {
    const supervisor = supervise('log-burst');
    let changes = 0;
    supervisor.on('change', () => (changes += 1));
    supervisor.ensureStarted();
    const status = await waitFor(supervisor, (s) => s.log.at(-1) === 'warn line 499', 'the last burst line');
    expect(status.log).toHaveLength(200);
    expect(status.log[0]).toBe('warn line 300');
    // 501 lines arrived together; each one used to be a status (with a copy of the log) of its own.
    expect(changes).toBeLessThan(20);
  });

  it('restarts a stack that crashed after it was ready', async () => {
    const supervisor = supervise('crash-after-ready');
    supervisor.ensureStarted();
    const first = await waitFor(supervisor, (s) => s.state === 'ready', 'first ready');
    await waitFor(supervisor, (s) => s.state === 'starting' && /restarting/.test(s.message), 'restart');
    const second = await waitFor(supervisor, (s) => s.state === 'ready', 'second ready');
    expect(second.pid).not.toBe(first.pid);
    // The log still shows the run that crashed, and how it ended: what "see its log" is about.
    const log = second.log.join('\n');
    expect(log).toContain('exited unexpectedly (code 9); restarting');
    expect(log.indexOf('--data-dir /tmp/switchyard-scripted')).toBeLessThan(
      log.indexOf('exited unexpectedly'),
    );
  });

  it('stops cleanly with SIGTERM and restarts on request', async () => {
    const supervisor = supervise('ready');
    supervisor.ensureStarted();
    const first = await waitFor(supervisor, (s) => s.state === 'ready', 'ready');
    await supervisor.restart();
    const second = await waitFor(supervisor, (s) => s.state === 'ready', 'ready again');
    expect(second.pid).not.toBe(first.pid);
    await supervisor.stop();
    expect(supervisor.status().state).toBe('stopped');
  });
});
