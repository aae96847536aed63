// Runs the bundled stack (out/stack/cli.cjs, built by vitest's global setup) as a real child process for
// tests of the CLI, crash recovery and dev mode.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import type { ReadyInfo } from './stack';

export const CLI = join(process.cwd(), 'out', 'stack', 'cli.cjs');

/**
 * Arguments for a stack on free ports (message API and KV) over `dataDir`: `port` 0 lets the system pick the
 * API's; one from freePort() keeps the address across a restart.
 */
export function freePortArgs(dataDir: string, port = 0): string[] {
  return ['--port', String(port), '--kv-port', '0', '--data-dir', dataDir];
}

/**
 * A port free right now, for a stack that must come back on the same address after a restart.
 *
 * Taken below Linux's ephemeral range (32768–60999), never from `listen(0)`: a port `listen(0)` handed out and we
 * closed goes back to that range, and a parallel test's `listen(0)` (a sink, a proxy) could get it before the
 * stack binds it. The stack then fails to listen, and a test that waits for the port to accept meets the other
 * server instead (a publish once came back as a sink's "ok").
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const candidate = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(candidate)) return candidate;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export interface StackProcess {
  child: ChildProcess;
  /** Resolves with the ready line; rejects if the process exits first or takes longer than `timeoutMs`. */
  ready: Promise<ReadyInfo>;
  /** Every stdout line, in order. */
  stdoutLines: string[];
  stderr(): string;
  /** Resolves once the process has exited and its stdout and stderr are fully read. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM and wait for the exit (SIGKILL after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnStack(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; stdin?: 'ignore' | 'pipe' } = {},
): StackProcess {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run node scripts/build-node.mjs (vitest's global setup does)`);
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...options.env },
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  const stdoutLines: string[] = [];
  let stderr = '';
  let buffer = '';
  // 'close', not 'exit': 'exit' may come before the last stderr bytes were read from the pipe, and a test
  // that then looks for the final log line would depend on timing.
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<ReadyInfo>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`stack did not print its ready line in time; stderr:\n${stderr.slice(-2000)}`));
    }, options.timeoutMs ?? 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        stdoutLines.push(line);
        if (stdoutLines.length === 1) {
          clearTimeout(timer);
          try {
            resolve(JSON.parse(line) as ReadyInfo);
          } catch {
            reject(new Error(`first stdout line is not JSON: ${line}`));
          }
        }
        newline = buffer.indexOf('\n');
      }
    });
    void exit.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(
          `stack exited (code ${code}, signal ${signal}) before it was ready; stderr:\n${stderr.slice(-2000)}`,
        ),
      );
    });
  });
  ready.catch(() => undefined);
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    child,
    ready,
    stdoutLines,
    stderr: () => stderr,
    exit,
    async stop(timeoutMs = 10_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        const result = await exit;
        clearTimeout(timer);
        return result;
      }
      return exit;
    },
  };
}
