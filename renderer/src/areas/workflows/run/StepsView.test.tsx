// A step row of the run page's tree is named once by its step: the step cell says the name, state, type and
// failed attempts; the timeline cell beside it adds only what it shows (the duration, the next delivery).
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatTime } from '../../../ui/format';
import { layoutRun } from './step-layout';
import { StepLine } from './StepsView';
import { retryingChargeRun, T0 } from './test-runs';

describe('a step row', () => {
  it('says the step’s name once, then the timeline’s duration and next delivery', () => {
    const layout = layoutRun(retryingChargeRun(), T0 + 5_000);
    const row = layout.rows.find((row) => row.label === 'charge')!;
    render(
      <div role="tree" aria-label="Steps">
        <StepLine row={row} layout={layout} selected={false} onSelect={() => undefined} />
      </div>,
    );
    // jsdom knows no layout, so the cells' words may run together: any spacing between them matches.
    const words = (...parts: string[]) =>
      new RegExp(`^${parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*')}$`);
    const step = ['charge', 'Retrying', 'Run', '2', 'failed attempts'];
    const timeline = ['Timeline:', `5.0 s, next delivery ${formatTime(T0 + 9_000)}`];
    expect(screen.getByRole('button', { name: words(...step) })).toBeTruthy();
    expect(screen.getByRole('button', { name: words(...timeline) })).toBeTruthy();
    // The row says both, the step's name once.
    expect(screen.getByRole('treeitem', { name: words(...step, ...timeline) })).toBeTruthy();
  });
});
