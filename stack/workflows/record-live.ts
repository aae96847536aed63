// What a run record reads beyond the store (stack/workflows/records.ts): the clock, the engine's view of
// deliveries held by flow control, and the run's history events.
import { historyOf } from './history-writes';
import type { RecordLive } from './records';
import type { WorkflowRuntime } from './runtime';

export function recordLive(runtime: WorkflowRuntime): RecordLive {
  const history = historyOf(runtime.stackStore);
  return {
    now: runtime.clock.now(),
    flowHold: (messageId) => runtime.engine.flowHold(messageId),
    inflightSince: (messageId) => runtime.engine.inflightSince(messageId),
    history: (runSeq) => history.ofRun(runSeq),
    defaultRetryDelay: runtime.engine.defaultRetryDelay(),
  };
}
