// Compare two runs (e.g. a failed run and a successful one of the same URL): pick them by id, see the
// steps aligned by name with differences in state, output and duration highlighted. Route:
// #/workflows/compare/<runId@createdAt>/<runId@createdAt> (either part may be missing while picking).
import { useMemo, useState } from 'react';
import type { ProfileView } from '../../../../../shared/profiles';
import type { WorkflowRunLog } from '../../../../../shared/workflows/types';
import { useBridgeQuery } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { useNav } from '../../../shell/nav';
import { Button } from '../../../ui/Button';
import { ErrorCallout } from '../../../ui/ErrorCallout';
import { Switch } from '../../../ui/fields';
import { Form } from '../../../ui/Form';
import { plural } from '../../../ui/format';
import { Spinner } from '../../../ui/misc';
import { type ToolbarInputField, ToolbarInputs } from '../../../ui/ToolbarInput';
import { formatDuration } from '../run/duration';
import { WorkflowStateBadge } from '../WorkflowStateBadge';
import {
  alignRuns,
  type AlignedStep,
  differenceCount,
  payloadDiffers,
  payloadDifferenceCount,
  structureDiffers,
} from './align';

export default function CompareTab({ params }: { params: string[] }) {
  return (
    <ActiveService>
      {(profile) => <Compare profile={profile} left={params[0]} right={params[1]} />}
    </ActiveService>
  );
}

function parseRef(ref: string | undefined): { runId: string; createdAt?: number } | undefined {
  if (!ref) return undefined;
  const [runId, at] = ref.split('@');
  if (!runId) return undefined;
  return at && /^\d+$/.test(at) ? { runId, createdAt: Number(at) } : { runId };
}

const RUN_FIELDS: readonly ToolbarInputField<'left' | 'right'>[] = [
  { name: 'left', label: 'First run id', placeholder: 'first run id (id or id@createdAt)' },
  { name: 'right', label: 'Second run id', placeholder: 'second run id' },
];

function useRun(profile: ProfileView, ref: string | undefined) {
  const parsed = parseRef(ref);
  return useBridgeQuery(
    'workflows.runs.get',
    { profileId: profile.id, workflowRunId: parsed?.runId ?? '-', workflowCreatedAt: parsed?.createdAt },
    { enabled: parsed !== undefined },
  );
}

function Compare({ profile, left, right }: { profile: ProfileView; left?: string; right?: string }) {
  const navigate = useNav((state) => state.navigate);
  const [picked, setPicked] = useState({ left: left ?? '', right: right ?? '' });
  const a = useRun(profile, left);
  const b = useRun(profile, right);
  return (
    <div className="wf-tab page-body wf-compare">
      <Form
        className="row wf-compare-pick"
        aria-label="Runs to compare"
        onSubmit={() =>
          navigate('workflows', 'compare', picked.left.trim() || '-', picked.right.trim() || '-')
        }
      >
        <ToolbarInputs fields={RUN_FIELDS} values={picked} onChange={setPicked} />
        <Button
          type="submit"
          variant="primary"
          size="sm"
          disabled={!picked.left.trim() || !picked.right.trim()}
        >
          Compare
        </Button>
      </Form>
      {a.error || b.error ? <ErrorCallout error={a.error ?? b.error} title="Could not load a run." /> : null}
      {!left || !right || left === '-' || right === '-' ? (
        <p className="muted">
          Pick two runs — typically a failed one and a successful one of the same workflow URL. Steps are
          aligned by name; differences in state, output and duration are highlighted.
        </p>
      ) : a.data && b.data ? (
        <CompareTable left={a.data} right={b.data} />
      ) : (
        <Spinner />
      )}
    </div>
  );
}

/** The column head of one run: its id, state and URL. */
function SideHead({ run }: { run: WorkflowRunLog }) {
  return (
    <th>
      <div className="wf-compare-side">
        <span className="mono">{run.workflowRunId}</span> <WorkflowStateBadge state={run.workflowState} />
        <div className="faint mono">{run.workflowUrl}</div>
      </div>
    </th>
  );
}

function Cell({
  row,
  side,
  highlight,
}: {
  row: AlignedStep;
  side: 'left' | 'right';
  highlight: AlignedStep['diff'];
}) {
  const step = row[side];
  if (!step) return <td className="wf-diff-missing">— not in this run</td>;
  return (
    <td>
      <div className={highlight.state ? 'wf-diff' : undefined}>
        {step.state ? <WorkflowStateBadge state={step.state} /> : null}{' '}
        <span className="faint">{step.stepType}</span>
      </div>
      <div className={highlight.duration ? 'wf-diff mono' : 'mono faint'}>
        {formatDuration(step.end - step.start)}
      </div>
      {step.step?.out !== undefined ? (
        <pre className={highlight.out ? 'wf-diff wf-compare-out' : 'wf-compare-out'}>
          {step.step.out.slice(0, 400)}
        </pre>
      ) : null}
    </td>
  );
}

function CompareTable({ left, right }: { left: WorkflowRunLog; right: WorkflowRunLog }) {
  const rows = useMemo(() => alignRuns(left, right), [left, right]);
  const differences = differenceCount(rows);
  const payload = payloadDifferenceCount(rows);
  const [showPayload, setShowPayload] = useState(false);
  return (
    <>
      <div className="row wf-compare-summary">
        <p data-testid="compare-summary">
          <strong>{plural(differences, 'step differs', 'steps differ')}</strong> in structure (steps, types,
          states, durations) of {rows.length} aligned;{' '}
          <span data-testid="compare-payload">
            {plural(payload, 'step has', 'steps have')} a different output
          </span>
          .
        </p>
        <span className="toolbar-spacer" />
        <Switch label="Highlight output differences" checked={showPayload} onChange={setShowPayload} />
      </div>
      <table className="table wf-compare-table" aria-label="Steps compared">
        <thead>
          <tr>
            <th>Step</th>
            <SideHead run={left} />
            <SideHead run={right} />
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const differs = structureDiffers(row);
            const highlight = { ...row.diff, out: showPayload && row.diff.out };
            return (
              <tr
                key={row.key}
                className={differs ? 'wf-compare-differs' : undefined}
                data-differs={differs}
                data-output-differs={payloadDiffers(row)}
              >
                <th scope="row" className="mono">
                  {row.key}
                </th>
                <Cell row={row} side="left" highlight={highlight} />
                <Cell row={row} side="right" highlight={highlight} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
