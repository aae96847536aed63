// What the crash tests share (kill -9 of a stack process, then a restart on the same data dir): the stack
// processes, data dirs and apps a test file starts, stopped and removed after all of its tests.
import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';
import { tempDir } from './messages/test-support';
import { freePort, freePortArgs, spawnStack, type StackProcess } from './test-process';

export interface CrashTestResources {
  /** A stack process (spawnStack), stopped after the file's tests. */
  spawn(args: string[], options?: Parameters<typeof spawnStack>[1]): StackProcess;
  /** A new data dir, removed after the file's tests. */
  dataDir(prefix: string): string;
  /** Something else to close after the file's tests (once the stacks are stopped). */
  onCleanup(close: () => Promise<unknown>): void;
  /**
   * A stack to kill and start again: each `start()` spawns it on the same new data dir and the same free port,
   * so what reached the first one (a workflow app, an SDK client) reaches the restarted one. `args` add to
   * the port, data dir and warn log level.
   */
  restartable(
    prefix: string,
    args?: string[],
    options?: Parameters<typeof spawnStack>[1],
  ): Promise<() => StackProcess>;
}

/** Registers the file's afterAll; call it once at the top of a crash test file. */
export function crashTestResources(): CrashTestResources {
  const processes: StackProcess[] = [];
  const dataDirs: string[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((proc) => proc.stop()));
    await Promise.all(closers.map((close) => close()));
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });
  const resources: CrashTestResources = {
    spawn(args, options) {
      const proc = spawnStack(args, options);
      processes.push(proc);
      return proc;
    },
    dataDir(prefix) {
      const dir = tempDir(prefix);
      dataDirs.push(dir);
      return dir;
    },
    onCleanup(close) {
      closers.push(close);
    },
    async restartable(prefix, args = [], options) {
      const port = await freePort();
      const all = [...freePortArgs(resources.dataDir(prefix), port), '--log-level', 'warn', ...args];
      return () => resources.spawn(all, options);
    },
  };
  return resources;
}
