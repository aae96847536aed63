// A run's steps as the explorer shows them: one row per step (parallel and `next` groups get a header row
// with their steps indented beneath), and for each row a bar on the run's timeline. The service records
// a step when its result comes back, so a step spans from the end of the group before it to its own
// `createdAt`; a sleep spans its duration after it was recorded; a wait ends when the event (or the
// timeout) was recorded; the `next` group runs from the last result to now.
import type {
  NextStepLog,
  StepError,
  StepLog,
  StepState,
  WorkflowRunLog,
} from '../../../../../shared/workflows/types';
import { sleepMs } from '../../../../../shared/workflows/history';
import { plural } from '../../../ui/format';

export type BarKind = 'run' | 'call' | 'sleep' | 'wait' | 'invoke' | 'initial' | 'pending';

export interface StepRow {
  /** Stable within the run: `g<group>` for a header, `g<group>.s<step>` for a step. */
  key: string;
  depth: 0 | 1;
  kind: 'header' | 'step';
  groupType: 'sequential' | 'parallel' | 'next';
  /** The step's name, or for a header "Parallel · 3 steps". */
  label: string;
  stepType?: string;
  state?: StepState;
  step?: StepLog;
  next?: NextStepLog;
  /** Bar on the timeline, unix ms. */
  start: number;
  end: number;
  bar: BarKind;
  /** Times of failed attempts, drawn as ticks on the bar. */
  attempts: number[];
  /** When the step will be tried again. */
  nextDeliveryTime?: number;
}

export interface StepLayout {
  rows: StepRow[];
  /** The timeline's span. */
  start: number;
  end: number;
  /** Every step row's key, in order (for "failed only" and keyboard moves). */
  stepKeys: string[];
}

function barOf(step: StepLog): BarKind {
  switch (step.stepType) {
    case 'Initial':
      return 'initial';
    case 'Call':
      return 'call';
    case 'SleepFor':
    case 'SleepUntil':
      return 'sleep';
    case 'Wait':
      return 'wait';
    case 'Invoke':
      return 'invoke';
    default:
      return 'run';
  }
}

function attemptTimes(errors: StepError[] | undefined): number[] {
  return (errors ?? []).map((error) => error.time).filter((time) => Number.isFinite(time));
}

/**
 * Where a recorded step's bar starts and ends, given when the group before it ended. A sleep lasts its duration,
 * unless `wokenBy` (when what came after it was recorded) is earlier: a sleep cut short by Run now on the local
 * stack ended then.
 */
function spanOf(
  step: StepLog,
  previousEnd: number,
  wokenBy: number | undefined,
): { start: number; end: number } {
  const recorded = step.createdAt || previousEnd;
  const woken = (end: number) =>
    wokenBy !== undefined && wokenBy >= recorded ? Math.min(end, wokenBy) : end;
  if (step.stepType === 'SleepFor' && step.sleepFor !== undefined) {
    return { start: recorded, end: woken(recorded + sleepMs(step.sleepFor)) };
  }
  if (step.stepType === 'SleepUntil' && step.sleepUntil !== undefined) {
    return { start: recorded, end: woken(Math.max(recorded, step.sleepUntil * 1000)) };
  }
  if (step.stepType === 'Initial') return { start: recorded, end: recorded };
  return { start: Math.min(previousEnd, recorded), end: recorded };
}

