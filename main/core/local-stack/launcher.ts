// How the supervisor runs the stack process. The browser host uses a plain Node child process; the
// Electron app uses utilityProcess (main/electron), because the RunAsNode fuse is off in packaged builds.
import { spawn } from 'node:child_process';

export interface StackProcess {
  pid: number | undefined;
  stdout: NodeJS.ReadableStream | null;
  stderr: NodeJS.ReadableStream | null;
  /** Ask it to stop (SIGTERM): the stack shuts down cleanly. */
  terminate(): void;
  /** Stop it now (SIGKILL). */
  kill(): void;
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  onError(listener: (error: Error) => void): void;
}

export type StackLauncher = (entry: string, args: string[]) => StackProcess;

export function nodeLauncher(
  execPath: string = process.execPath,
  env: NodeJS.ProcessEnv = {},
): StackLauncher {
  return (entry, args) => {
    // --exit-with-stdin: we hold the stack's stdin open; if this process dies (even by SIGKILL) the pipe
    // closes and the stack shuts itself down instead of keeping the ports and the data dir.
    const child = spawn(execPath, [entry, ...args, '--exit-with-stdin'], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    return {
      pid: child.pid,
      stdout: child.stdout,
      stderr: child.stderr,
      terminate: () => child.kill('SIGTERM'),
      kill: () => child.kill('SIGKILL'),
      onExit: (listener) => child.on('exit', listener),
      onError: (listener) => child.on('error', listener),
    };
  };
}
