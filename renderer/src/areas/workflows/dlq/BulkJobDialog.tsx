// Restart, resume, delete or retry the failure function of failed runs — a triage group, a hand
// selection, or every entry a filter matches — in one flow: preview (what each action does, every
// override of the API, how many entries, type-to-confirm on production), run (a bridge stream: chunks in
// main, a progress bar, Cancel stops before the next chunk; the job is in the journal either way), and a
// summary with each failure's text and the runs it created.
import { useEffect, useRef, useState } from 'react';
import type { BridgeErrorData } from '../../../../../shared/bridge/errors';
import type {
  BulkAction,
  BulkEvent,
  BulkSummary,
  BulkTargetInput,
} from '../../../../../shared/bridge/procedures/workflows/dlq';
import type { ProfileView } from '../../../../../shared/profiles';
import { DLQ_ACTION_CHUNK } from '../../../../../shared/workflows/types';
import { errorMessage } from '../../../bridge/client';
import { useBridge, useBridgeQuery } from '../../../bridge/react';
import { useNav } from '../../../shell/nav';
import { Button } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { Segmented, TextField } from '../../../ui/fields';
import { plural } from '../../../ui/format';
import { Callout, Spinner } from '../../../ui/misc';
import { ProgressBar } from '../../../ui/ProgressBar';
import {
  describeRunOverrides,
  EMPTY_OVERRIDES,
  type OverridesDraft,
  toRunOverrides,
} from './overrides-draft';

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
      'Resume keeps the steps that completed and continues from the step that failed (a new run id, the old results reused). Change the workflow code only after the failed step: steps before it are not run again, and code that no longer matches them breaks the run.',
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

type Phase =
  | { kind: 'preview' }
  | { kind: 'running'; progress?: Extract<BulkEvent, { type: 'progress' }> }
  | { kind: 'done'; summary: BulkSummary }
  | { kind: 'stopped'; progress?: Extract<BulkEvent, { type: 'progress' }> }
  | { kind: 'failed'; error: BridgeErrorData };

