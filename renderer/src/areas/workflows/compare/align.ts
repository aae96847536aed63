// Compare two runs: steps aligned by name (the n-th step called "charge" in one run meets the n-th
// "charge" in the other), in the order of the left run with the right run's extra steps after their
// nearest aligned neighbour; each pair flags what differs — state, output, duration, type. Structure (names,
// types, states, durations) is compared apart from payload (outputs): runs with different inputs differ in
// output at nearly every step, which says nothing about where their paths parted.
import type { StepLog, WorkflowRunLog } from '../../../../../shared/workflows/types';
import { layoutRun, type StepRow } from '../run/step-layout';

export interface AlignedStep {
  /** `charge`, or `charge #2` for the second step of that name. */
  key: string;
  name: string;
  left?: StepRow;
  right?: StepRow;
  diff: { state: boolean; out: boolean; duration: boolean; type: boolean; missing: boolean };
}

/** Durations differ when they are more than this factor apart and more than 500 ms apart (shorter gaps are scheduling noise). */
const DURATION_FACTOR = 1.5;

function stepRows(run: WorkflowRunLog, now: number): StepRow[] {
  return layoutRun(run, now).rows.filter((row) => row.kind === 'step');
}

function keyed(rows: StepRow[]): { key: string; name: string; row: StepRow }[] {
  const seen = new Map<string, number>();
  return rows.map((row) => {
    const name = row.label;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return { key: n === 1 ? name : `${name} #${n}`, name, row };
  });
}

function outOf(step: StepLog | undefined): string | undefined {
  return step?.out;
}

export function durationsDiffer(a: number, b: number): boolean {
  const small = Math.min(a, b);
  const large = Math.max(a, b);
  return large - small > 500 && large > small * DURATION_FACTOR;
}

export function alignRuns(
  left: WorkflowRunLog,
  right: WorkflowRunLog,
  now: number = Date.now(),
): AlignedStep[] {
  const l = keyed(stepRows(left, now));
  const r = keyed(stepRows(right, now));
  const rightByKey = new Map(r.map((entry) => [entry.key, entry]));
  const leftKeys = new Set(l.map((entry) => entry.key));
  const aligned: AlignedStep[] = [];
  const pair = (key: string, name: string, a?: StepRow, b?: StepRow): AlignedStep => {
    const both = a !== undefined && b !== undefined;
    return {
      key,
      name,
      ...(a ? { left: a } : {}),
      ...(b ? { right: b } : {}),
      diff: {
        missing: !both,
        state: both && a.state !== b.state,
        type: both && a.stepType !== b.stepType,
        out: both && outOf(a.step) !== outOf(b.step),
        duration: both && durationsDiffer(a.end - a.start, b.end - b.start),
      },
    };
  };
  // Right-only steps go after the last step both runs share before them.
  const rightIndex = new Map(r.map((entry, index) => [entry.key, index]));
  let cursor = 0;
  const rightOnlyUntil = (stop: number) => {
    for (; cursor < stop; cursor += 1) {
      const entry = r[cursor]!;
      if (!leftKeys.has(entry.key)) aligned.push(pair(entry.key, entry.name, undefined, entry.row));
    }
  };
  for (const entry of l) {
    const index = rightIndex.get(entry.key);
    if (index !== undefined && index >= cursor) {
      rightOnlyUntil(index);
      cursor = index + 1;
    }
    aligned.push(pair(entry.key, entry.name, entry.row, rightByKey.get(entry.key)?.row));
  }
  rightOnlyUntil(r.length);
  return aligned;
}

/** The runs' shapes differ here: a step missing, or another type, state or duration. */
export function structureDiffers(row: AlignedStep): boolean {
  const { missing, type, state, duration } = row.diff;
  return missing || type || state || duration;
}

/** Only the step's output differs (two runs with different payloads differ here at almost every step). */
export function payloadDiffers(row: AlignedStep): boolean {
  return row.diff.out;
}

/** Steps whose structure differs (what the comparison is for); payload differences are counted apart. */
export function differenceCount(rows: readonly AlignedStep[]): number {
  return rows.filter(structureDiffers).length;
}

export function payloadDifferenceCount(rows: readonly AlignedStep[]): number {
  return rows.filter(payloadDiffers).length;
}
