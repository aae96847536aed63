import { describe, expect, it } from 'vitest';
import { run, step, T0 } from '../run/test-runs';
import {
  alignRuns,
  differenceCount,
  durationsDiffer,
  payloadDifferenceCount,
  structureDiffers,
} from './align';

describe('alignRuns', () => {
  it('aligns steps by name and flags state, output and duration differences', () => {
    const ok = run({
      steps: [
        { type: 'sequential', steps: [step({ stepName: 'init', stepType: 'Initial', createdAt: T0 })] },
        { type: 'sequential', steps: [step({ stepName: 'reserve', out: '"r1"', createdAt: T0 + 100 })] },
        { type: 'sequential', steps: [step({ stepName: 'charge', out: '"paid"', createdAt: T0 + 200 })] },
        { type: 'sequential', steps: [step({ stepName: 'ship', out: '"sent"', createdAt: T0 + 300 })] },
      ],
    });
    const failed = run({
      workflowRunId: 'wfr_b',
      workflowState: 'RUN_FAILED',
      steps: [
        { type: 'sequential', steps: [step({ stepName: 'init', stepType: 'Initial', createdAt: T0 })] },
        { type: 'sequential', steps: [step({ stepName: 'reserve', out: '"r1"', createdAt: T0 + 100 })] },
        { type: 'sequential', steps: [step({ stepName: 'audit', createdAt: T0 + 150 })] },
        {
          type: 'sequential',
          steps: [
            step({ stepName: 'charge', out: '"declined"', state: 'STEP_FAILED', createdAt: T0 + 5_000 }),
          ],
        },
      ],
    });
    const rows = alignRuns(ok, failed);
    expect(rows.map((row) => [row.key, Boolean(row.left), Boolean(row.right)])).toEqual([
      ['init', true, true],
      ['reserve', true, true],
      ['audit', false, true],
      ['charge', true, true],
      ['ship', true, false],
    ]);
    const byKey = Object.fromEntries(rows.map((row) => [row.key, row.diff]));
    expect(byKey.reserve).toEqual({ missing: false, state: false, out: false, duration: false, type: false });
    expect(byKey.charge).toMatchObject({ state: true, out: true, duration: true });
    expect(byKey.audit!.missing).toBe(true);
    expect(byKey.ship!.missing).toBe(true);
    expect(differenceCount(rows)).toBe(3);
  });

  it('pairs repeated names by occurrence', () => {
    const a = run({
      steps: [
        { type: 'sequential', steps: [step({ stepName: 'poll', out: '1' })] },
        { type: 'sequential', steps: [step({ stepName: 'poll', out: '2' })] },
      ],
    });
    const b = run({ steps: [{ type: 'sequential', steps: [step({ stepName: 'poll', out: '1' })] }] });
    const rows = alignRuns(a, b);
    expect(rows.map((row) => row.key)).toEqual(['poll', 'poll #2']);
    expect(rows[1]!.diff.missing).toBe(true);
    expect(rows[0]!.diff.out).toBe(false);
  });
});

describe('durationsDiffer', () => {
  it('ignores small and proportionally close differences', () => {
    expect(durationsDiffer(10, 40)).toBe(false);
    expect(durationsDiffer(1000, 1200)).toBe(false);
    expect(durationsDiffer(100, 5000)).toBe(true);
  });
});

describe('structure apart from payload (defect 10)', () => {
  it('two runs of the same path with different payloads differ in output only, not in structure', () => {
    const a = run();
    const b = run({
      workflowRunId: 'wfr_b',
      steps: run().steps.map((group) =>
        group.type === 'next'
          ? group
          : { ...group, steps: group.steps.map((s) => ({ ...s, out: `"other ${s.stepName}"` })) },
      ) as ReturnType<typeof run>['steps'],
    });
    const rows = alignRuns(a, b);
    expect(payloadDifferenceCount(rows)).toBe(rows.length);
    expect(differenceCount(rows)).toBe(0);
    expect(rows.filter(structureDiffers)).toEqual([]);
  });
});
