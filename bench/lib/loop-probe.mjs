// Loaded into a stack process by `bench burst` (NODE_OPTIONS=--import <this file>): it records how late the
// event loop ran a 5 ms timer, so the benchmark can report the longest time the loop was blocked. The stack's
// own code knows nothing of it. On SIGUSR2 it prints one line to stderr and starts a new window:
//   loop-probe {"maxMs":…,"p99Ms":…}
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
process.on('SIGUSR2', () => {
  const line = { maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6 };
  process.stderr.write(`loop-probe ${JSON.stringify(line)}\n`);
  histogram.reset();
});
