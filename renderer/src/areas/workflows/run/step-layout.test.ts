import { describe, expect, it } from 'vitest';
import { barGeometry, failedOnly, layoutRun } from './step-layout';
import { retryingChargeRun, run, step, T0 } from './test-runs';

describe('layoutRun', () => {
  it('lays groups out as rows: parallel steps under a header, in execution order', () => {
    const layout = layoutRun(run());
    expect(layout.rows.map((row) => [row.key, row.depth, row.kind, row.label])).toEqual([
      ['g0', 0, 'step', 'init'],
      ['g1', 0, 'step', 'A'],
      ['g2', 0, 'header', 'Parallel · 2 steps'],
      ['g2.s0', 1, 'step', 'B'],
      ['g2.s1', 1, 'step', 'C'],
      ['g3', 0, 'step', 'S'],
      ['g4', 0, 'step', 'done'],
    ]);
    expect(layout.stepKeys).toEqual(['g0', 'g1', 'g2.s0', 'g2.s1', 'g3', 'g4']);
  });

  it('spans each step from the end of the group before it; sleeps last their duration', () => {
    const rows = Object.fromEntries(layoutRun(run()).rows.map((row) => [row.key, row]));
    expect([rows.g1!.start - T0, rows.g1!.end - T0]).toEqual([0, 1_000]);
    // Both branches start when A ended; the header spans to the later one.
    expect([rows['g2.s0']!.start - T0, rows['g2.s0']!.end - T0]).toEqual([1_000, 3_000]);
    expect([rows['g2.s1']!.start - T0, rows['g2.s1']!.end - T0]).toEqual([1_000, 2_000]);
    expect(rows['g2.s1']!.bar).toBe('call');
    expect([rows.g2!.start - T0, rows.g2!.end - T0]).toEqual([1_000, 3_000]);
    expect(rows.g3!.bar).toBe('sleep');
    expect([rows.g3!.start - T0, rows.g3!.end - T0]).toEqual([4_000, 14_000]);
    expect([rows.g4!.start - T0, rows.g4!.end - T0]).toEqual([14_000, 15_000]);
  });

  it('ends a sleep cut short (Run now) when what came after it was recorded', () => {
    const week = 7 * 86_400_000;
    const rows = layoutRun(
      run({
        workflowRunCompletedAt: T0 + 56_000,
        steps: [
          {
            type: 'sequential',
            steps: [
              step({ stepName: 'nap', stepType: 'SleepFor', sleepFor: 604_800, createdAt: T0 + 1_000 }),
            ],
          },
          { type: 'sequential', steps: [step({ stepName: 'after', createdAt: T0 + 55_000 })] },
        ],
      }),
    ).rows;
    expect([rows[0]!.start - T0, rows[0]!.end - T0]).toEqual([1_000, 55_000]);
    // Not cut short: the same sleep with its next step a week later lasts the week.
    const full = layoutRun(
      run({
        workflowRunCompletedAt: T0 + 1_000 + week + 30,
        steps: [
          {
            type: 'sequential',
            steps: [
              step({ stepName: 'nap', stepType: 'SleepFor', sleepFor: 604_800, createdAt: T0 + 1_000 }),
            ],
          },
          { type: 'sequential', steps: [step({ stepName: 'after', createdAt: T0 + 1_000 + week + 20 })] },
        ],
      }),
    ).rows;
    expect(full[0]!.end - T0).toBe(1_000 + week);
  });

  it('shows the next group running until now, with its attempts and next delivery', () => {
    const layout = layoutRun(retryingChargeRun(), T0 + 5_000);
    const charge = layout.rows.find((row) => row.label === 'charge')!;
    expect(charge).toMatchObject({
      depth: 1,
      state: 'STEP_RETRY',
      bar: 'pending',
      nextDeliveryTime: T0 + 9_000,
    });
    expect(charge.attempts).toEqual([T0 + 1_000, T0 + 4_000]);
    expect(charge.end).toBe(T0 + 5_000);
    expect(layout.end).toBe(T0 + 5_000);
  });

  it('"failed only" keeps failed and retried steps with their group headers', () => {
    const rows = layoutRun(
      run({
        steps: [
          { type: 'sequential', steps: [step({ stepName: 'ok' })] },
          {
            type: 'parallel',
            steps: [step({ stepName: 'p1' }), step({ stepName: 'p2', state: 'STEP_FAILED' })],
          },
        ],
      }),
    ).rows;
    expect(failedOnly(rows).map((row) => row.label)).toEqual(['Parallel · 2 steps', 'p2']);
  });

  it('keeps bars inside the timeline and instant steps visible', () => {
    expect(barGeometry({ start: 0, end: 50 }, { start: 0, end: 100 })).toEqual({ left: 0, width: 50 });
    expect(barGeometry({ start: 100, end: 100 }, { start: 0, end: 100 }).width).toBeGreaterThan(0);
    expect(barGeometry({ start: 100, end: 100 }, { start: 0, end: 100 }).left).toBeLessThan(100);
  });

  it('lays out a run with 1,000 steps', () => {
    const steps = Array.from({ length: 1000 }, (_, i) => ({
      type: 'sequential' as const,
      steps: [step({ stepName: `s${i}`, createdAt: T0 + i * 10 })],
    }));
    const layout = layoutRun(run({ steps }));
    expect(layout.rows).toHaveLength(1000);
    expect(layout.rows[999]!.end).toBe(T0 + 9_990);
  });
});
