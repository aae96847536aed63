// Event mode of the workflow logs: `GET /v2/workflows/events` without `groupBy`. The same filters as run
// mode, but the answer is one flat list of steps (newest run first, each run's steps in execution order),
// up to 1,000 per page. A page may end inside a run, so the cursor names a run and how many of its events
// were already handed out.
import type { RunFilters } from '../store/workflow-store';
import type { WorkflowLogEvent, WorkflowRunLog } from '../../shared/workflows/types';
import { HttpError } from '../http/server';
import { buildRunRecord } from './records';
import { recordLive } from './record-live';
import type { WorkflowRuntime } from './runtime';

/** Where the next page starts: at run `runSeq` (inclusive), after its first `skip` events. */
interface EventCursor {
  runSeq: number;
  skip: number;
}

export function parseEventCursor(value: string | null): EventCursor | undefined {
  if (value === null || value === '') return undefined;
  const match = /^(\d{1,15})-(\d{1,9})$/.exec(value);
  if (!match) throw new HttpError(400, `invalid cursor '${value.slice(0, 50)}'`);
  return { runSeq: Number(match[1]), skip: Number(match[2]) };
}

function eventsOf(run: WorkflowRunLog): WorkflowLogEvent[] {
  const owner = {
    workflowRunId: run.workflowRunId,
    workflowUrl: run.workflowUrl,
    workflowState: run.workflowState,
    workflowRunCreatedAt: run.workflowRunCreatedAt,
  };
  return run.steps.flatMap((group) =>
    group.steps.map((step) => ({ ...step, ...owner, groupType: group.type }) as WorkflowLogEvent),
  );
}

/** Runs are read ten at a time: a page of 1,000 events rarely needs more than a few reads. */
const RUNS_PER_READ = 10;

export function eventPage(
  runtime: WorkflowRuntime,
  filters: RunFilters,
  from: EventCursor | undefined,
  count: number,
  trimBody: number,
): { cursor: string; events: WorkflowLogEvent[] } {
  const events: WorkflowLogEvent[] = [];
  // listRuns pages with an exclusive "before": one past the cursor's run includes that run again.
  let before = from !== undefined ? from.runSeq + 1 : undefined;
  let skip = from?.skip ?? 0;
  for (;;) {
    const page = runtime.store.listRuns(filters, before, RUNS_PER_READ);
    for (const run of page.runs) {
      const all = eventsOf(buildRunRecord(runtime.store, run, trimBody, recordLive(runtime)));
      // A step-state filter selects the runs in the store; here it also selects their events.
      const kept = filters.stepState ? all.filter((event) => filters.stepState?.includes(event.state)) : all;
      const rest = kept.slice(skip);
      skip = 0;
      const room = count - events.length;
      events.push(...rest.slice(0, room));
      if (rest.length > room) return { cursor: `${run.seq}-${kept.length - rest.length + room}`, events };
      if (events.length === count) {
        const following = page.runs[page.runs.indexOf(run) + 1];
        if (following) return { cursor: `${following.seq}-0`, events };
        // The page ended with this read's last run: more may follow, so point past all of its events.
        return { cursor: page.next !== undefined ? `${run.seq}-${kept.length}` : '', events };
      }
    }
    if (page.next === undefined) return { cursor: '', events };
    before = page.next;
  }
}
