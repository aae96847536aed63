// Restart, resume, delete or retry the failure function of failed runs — a triage group, a hand
// selection, or every entry a filter matches — on the console's bulk-job flow (ui/bulk): this part
// explains each action, takes every override of the API, counts the entries, opens `workflows.dlq.bulk`
// (or continues a journal entry), and lists the runs it created; the job is in the journal either way.
import { useState } from 'react';
import type {
  BulkAction,
  BulkSummary,
  BulkTargetInput,
} from '../../../../../shared/bridge/procedures/workflows/dlq';
import { DLQ_ACTION_CHUNK } from '../../../../../shared/workflows/types';
import { useBridge, useBridgeQuery } from '../../../bridge/react';
import { useNav } from '../../../shell/nav';
import { BulkActionDialog, type BulkDialogProps } from '../../../ui/bulk/BulkActionDialog';
import { BulkCount } from '../../../ui/bulk/BulkCount';
import { BulkFailures } from '../../../ui/bulk/BulkFailures';
import { BulkResult } from '../../../ui/bulk/BulkResult';
import {
  type OverrideField,
  OverridesFieldset,
  RETRY_OVERRIDE_FIELDS,
} from '../../../ui/job/OverridesFieldset';
import { Segmented } from '../../../ui/fields';
import { plural } from '../../../ui/format';
import { InAppLink } from '../../../ui/InAppLink';
import { Callout } from '../../../ui/misc';
import {
  describeRunOverrides,
  EMPTY_OVERRIDES,
  type OverridesDraft,
  toRunOverrides,
} from './overrides-draft';
import { ScrollTable } from '../../../ui/ScrollTable';

export interface BulkJobRequest {
  action: BulkAction;
  target: BulkTargetInput;
  /** How the target reads in a sentence and in the journal. */
  description: string;
}

const ACTION_TEXT: Record<BulkAction, { verb: string; explain: string }> = {
  restart: {
    verb: 'Restart',
    explain:
      'Restart starts each run over from its first step with the same trigger payload and settings (a new run id). Every step runs again, so the workflow code may have changed anywhere.',
  },
  resume: {
    verb: 'Resume',
    explain:
      'Resume keeps the steps that completed and continues from the step that failed. The local stack goes on with the same run (same id; its page is marked "Resumed from the DLQ"); the summary lists each run as the service answered, same run or new. Change the workflow code only after the failed step: steps before it are not run again, and code that no longer matches them breaks the run.',
  },
  callback: {
    verb: 'Retry failure function',
    explain:
      'Sends the failure callback of each failed run again (for runs whose failure function itself failed). The runs stay in the DLQ.',
  },
  delete: {
    verb: 'Delete',
    explain:
      'Removes the entries from the DLQ for good. The runs stay failed and can no longer be restarted or resumed.',
  },
};

const runs = (count: number) => plural(count, 'run');

