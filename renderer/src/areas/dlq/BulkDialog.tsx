// Retry or delete DLQ entries — one, the selected ones, or every entry the filters match — as one flow:
// preview (how many entries, which overrides; type-to-confirm on production), run (a bridge stream:
// chunks of 100, a progress bar, Cancel closes the stream so no further chunk is sent), summary (every
// failure with the service's own text).
import { useEffect, useRef, useState } from 'react';
import type { BridgeErrorData } from '../../../../shared/bridge/errors';
import type {
  DlqBulkEvent,
  DlqBulkSummary,
  DlqTarget,
} from '../../../../shared/bridge/procedures/messages/dlq';
import type { RetryOverrides } from '../../../../shared/messages/overrides';
import type { ProfileView } from '../../../../shared/profiles';
import { errorMessage } from '../../bridge/client';
import { useBridge, useBridgeQuery } from '../../bridge/react';
import { useNav } from '../../shell/nav';
import { Button } from '../../ui/Button';
import { needsConfirmation } from '../../ui/confirm-danger';
import { Dialog } from '../../ui/Dialog';
import { TextareaField, TextField } from '../../ui/fields';
import { plural } from '../../ui/format';
import { Callout, Spinner } from '../../ui/misc';
import { ProgressBar } from '../../ui/ProgressBar';
import { describeOverrides, EMPTY_OVERRIDES, type OverridesDraft, toOverrides } from './overrides-form';

export interface BulkRequest {
  action: 'retry' | 'delete';
  target: DlqTarget;
  /** How the target reads in a sentence: "the 3 selected entries", "entries matching label nightly". */
  description: string;
}

type Phase =
  | { kind: 'preview' }
  | { kind: 'running'; collected?: number; progress?: Extract<DlqBulkEvent, { type: 'progress' }> }
  | { kind: 'done'; summary: DlqBulkSummary }
  | { kind: 'stopped'; progress?: Extract<DlqBulkEvent, { type: 'progress' }> }
  | { kind: 'failed'; error: BridgeErrorData };

