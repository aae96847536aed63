// The run page's pieces that fix the defects a new user hit: Trigger again keeps the run's settings and
// refuses broken JSON (8); "n new runs" on return with Live off (6); the output view resets per step (2);
// a pending wait's event id and timeout in the step panel (1); a normal wait in the plain colour (7).
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../../../shared/bridge/procedures/workflows/runs';
import { newRuns } from '../runs/RunsTab';
import { bodyProblem, triggerSettings } from './RunDetail';
import { layoutRun } from './step-layout';
import { StepPanel } from './StepPanel';
import { activeRun, run, step, T0 } from './test-runs';
import { reasonTone } from './WhyNotDone';

type PanelProps = Parameters<typeof StepPanel>[0];

/** The step panel of `row` in `runLog`, keyed by its row as the run page keys it; loading and links do nothing. */
const stepPanel = (row: PanelProps['row'], runLog: PanelProps['run']) => (
  <StepPanel
    key={row.key}
    row={row}
    run={runLog}
    trim={{ loadingFull: false, onLoadFull: () => undefined }}
    onOpenRun={() => undefined}
    onOpenMessage={() => undefined}
  />
);

describe('Trigger again (defect 8)', () => {
  it("prefills the run's retries, retry delay, flow-control key, labels, headers and failure URL", () => {
    const original = run({
      labels: ['nightly'],
      flowControlKey: 'tenant-7',
      failureFunction: { messageId: 'ff', url: 'https://app.example/on-failure', state: 'CALLBACK_SUCCESS' },
      steps: [
        {
          type: 'sequential',
          steps: [
            step({
              stepName: 'init',
              stepType: 'Initial',
              out: '{"n":16}',
              retries: 1,
              retryDelay: '1000',
              headers: {
                'Content-Type': ['application/json'],
                'X-Tenant': ['7'],
                'Upstash-Workflow-Sdk-Version': ['1'],
              },
            }),
          ],
        },
      ],
    });
    expect(triggerSettings(original)).toEqual({
      body: '{"n":16}',
      contentType: 'application/json',
      label: 'nightly',
      retries: '1',
      retryDelay: '1000',
      flowControlKey: 'tenant-7',
      headers: 'X-Tenant: 7',
      failureUrl: 'https://app.example/on-failure',
    });
  });

  it('says what is wrong with a JSON body that does not parse, and lets text through as text', () => {
    expect(bodyProblem('{"n":16,', 'application/json')).toMatch(/^The body is not valid JSON \(/);
    expect(bodyProblem('{"n":16}', 'application/json')).toBeUndefined();
    expect(bodyProblem('{"n":16,', 'text/plain')).toBeUndefined();
  });
});

describe('the run list on return (defect 6)', () => {
  const summary = (id: string, at: number): RunSummary => ({
    workflowRunId: id,
    workflowUrl: 'u',
    workflowState: 'RUN_STARTED',
    workflowRunCreatedAt: at,
    labels: [],
    stepCount: 1,
    reasons: [],
  });
  it('counts the runs of the newest page that are newer than every loaded one', () => {
    const loaded = [summary('a', T0), summary('b', T0 + 1)];
    expect(newRuns(loaded, [summary('c', T0 + 3), summary('d', T0 + 2), summary('b', T0 + 1)])).toBe(2);
    expect(newRuns(loaded, loaded)).toBe(0);
  });
});

// The body views render the code viewer: slow on a loaded machine, so these get room (no timing asserted).
describe('the step panel', { timeout: 30_000 }, () => {
  it('shows a pending wait’s event id, since when and its timeout (defect 1)', () => {
    const waiting = activeRun({
      messageId: '',
      stepName: 'approval',
      stepType: 'Wait',
      state: 'STEP_PROGRESS',
      retries: 1,
      createdAt: T0 + 1_000,
      waitEventId: 'approve-90',
      waitTimeoutDuration: '1h',
      waitTimeoutDeadline: T0 + 3_601_000,
    });
    const row = layoutRun(waiting, T0 + 5_000).rows.find((candidate) => candidate.label === 'approval')!;
    render(stepPanel(row, waiting));
    expect(screen.getByText('approve-90')).toBeTruthy();
    expect(screen.getByText(/^1h \(times out /)).toBeTruthy();
    expect(screen.getByText('Waiting since')).toBeTruthy();
  });

  it('opens each step in its own output view: a raw-looking JSON step does not carry its mode to the next (defect 2)', () => {
    const r = run({
      steps: [
        { type: 'sequential', steps: [step({ stepName: 'init', stepType: 'Initial', out: '{}' })] },
        { type: 'sequential', steps: [step({ stepName: 'json', out: '{"total":42}' })] },
        {
          type: 'sequential',
          steps: [step({ stepName: 'event', stepType: 'Wait', out: 'eyJvayI6dHJ1ZX0=' })],
        },
      ],
    });
    const rows = layoutRun(r).rows.filter((candidate) => candidate.kind === 'step');
    const { rerender } = render(stepPanel(rows[1]!, r));
    screen.getAllByRole('button', { name: 'Raw' })[0]!.click();
    rerender(stepPanel(rows[2]!, r));
    // The Wait step's base64 output opens decoded, as it would on its own, not in the last step's "Raw".
    expect(screen.getAllByRole('button', { name: 'Base64-decoded' })[0]!.getAttribute('aria-pressed')).toBe(
      'true',
    );
  });
});

describe('tones (defect 7)', () => {
  it('a normal wait or sleep is plain information; retries and holds need attention; a failure is an error', () => {
    expect(reasonTone({ kind: 'waiting', eventId: 'e' })).toBe('info');
    expect(reasonTone({ kind: 'sleeping', until: T0 })).toBe('info');
    expect(reasonTone({ kind: 'retrying', retry: 1 })).toBe('warning');
    expect(reasonTone({ kind: 'held', key: 'k' })).toBe('warning');
    expect(reasonTone({ kind: 'failed' })).toBe('danger');
  });
});
