// Restart, resume, delete or retry the failure function of failed runs — a triage group, a hand
// selection, every entry a filter matches, or the whole DLQ when the user chose "all" — as a job (ui/job):
// this part explains each action (restart and resume are one choice at the start: they list the same
// entries), takes every override of the API, and lists the runs it created.
import { useState } from 'react';
import { JOB_CHUNK, type JobSummary } from '../../../../../shared/bridge/job';
import {
  type DlqAction,
  runOverridesSchema,
  type WorkflowDlqTarget,
} from '../../../../../shared/bridge/procedures/workflows/dlq';
import { Segmented } from '../../../ui/fields';
import { plural } from '../../../ui/format';
import { InAppLink } from '../../../ui/InAppLink';
import { JobDialog } from '../../../ui/job/JobDialog';
import { type OpenElsewhere, useOpenElsewhere } from '../../../ui/job/JobSummaryView';
import type { JobRequestProps } from '../../../ui/job/useJobDialog';
import {
  type OverrideField,
  OverridesFieldset,
  RETRY_OVERRIDE_FIELDS,
} from '../../../ui/job/OverridesFieldset';
import { Callout } from '../../../ui/misc';
import { ScrollTable } from '../../../ui/ScrollTable';
import { EMPTY_OVERRIDES, type OverridesDraft, toOverrides } from '../../../ui/job/overrides-draft';

export interface WorkflowDlqJobRequest {
  action: DlqAction;
  target: WorkflowDlqTarget;
  /** How the target reads in a sentence and in the journal. */
  description: string;
}

const ACTION_TEXT: Record<DlqAction, { verb: string; verbed: string; explain: string }> = {
  restart: {
    verb: 'Restart',
    verbed: 'restarted',
    explain:
      'Restart starts each run over from its first step with the same trigger payload and settings (a new run id). Every step runs again, so the workflow code may have changed anywhere.',
  },
  resume: {
    verb: 'Resume',
    verbed: 'resumed',
    explain:
      'Resume starts a new run (a new run id) that keeps the steps that completed and continues from the step that failed; the failed run stays failed and links to it ("Resumed as …"). Change the workflow code only after the failed step: steps before it are not run again, and code that no longer matches them breaks the run.',
  },
  callback: {
    verb: 'Retry failure function',
    verbed: 'failure callbacks re-sent',
    explain:
      'Sends the failure callback of each failed run again (for runs whose failure function itself failed). The runs stay in the DLQ.',
  },
  delete: {
    verb: 'Delete',
    verbed: 'deleted',
    explain:
      'Removes the entries from the DLQ for good. The runs stay failed and can no longer be restarted or resumed.',
  },
};

const runs = (count: number) => plural(count, 'run');

export function WorkflowDlqJobDialog({ request, ...dialog }: JobRequestProps<WorkflowDlqJobRequest>) {
  const [action, setAction] = useState<DlqAction>(request.action);
  const [draft, setDraft] = useState<OverridesDraft>(EMPTY_OVERRIDES);
  const { overrides, errors } = toOverrides(draft, runOverridesSchema);
  const rerun = action === 'restart' || action === 'resume';
  const { verb, verbed, explain } = ACTION_TEXT[action];
  const open = useOpenElsewhere(dialog.onClose);
  // The job lists what `request.action` names: restart and resume list the same entries, and the start
  // says which of the two it is.
  return (
    <JobDialog
      {...dialog}
      procedure="workflows.dlq.job"
      input={request}
      title={`${verb} failed runs`}
      verb={verb}
      unit={runs}
      danger={action === 'delete'}
      options={
        rerun && Object.keys(errors).length > 0
          ? null
          : rerun
            ? { action: action as 'restart' | 'resume', overrides }
            : { overrides: {} }
      }
      preview={
        <>
          {request.action === 'restart' || request.action === 'resume' ? (
            <Segmented
              label="Restart or resume"
              value={action}
              onChange={setAction}
              options={{ restart: 'Restart from the beginning', resume: 'Resume from the failed step' }}
            />
          ) : null}
          <Callout tone={action === 'delete' ? 'warning' : 'info'}>{explain}</Callout>
          <p className="muted">
            The job sends a request per {JOB_CHUNK} runs; you can cancel between them and resume later from
            Jobs.
            {'ids' in request.target ? '' : ' Runs that fail after this list was made are not included.'}
          </p>
          {rerun ? (
            <OverridesFieldset
              legend="Overrides for the new runs (blank keeps the run's setting)"
              fields={OVERRIDE_FIELDS}
              draft={draft}
              errors={errors}
              onChange={setDraft}
            />
          ) : null}
        </>
      }
      verbed={verbed}
      itemLabel="DLQ id"
      overrides={rerun ? overrides : undefined}
      summaryNotes={
        <>
          <InAppLink href="#/jobs" onOpen={() => open('jobs')}>
            In Jobs
          </InAppLink>
          .
        </>
      }
      summaryDetail={(summary) => <NewRuns summary={summary} open={open} />}
    />
  );
}

const { retries, delay, retryDelay, label } = RETRY_OVERRIDE_FIELDS;
const OVERRIDE_FIELDS: OverrideField<keyof OverridesDraft>[] = [
  retries,
  delay,
  retryDelay,
  { key: 'flowControlKey', label: 'Flow-control key', placeholder: 'tenant-42' },
  { key: 'flowControlValue', label: 'Flow-control value', placeholder: 'parallelism=2, rate=10, period=1m' },
  label,
  { key: 'failureCallback', label: 'Failure callback URL', placeholder: 'https://…' },
];

/** The runs a restart or resume created, each a link to its page. */
function NewRuns({ summary, open }: { summary: JobSummary; open: OpenElsewhere }) {
  return summary.created.length > 0 ? (
    <ScrollTable label="New runs" columns={['New run']}>
      {summary.created.slice(0, 200).map((run) => (
        <tr key={`${run.id}@${run.createdAt}`}>
          <td>
            <InAppLink
              href="#/workflows/runs"
              className="mono"
              onOpen={() => open('workflows', 'runs', run.id, String(run.createdAt ?? 0))}
            >
              {run.id}
            </InAppLink>
          </td>
        </tr>
      ))}
    </ScrollTable>
  ) : null;
}