export function layoutRun(run: WorkflowRunLog, now: number = Date.now()): StepLayout {
  const rows: StepRow[] = [];
  const stepKeys: string[] = [];
  let previousEnd = run.workflowRunCreatedAt;
  const groups = Array.isArray(run.steps) ? run.steps : [];
  // For each group, when the first thing after it was recorded (or the run completed): a sleep ends by then.
  const wokenBy: (number | undefined)[] = new Array<number | undefined>(groups.length);
  let after = run.workflowRunCompletedAt;
  for (let g = groups.length - 1; g >= 0; g--) {
    wokenBy[g] = after;
    const group = groups[g]!;
    if (group.type === 'next') continue;
    for (const step of group.steps)
      if (step.createdAt && (after === undefined || step.createdAt < after)) after = step.createdAt;
  }
  groups.forEach((group, g) => {
    if (group.type === 'next') {
      const end =
        run.workflowState === 'RUN_STARTED'
          ? Math.max(now, previousEnd)
          : (run.workflowRunCompletedAt ?? previousEnd);
      const header: StepRow = {
        key: `g${g}`,
        depth: 0,
        kind: 'header',
        groupType: 'next',
        label: group.steps.length === 1 ? 'Next' : `Next · ${plural(group.steps.length, 'message')}`,
        start: previousEnd,
        end,
        bar: 'pending',
        attempts: [],
      };
      rows.push(header);
      group.steps.forEach((next, s) => {
        const key = `g${g}.s${s}`;
        stepKeys.push(key);
        const row: StepRow = {
          key,
          depth: 1,
          kind: 'step',
          groupType: 'next',
          label: next.stepName ?? '(step not named yet)',
          stepType: next.stepType,
          state: next.state,
          next,
          start: previousEnd,
          end,
          bar: 'pending',
          attempts: attemptTimes(next.errors),
        };
        if (next.nextDeliveryTime) row.nextDeliveryTime = next.nextDeliveryTime;
        rows.push(row);
      });
      previousEnd = end;
      return;
    }
    const parallel = group.type === 'parallel';
    const groupStart = previousEnd;
    let groupEnd = previousEnd;
    const stepRows = group.steps.map((step, s): StepRow => {
      const { start, end } = spanOf(step, groupStart, wokenBy[g]);
      groupEnd = Math.max(groupEnd, end);
      const key = parallel ? `g${g}.s${s}` : `g${g}`;
      stepKeys.push(key);
      const row: StepRow = {
        key,
        depth: parallel ? 1 : 0,
        kind: 'step',
        groupType: group.type,
        label: step.stepName,
        stepType: step.stepType,
        state: step.state,
        step,
        start,
        end,
        bar: barOf(step),
        attempts: attemptTimes(step.errors),
      };
      if (step.nextDeliveryTime) row.nextDeliveryTime = step.nextDeliveryTime;
      return row;
    });
    if (parallel) {
      rows.push({
        key: `g${g}`,
        depth: 0,
        kind: 'header',
        groupType: 'parallel',
        label: `Parallel · ${plural(group.steps.length, 'step')}`,
        start: groupStart,
        end: groupEnd,
        bar: 'run',
        attempts: [],
      });
    }
    rows.push(...stepRows);
    previousEnd = groupEnd;
  });
  const end = Math.max(previousEnd, run.workflowRunCompletedAt ?? previousEnd, run.workflowRunCreatedAt + 1);
  return { rows, start: run.workflowRunCreatedAt, end, stepKeys };
}

/** Failed or retrying steps (and the headers of the groups they are in): the "failed steps only" view. */
export function failedOnly(rows: readonly StepRow[]): StepRow[] {
  const bad = (row: StepRow) =>
    row.kind === 'step' &&
    (row.state === 'STEP_FAILED' || row.state === 'STEP_RETRY' || row.attempts.length > 0);
  const keepGroups = new Set(rows.filter(bad).map((row) => row.key.split('.')[0]));
  return rows.filter((row) => bad(row) || (row.kind === 'header' && keepGroups.has(row.key)));
}

/** A bar's left offset and width in percent of the timeline, at least a sliver so instant steps show. */
export function barGeometry(row: Pick<StepRow, 'start' | 'end'>, layout: Pick<StepLayout, 'start' | 'end'>) {
  const span = Math.max(1, layout.end - layout.start);
  const left = ((row.start - layout.start) / span) * 100;
  const width = ((row.end - row.start) / span) * 100;
  return {
    left: Math.min(99.5, Math.max(0, left)),
    width: Math.max(0.5, Math.min(100 - Math.max(0, left), width)),
  };
}
