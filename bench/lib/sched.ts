// Where a thread's wall time went during a run, from Linux's scheduler statistics: running, waiting in a
// run queue for a CPU, or asleep (waiting for I/O). Beside it, how much of the machine's CPU time was idle.
//
// Why the KV bench prints this (issue 26, session 13): a throughput below what the CPU figures allow can be
// the program sleeping between batches of work, or the program ready to run while the kernel keeps it off a
// CPU. Only these counters tell the two apart. On the 2-vCPU VM the issue is measured on, the bridge's
// thread waited for a CPU ~20 % of the `/pipeline` run while the machine's CPUs were ~20 % idle.
//
// Linux only (`/proc/<pid>/schedstat`, `/proc/stat`); elsewhere every reading is undefined and nothing
// is printed.
import { readFileSync } from 'node:fs';

export interface SchedReading {
  at: bigint;
  /** Per pid: [ns on a CPU, ns runnable but waiting for one] of its main thread. */
  threads: Map<number, [number, number]>;
  /** Idle and busy CPU time of the whole machine, in clock ticks. */
  idleTicks: number;
  allTicks: number;
}

export interface ThreadShare {
  /** Fractions of the wall time between two readings. */
  ran: number;
  waited: number;
}

export interface SchedShares {
  threads: Map<number, ThreadShare>;
  /** Fraction of all CPUs' time that was idle. */
  idle: number;
}

/** One reading of the main threads of `pids` and of the machine; undefined where /proc is not Linux's. */
export function readSched(pids: number[]): SchedReading | undefined {
  try {
    const threads = new Map<number, [number, number]>();
    for (const pid of pids) {
      // "<ns on CPU> <ns waiting on a run queue> <timeslices>": the thread group leader's (main thread's).
      const [ran, waited] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
      threads.set(pid, [ran!, waited!]);
    }
    // "cpu  user nice system idle iowait irq softirq steal …": idle and iowait count as idle.
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.split(/\s+/).slice(1, 9).map(Number);
    return {
      at: process.hrtime.bigint(),
      threads,
      idleTicks: ticks[3]! + ticks[4]!,
      allTicks: ticks.reduce((sum, n) => sum + n, 0),
    };
  } catch {
    return undefined;
  }
}

/** The shares between two readings, for the pids found in both. */
export function schedShares(before: SchedReading, after: SchedReading): SchedShares {
  const wall = Number(after.at - before.at);
  const threads = new Map<number, ThreadShare>();
  for (const [pid, [ran0, waited0]] of before.threads) {
    const end = after.threads.get(pid);
    if (!end) continue;
    threads.set(pid, { ran: (end[0] - ran0) / wall, waited: (end[1] - waited0) / wall });
  }
  const all = after.allTicks - before.allTicks;
  return { threads, idle: all > 0 ? (after.idleTicks - before.idleTicks) / all : 0 };
}