export function BulkJobDialog({
  profile,
  request,
  onClose,
  onChanged,
  resumeJobId,
}: BulkDialogProps<BulkJobRequest> & {
  /** Continue this journal entry instead of starting a new job. */
  resumeJobId?: string;
}) {
  const bridge = useBridge();
  const navigate = useNav((state) => state.navigate);
  const [action, setAction] = useState<BulkAction>(request.action);
  // Runs created before the dialog opened are the failed runs themselves (a resume that goes on with them).
  const [openedAt] = useState(() => Date.now());
  const [draft, setDraft] = useState<OverridesDraft>(EMPTY_OVERRIDES);
  const byFilter = 'filters' in request.target;
  const count = useBridgeQuery(
    'workflows.dlq.count',
    { profileId: profile.id, target: request.target },
    { enabled: byFilter && !resumeJobId, staleTime: 0, gcTime: 0 },
  );
  const total = 'dlqIds' in request.target ? new Set(request.target.dlqIds).size : count.data?.count;
  const { overrides, errors } = toRunOverrides(draft);
  const takesOverrides = action === 'restart' || action === 'resume';
  const { verb, explain } = ACTION_TEXT[action];
  const ready = resumeJobId
    ? true
    : total !== undefined && total > 0 && !(takesOverrides && Object.keys(errors).length > 0);

  return (
    <BulkActionDialog<BulkSummary>
      profile={profile}
      title={resumeJobId ? `Resume job: ${verb.toLowerCase()}` : `${verb} failed runs`}
      verb={verb}
      startLabel={resumeJobId ? 'Resume job' : total === undefined ? verb : `${verb} ${runs(total)}`}
      danger={action === 'delete'}
      ready={ready}
      preview={
        <>
          {!resumeJobId && (request.action === 'restart' || request.action === 'resume') ? (
            <Segmented
              label="Restart or resume"
              value={action}
              onChange={setAction}
              options={{ restart: 'Restart from the beginning', resume: 'Resume from the failed step' }}
            />
          ) : null}
          <Callout tone={action === 'delete' ? 'warning' : 'info'}>{explain}</Callout>
          {resumeJobId ? (
            <p>
              {verb} <strong>{request.description}</strong> from where the job stopped.
            </p>
          ) : (
            <BulkCount
              verb={verb}
              description={request.description}
              total={total}
              count={count}
              unit={runs}
            />
          )}
          <p className="muted">
            {total !== undefined && total > DLQ_ACTION_CHUNK
              ? `The job sends requests of up to ${DLQ_ACTION_CHUNK} runs; you can cancel between them and resume later from the journal. `
              : ''}
            {byFilter
              ? 'Entries that fail after the job starts may be included: the service applies the filter as it goes.'
              : ''}
          </p>
          {takesOverrides && !resumeJobId ? (
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
      start={(handlers) =>
        resumeJobId
          ? bridge.open('workflows.jobs.resume', { profileId: profile.id, jobId: resumeJobId }, handlers)
          : bridge.open(
              'workflows.dlq.bulk',
              {
                profileId: profile.id,
                action,
                target: request.target,
                overrides: takesOverrides ? overrides : {},
                description: request.description,
              },
              handlers,
            )
      }
      runningHint="Cancel stops before the next request; the journal keeps where the job got to."
      stoppedHint="Resume it from the Jobs tab."
      summary={(summary) => (
        <SummaryView
          summary={summary}
          openedAt={openedAt}
          overrides={takesOverrides ? describeRunOverrides(overrides) : []}
          onOpenRun={(runId, at) => {
            onClose();
            navigate('workflows', 'runs', runId, String(at));
          }}
          onOpenJournal={() => {
            onClose();
            navigate('workflows', 'jobs');
          }}
        />
      )}
      onClose={onClose}
      onChanged={onChanged}
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

function SummaryView({
  summary,
  openedAt,
  overrides,
  onOpenRun,
  onOpenJournal,
}: {
  summary: BulkSummary;
  /** When the dialog opened: a run created before is a failed run the job continued, not a new one. */
  openedAt: number;
  overrides: string[];
  onOpenRun: (runId: string, createdAt: number) => void;
  onOpenJournal: () => void;
}) {
  const allGood = summary.failures.length === 0;
  const verbed = {
    restart: 'restarted',
    resume: 'resumed',
    delete: 'deleted',
    callback: 'failure callbacks re-sent',
  }[summary.action];
  return (
    <div className="stack" data-testid="bulk-summary">
      <BulkResult total={summary.total} succeeded={summary.succeeded} verbed={verbed} allGood={allGood}>
        {summary.failures.length > 0 ? `${plural(summary.failures.length, 'failure')} — listed below. ` : ''}
        {overrides.length > 0 ? `Overrides: ${overrides.join(' · ')}. ` : ''}
        <InAppLink href="#/workflows/jobs" onOpen={() => onOpenJournal()}>
          In the journal
        </InAppLink>
        .
      </BulkResult>
      {summary.runs.length > 0 ? (
        <ScrollTable
          label={summary.action === 'restart' ? 'New runs' : 'Runs'}
          columns={summary.action === 'restart' ? ['New run'] : ['Run', 'As the service answered']}
        >
          {summary.runs.slice(0, 200).map((run) => (
            <tr key={`${run.workflowRunId}@${run.workflowCreatedAt}`}>
              <td>
                <InAppLink
                  href="#/workflows/runs"
                  className="mono"
                  onOpen={() => onOpenRun(run.workflowRunId, run.workflowCreatedAt)}
                >
                  {run.workflowRunId}
                </InAppLink>
              </td>
              {summary.action === 'restart' ? null : (
                // A run created before this job is the failed run itself, going on (the local stack's resume).
                <td className="faint">
                  {run.workflowCreatedAt < openedAt ? 'same run, continued' : 'a new run'}
                </td>
              )}
            </tr>
          ))}
        </ScrollTable>
      ) : null}
      <BulkFailures failures={summary.failures} />
    </div>
  );
}