export function BulkDialog({
  profile,
  request,
  onClose,
  onChanged,
}: {
  profile: ProfileView;
  request: BulkRequest;
  onClose: () => void;
  /** Called when the job ends or stops: the DLQ has changed. */
  onChanged: () => void;
}) {
  const bridge = useBridge();
  const navigate = useNav((state) => state.navigate);
  const [phase, setPhase] = useState<Phase>({ kind: 'preview' });
  const [draft, setDraft] = useState<OverridesDraft>(EMPTY_OVERRIDES);
  const [typed, setTyped] = useState('');
  const closeStream = useRef<(() => void) | null>(null);
  const { action, target } = request;
  const byFilter = 'filters' in target;
  const count = useBridgeQuery(
    'messages.dlq.count',
    { profileId: profile.id, filters: byFilter ? target.filters : {} },
    { enabled: byFilter, staleTime: 0, gcTime: 0 },
  );
  const total = byFilter ? count.data?.count : target.dlqIds.length;
  const { overrides, errors } = toOverrides(draft);
  const confirmWord = profile.env === 'prod' ? profile.name : undefined;
  const verb = action === 'retry' ? 'Retry' : 'Delete';

  // Leaving the dialog any way while the job runs closes the stream: the job stops before its next chunk.
  useEffect(() => () => closeStream.current?.(), []);

  const start = () => {
    setPhase({ kind: 'running' });
    closeStream.current = bridge.open(
      'messages.dlq.bulk',
      { profileId: profile.id, action, target, overrides: action === 'retry' ? overrides : {} },
      {
        onEvents: (events) => {
          for (const event of events) {
            if (event.type === 'collecting') setPhase({ kind: 'running', collected: event.found });
            else if (event.type === 'progress') setPhase({ kind: 'running', progress: event });
            else setPhase({ kind: 'done', summary: event.summary });
          }
        },
        onEnd: (error) => {
          closeStream.current = null;
          if (error) setPhase({ kind: 'failed', error });
          onChanged();
        },
      },
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
    total === undefined ||
    total === 0 ||
    profile.readOnly ||
    (action === 'retry' && Object.keys(errors).length > 0) ||
    (confirmWord !== undefined && typed !== confirmWord);

  return (
    <Dialog
      open
      onClose={() => (running ? undefined : onClose())}
      title={
        byFilter
          ? `${verb} matching DLQ entries`
          : total === 1
            ? `${verb} DLQ entry`
            : `${verb} selected DLQ entries`
      }
      className="dialog-wide"
      footer={
        phase.kind === 'preview' ? (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button variant={action === 'delete' ? 'danger' : 'primary'} disabled={blocked} onClick={start}>
              {total === undefined ? verb : `${verb} ${plural(total, 'entry', 'entries')}`}
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
        <>
          <p>
            {verb} <strong>{request.description}</strong>:{' '}
            {total !== undefined ? (
              <strong data-testid="bulk-count">{plural(total, 'entry', 'entries')}</strong>
            ) : count.error ? null : (
              <span className="muted">
                <Spinner label="Counting" /> counting…
              </span>
            )}
            {count.data?.capped ? ' (at least; counting stopped there)' : ''}.
          </p>
          {count.error ? (
            <Callout tone="danger" title="Could not count the entries.">
              {errorMessage(count.error)}
            </Callout>
          ) : null}
          {total === 0 ? <Callout tone="info">Nothing to do: no entry matches.</Callout> : null}
          <p className="muted">
            {action === 'retry'
              ? 'Each entry becomes a new message with a new id and is removed from the DLQ. '
              : 'The entries are removed for good; their messages are not delivered. '}
            {total !== undefined && total > 100
              ? `The job sends ${Math.ceil(total / 100)} requests of up to 100 entries; you can cancel between them.`
              : ''}
            {byFilter ? ' Entries that fail after the job starts are not included.' : ''}
          </p>
          {action === 'retry' ? <OverridesFields draft={draft} errors={errors} onChange={setDraft} /> : null}
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
          ) : needsConfirmation(profile) ? null : (
            <p className="faint">This profile does not ask before dangerous actions.</p>
          )}
        </>
      ) : phase.kind === 'running' ? (
        <RunningView phase={phase} verb={verb} />
      ) : phase.kind === 'stopped' ? (
        <Callout tone="warning" title="Cancelled.">
          {phase.progress
            ? `${phase.progress.processed} of ${phase.progress.total} entries were processed (${phase.progress.succeeded} succeeded). `
            : 'No entry was processed yet. '}
          A request already sent when you cancelled may still have completed; the list shows what is left.
        </Callout>
      ) : phase.kind === 'failed' ? (
        <Callout tone="danger" title="The job stopped.">
          {phase.error.message}
        </Callout>
      ) : (
        <SummaryView
          summary={phase.summary}
          overrides={action === 'retry' ? overrides : undefined}
          onOpenMessage={(messageId) => {
            onClose();
            navigate('messages', 'logs', messageId);
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
  const set = (key: keyof OverridesDraft) => (event: { target: { value: string } }) =>
    onChange({ ...draft, [key]: event.target.value });
  return (
    <fieldset className="overrides">
      <legend className="section-title">Overrides (blank keeps the original setting)</legend>
      <div className="form-grid overrides-grid">
        <TextField
          label="Retries"
          value={draft.retries}
          error={errors.retries}
          inputMode="numeric"
          placeholder="3"
          onChange={set('retries')}
        />
        <TextField
          label="Delay"
          value={draft.delay}
          error={errors.delay}
          mono
          placeholder="10s, 5m, 1h"
          onChange={set('delay')}
        />
        <TextField
          label="Retry delay expression"
          value={draft.retryDelay}
          error={errors.retryDelay}
          mono
          placeholder="pow(2, retried) * 1000"
          onChange={set('retryDelay')}
        />
        <TextField
          label="Timeout"
          value={draft.timeout}
          error={errors.timeout}
          mono
          placeholder="30s"
          onChange={set('timeout')}
        />
        <TextField
          label="Labels"
          value={draft.label}
          mono
          placeholder="replay, nightly"
          onChange={set('label')}
        />
        <TextareaField
          label="Headers for the destination"
          className="full overrides-headers"
          value={draft.headers}
          error={errors.headers}
          spellCheck={false}
          placeholder={'X-Replay: yes'}
          hint="One “Name: value” per line; replaces the original header of that name."
          onChange={set('headers')}
        />
      </div>
    </fieldset>
  );
}

function RunningView({ phase, verb }: { phase: Extract<Phase, { kind: 'running' }>; verb: string }) {
  const progress = phase.progress;
  return (
    <div className="stack" data-testid="bulk-running">
      <ProgressBar
        label={`${verb} progress`}
        value={progress?.processed}
        max={progress?.total ?? 1}
        tone={progress && progress.failed > 0 ? 'danger' : 'accent'}
      >
        {progress
          ? `${progress.processed.toLocaleString()} of ${progress.total.toLocaleString()} processed · ${progress.succeeded.toLocaleString()} succeeded${progress.failed ? ` · ${progress.failed} failed` : ''}`
          : phase.collected !== undefined
            ? `Listing the matching entries… ${phase.collected.toLocaleString()} found`
            : 'Starting…'}
      </ProgressBar>
      <p className="faint">Cancel stops before the next request of up to 100 entries.</p>
    </div>
  );
}

function SummaryView({
  summary,
  overrides,
  onOpenMessage,
}: {
  summary: DlqBulkSummary;
  overrides?: RetryOverrides;
  onOpenMessage: (messageId: string) => void;
}) {
  const verbed = summary.action === 'retry' ? 'retried' : 'deleted';
  const allGood = summary.failures.length === 0 && summary.notFound === 0;
  const retried = summary.retried.filter((entry) => entry.messageId);
  const changes = overrides ? describeOverrides(overrides) : [];
  return (
    <div className="stack" data-testid="bulk-summary">
      <ProgressBar
        label="Result"
        value={summary.succeeded}
        max={Math.max(1, summary.total)}
        tone={allGood ? 'success' : 'danger'}
      />
      <Callout
        tone={allGood ? 'success' : 'warning'}
        title={`${summary.succeeded} of ${summary.total} ${verbed}.`}
      >
        {summary.notFound > 0 ? `${summary.notFound} were already gone (retried, deleted or expired). ` : ''}
        {summary.failures.length > 0
          ? `${plural(summary.failures.length, 'entry', 'entries')} failed — listed below.`
          : ''}
        {changes.length > 0 ? ` Overrides: ${changes.join(' · ')}.` : ''}
      </Callout>
      {retried.length === 1 ? (
        <p>
          New message:{' '}
          <a
            href={`#/messages/logs/${retried[0]!.messageId}`}
            className="mono"
            onClick={(event) => {
              event.preventDefault();
              onOpenMessage(retried[0]!.messageId);
            }}
          >
            {retried[0]!.messageId}
          </a>{' '}
          — follow it in the logs.
        </p>
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
              {summary.failures.map((failure) => (
                <tr key={failure.dlqId}>
                  <td className="mono">{failure.dlqId}</td>
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