export function BulkJobDialog({
  profile,
  request,
  onClose,
  onChanged,
  resumeJobId,
}: {
  profile: ProfileView;
  request: BulkJobRequest;
  onClose: () => void;
  onChanged: () => void;
  /** Continue this journal entry instead of starting a new job. */
  resumeJobId?: string;
}) {
  const bridge = useBridge();
  const navigate = useNav((state) => state.navigate);
  const [action, setAction] = useState<BulkAction>(request.action);
  const [phase, setPhase] = useState<Phase>({ kind: 'preview' });
  const [draft, setDraft] = useState<OverridesDraft>(EMPTY_OVERRIDES);
  const [typed, setTyped] = useState('');
  const closeStream = useRef<(() => void) | null>(null);
  const byFilter = 'filters' in request.target;
  const count = useBridgeQuery(
    'workflows.dlq.count',
    { profileId: profile.id, target: request.target },
    { enabled: byFilter && !resumeJobId, staleTime: 0, gcTime: 0 },
  );
  const total = 'dlqIds' in request.target ? new Set(request.target.dlqIds).size : count.data?.count;
  const { overrides, errors } = toRunOverrides(draft);
  const takesOverrides = action === 'restart' || action === 'resume';
  const confirmWord = profile.env === 'prod' ? profile.name : undefined;
  const { verb, explain } = ACTION_TEXT[action];

  useEffect(() => () => closeStream.current?.(), []);

  const handlers = {
    onEvents: (events: BulkEvent[]) => {
      for (const event of events) {
        if (event.type === 'progress') setPhase({ kind: 'running', progress: event });
        else if (event.type === 'done') setPhase({ kind: 'done', summary: event.summary });
      }
    },
    onEnd: (error?: BridgeErrorData) => {
      closeStream.current = null;
      if (error) setPhase({ kind: 'failed', error });
      onChanged();
    },
  };
  const start = () => {
    setPhase({ kind: 'running' });
    closeStream.current = resumeJobId
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
        );
  };
  const stop = () => {
    closeStream.current?.();
    closeStream.current = null;
    setPhase((current) => ({
      kind: 'stopped',
      progress: current.kind === 'running' ? current.progress : undefined,
    }));
    onChanged();
  };

  const running = phase.kind === 'running';
  const blocked =
    profile.readOnly ||
    (!resumeJobId && (total === undefined || total === 0)) ||
    (takesOverrides && !resumeJobId && Object.keys(errors).length > 0) ||
    (confirmWord !== undefined && typed !== confirmWord);

  return (
    <Dialog
      open
      onClose={() => (running ? undefined : onClose())}
      title={resumeJobId ? `Resume job: ${verb.toLowerCase()}` : `${verb} failed runs`}
      className="dialog-wide"
      footer={
        phase.kind === 'preview' ? (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button variant={action === 'delete' ? 'danger' : 'primary'} disabled={blocked} onClick={start}>
              {resumeJobId ? 'Resume job' : total === undefined ? verb : `${verb} ${plural(total, 'run')}`}
            </Button>
          </>
        ) : running ? (
          <Button variant="danger" onClick={stop}>
            Cancel
          </Button>
        ) : (
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        )
      }
    >
      {phase.kind === 'preview' ? (
        <div className="stack" data-testid="bulk-preview">
          {!resumeJobId && (request.action === 'restart' || request.action === 'resume') ? (
            <Segmented
              label="Restart or resume"
              value={action}
              onChange={setAction}
              options={[
                { value: 'restart', label: 'Restart from the beginning' },
                { value: 'resume', label: 'Resume from the failed step' },
              ]}
            />
          ) : null}
          <Callout tone={action === 'delete' ? 'warning' : 'info'}>{explain}</Callout>
          <p>
            {verb} <strong>{request.description}</strong>
            {resumeJobId ? ' from where the job stopped.' : ': '}
            {resumeJobId ? null : total !== undefined ? (
              <strong data-testid="bulk-count">{plural(total, 'run')}</strong>
            ) : count.error ? null : (
              <span className="muted">
                <Spinner label="Counting" /> counting…
              </span>
            )}
            {count.data?.capped ? ' (at least; counting stopped there)' : ''}
          </p>
          {count.error ? (
            <Callout tone="danger" title="Could not count the entries.">
              {errorMessage(count.error)}
            </Callout>
          ) : null}
          {total === 0 && !resumeJobId ? (
            <Callout tone="info">Nothing to do: no entry matches.</Callout>
          ) : null}
          <p className="muted">
            {total !== undefined && total > DLQ_ACTION_CHUNK
              ? `The job sends requests of up to ${DLQ_ACTION_CHUNK} runs; you can cancel between them and resume later from the journal. `
              : ''}
            {byFilter
              ? 'Entries that fail after the job starts may be included: the service applies the filter as it goes.'
              : ''}
          </p>
          {takesOverrides && !resumeJobId ? (
            <OverridesFields draft={draft} errors={errors} onChange={setDraft} />
          ) : null}
          {profile.readOnly ? (
            <Callout tone="warning">This profile is read-only: the console will not send this.</Callout>
          ) : null}
          {confirmWord !== undefined ? (
            <TextField
              label={
                <>
                  Production profile: type <code>{confirmWord}</code> to confirm
                </>
              }
              value={typed}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => setTyped(event.target.value)}
            />
          ) : null}
        </div>
      ) : phase.kind === 'running' ? (
        <div className="stack" data-testid="bulk-running">
          <ProgressBar
            label={`${verb} progress`}
            value={phase.progress?.processed}
            max={phase.progress?.total || 1}
            tone={phase.progress && phase.progress.failed > 0 ? 'danger' : 'accent'}
          >
            {phase.progress
              ? `${phase.progress.processed.toLocaleString()} of ${phase.progress.total.toLocaleString()} processed · ${phase.progress.succeeded.toLocaleString()} succeeded${phase.progress.failed ? ` · ${phase.progress.failed} failed` : ''}`
              : 'Starting…'}
          </ProgressBar>
          <p className="faint">
            Cancel stops before the next request; the journal keeps where the job got to.
          </p>
        </div>
      ) : phase.kind === 'stopped' ? (
        <Callout tone="warning" title="Cancelled.">
          {phase.progress
            ? `${phase.progress.processed} of ${phase.progress.total} processed (${phase.progress.succeeded} succeeded). `
            : 'Nothing was processed yet. '}
          Resume it from the Jobs tab.
        </Callout>
      ) : phase.kind === 'failed' ? (
        <Callout tone="danger" title="The job stopped.">
          {phase.error.message}
        </Callout>
      ) : (
        <SummaryView
          summary={phase.summary}
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
    </Dialog>
  );
}

function OverridesFields({
  draft,
  errors,
  onChange,
}: {
  draft: OverridesDraft;
  errors: Partial<Record<keyof OverridesDraft, string>>;
  onChange: (draft: OverridesDraft) => void;
}) {
  const field = (key: keyof OverridesDraft, label: string, placeholder: string) => (
    <TextField
      label={label}
      value={draft[key]}
      error={errors[key]}
      mono
      placeholder={placeholder}
      onChange={(event) => onChange({ ...draft, [key]: event.target.value })}
    />
  );
  return (
    <fieldset className="overrides">
      <legend className="section-title">
        Overrides for the new runs (blank keeps the run&apos;s setting)
      </legend>
      <div className="form-grid overrides-grid">
        {field('retries', 'Retries', '3')}
        {field('delay', 'Delay', '10s, 5m')}
        {field('retryDelay', 'Retry delay expression', 'pow(2, retried) * 1000')}
        {field('flowControlKey', 'Flow-control key', 'tenant-42')}
        {field('flowControlValue', 'Flow-control value', 'parallelism=2, rate=10, period=1m')}
        {field('label', 'Labels', 'replay, nightly')}
        {field('failureCallback', 'Failure callback URL', 'https://…')}
      </div>
    </fieldset>
  );
}

function SummaryView({
  summary,
  overrides,
  onOpenRun,
  onOpenJournal,
}: {
  summary: BulkSummary;
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
      <ProgressBar
        label="Result"
        value={summary.succeeded}
        max={Math.max(1, summary.total, summary.succeeded)}
        tone={allGood ? 'success' : 'danger'}
      />
      <Callout
        tone={allGood ? 'success' : 'warning'}
        title={`${summary.succeeded} of ${summary.total} ${verbed}.`}
      >
        {summary.failures.length > 0 ? `${plural(summary.failures.length, 'failure')} — listed below. ` : ''}
        {overrides.length > 0 ? `Overrides: ${overrides.join(' · ')}. ` : ''}
        <a
          href="#/workflows/jobs"
          onClick={(event) => {
            event.preventDefault();
            onOpenJournal();
          }}
        >
          In the journal
        </a>
        .
      </Callout>
      {summary.runs.length > 0 ? (
        <div className="scroll-box">
          <table className="table table-compact" aria-label="New runs">
            <thead>
              <tr>
                <th>New run</th>
              </tr>
            </thead>
            <tbody>
              {summary.runs.slice(0, 200).map((run) => (
                <tr key={`${run.workflowRunId}@${run.workflowCreatedAt}`}>
                  <td>
                    <a
                      href="#/workflows/runs"
                      className="mono"
                      onClick={(event) => {
                        event.preventDefault();
                        onOpenRun(run.workflowRunId, run.workflowCreatedAt);
                      }}
                    >
                      {run.workflowRunId}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {summary.failures.length > 0 ? (
        <div className="scroll-box">
          <table className="table table-compact" aria-label="Failures">
            <thead>
              <tr>
                <th>DLQ id</th>
                <th>Why</th>
              </tr>
            </thead>
            <tbody>
              {summary.failures.map((failure, index) => (
                <tr key={`${failure.dlqId ?? 'chunk'}-${index}`}>
                  <td className="mono">{failure.dlqId ?? '(request)'}</td>
                  <td className="cell-wrap">{failure.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
