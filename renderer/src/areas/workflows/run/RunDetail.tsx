// One run: its header (state, URL, times, labels, invoker, DLQ id), the actions (cancel with a
// confirmation, notify a waiting run, trigger again with the same or an edited body, copy or export the
// run as JSON, compare, the run's messages in the message logs), the failure function, and the step tree
// beside the timeline with the selected step's details.
import { useMemo, useState } from 'react';
import { DETAIL_TRIM_BODY, FULL_BODY_BYTES } from '../../../../../shared/bridge/procedures/workflows/runs';
import type { ProfileView } from '../../../../../shared/profiles';
import type { WorkflowRunLog } from '../../../../../shared/workflows/types';
import { errorMessage } from '../../../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../../../bridge/react';
import { useNav } from '../../../shell/nav';
import { Button } from '../../../ui/Button';
import { confirmDanger } from '../../../ui/confirm-danger';
import { copyText } from '../../../ui/CopyButton';
import { DetailPanelHeader } from '../../../ui/DetailPanelHeader';
import { ErrorCallout } from '../../../ui/ErrorCallout';
import { FormDialog } from '../../../ui/FormDialog';
import { Fact } from '../../../ui/Fact';
import { Switch, TextareaField, TextField } from '../../../ui/fields';
import { formatTime, plural } from '../../../ui/format';
import { HeadersView } from '../../../ui/HeadersView';
import { InAppLink } from '../../../ui/InAppLink';
import { Spinner } from '../../../ui/misc';
import { toast } from '../../../ui/toast';
import { WriteButton } from '../../../ui/WriteButton';
import { showRunMessages } from '../../messages/logs/log-filters';
import { WfStateBadge } from '../StateBadge';
import { formatDuration } from './duration';
import { FailedAttempts } from './FailedAttempts';
import { runMessageIds } from './run-messages';
import { StepPanel } from './StepPanel';
import { StepsView } from './StepsView';
import { failedOnly, layoutRun } from './step-layout';
import { type BodyTrim, WfBody } from './WfBody';

export function downloadText(fileName: string, text: string, mimeType: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: mimeType }));
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(link.href);
}

export function RunDetail({
  profile,
  runId,
  createdAt,
  live,
  onClose,
  onChanged,
}: {
  profile: ProfileView;
  runId: string;
  createdAt?: number;
  live: boolean;
  onClose: () => void;
  onChanged: () => void;
}) {
  const navigate = useNav((state) => state.navigate);
  const [full, setFull] = useState(false);
  const query = useBridgeQuery(
    'workflows.runs.get',
    {
      profileId: profile.id,
      workflowRunId: runId,
      workflowCreatedAt: createdAt,
      trimBody: full ? FULL_BODY_BYTES : DETAIL_TRIM_BODY,
    },
    {
      refetchInterval: (q) => (live && q.state.data?.workflowState === 'RUN_STARTED' ? 2000 : false),
      placeholderData: (previous) => previous,
    },
  );
  const run = query.data;
  return (
    <aside className="detail-panel wf-detail" aria-label={`Run ${runId}`} data-testid="run-detail">
      <DetailPanelHeader
        id={runId}
        badge={run ? <WfStateBadge state={run.workflowState} /> : null}
        closeLabel="Close run"
        onClose={onClose}
      />
      {query.error ? (
        <div className="detail-panel-body">
          <ErrorCallout error={query.error} title="Could not load the run." />
        </div>
      ) : !run ? (
        <div className="detail-panel-body">
          <Spinner />
        </div>
      ) : (
        <RunBody
          profile={profile}
          run={run}
          trim={{
            trimmedAt: full ? undefined : DETAIL_TRIM_BODY,
            loadingFull: full && query.isFetching,
            onLoadFull: () => setFull(true),
          }}
          onOpenRun={(id, at) => navigate('workflows', 'runs', id, ...(at ? [String(at)] : []))}
          onOpenMessage={(messageId) => navigate('messages', 'logs', messageId)}
          onChanged={() => {
            void query.refetch();
            onChanged();
          }}
        />
      )}
    </aside>
  );
}

function RunBody({
  profile,
  run,
  trim,
  onOpenRun,
  onOpenMessage,
  onChanged,
}: {
  profile: ProfileView;
  run: WorkflowRunLog;
  trim: BodyTrim;
  onOpenRun: (runId: string, createdAt?: number) => void;
  onOpenMessage: (messageId: string) => void;
  onChanged: () => void;
}) {
  const navigate = useNav((state) => state.navigate);
  const layout = useMemo(() => layoutRun(run), [run]);
  const messageIds = useMemo(() => runMessageIds(run), [run]);
  const [onlyFailed, setOnlyFailed] = useState(false);
  const rows = useMemo(() => (onlyFailed ? failedOnly(layout.rows) : layout.rows), [layout, onlyFailed]);
  const [selectedKey, setSelectedKey] = useState<string | undefined>(() => {
    // Open on the step that matters: the failing or running one, else the last.
    const bad = layout.rows.find(
      (row) => row.kind === 'step' && (row.state === 'STEP_FAILED' || row.state === 'STEP_RETRY'),
    );
    return bad?.key ?? layout.stepKeys[layout.stepKeys.length - 1];
  });
  const selected = layout.rows.find((row) => row.key === selectedKey);
  const [dialog, setDialog] = useState<'notify' | 'trigger' | null>(null);
  const cancel = useBridgeMutation('workflows.runs.cancel', {
    onSuccess: ({ cancelled }) => {
      toast.success(
        cancelled ? 'Run canceled' : 'Nothing to cancel',
        cancelled ? undefined : 'The run had already ended.',
      );
      onChanged();
    },
    onError: (error) => toast.error('Cancel failed', errorMessage(error)),
  });
  const running = run.workflowState === 'RUN_STARTED';
  const labels = run.labels?.length ? run.labels : run.label ? [run.label] : [];
  const duration = (run.workflowRunCompletedAt ?? run.workflowRunCreatedAt) - run.workflowRunCreatedAt;
  const json = () => `${JSON.stringify(run, null, 2)}\n`;
  const pendingWait = layout.rows.find(
    (row) => row.step?.stepType === 'Wait' && row.step.waitTimeout === undefined,
  );

  return (
    <div className="detail-panel-body wf-detail-body">
      <dl className="wf-facts wf-run-facts">
        <Fact label="URL" mono value={run.workflowUrl} />
        <Fact label="Created">
          {formatTime(run.workflowRunCreatedAt)}{' '}
          <span className="faint mono">({run.workflowRunCreatedAt})</span>
        </Fact>
        <Fact label="Completed">
          {run.workflowRunCompletedAt
            ? `${formatTime(run.workflowRunCompletedAt)} · ${formatDuration(duration)}`
            : undefined}
        </Fact>
        <Fact label="Labels">
          {labels.length
            ? labels.map((label) => (
                <span key={label} className="chip chip-static">
                  {label}
                </span>
              ))
            : undefined}
        </Fact>
        <Fact label="Flow-control key" mono value={run.flowControlKey} />
        <Fact label="Caller IP" mono value={run.workflowRunCallerIp} />
        <Fact label="Invoked by">
          {run.invoker ? (
            <InAppLink
              href="#/workflows/runs"
              className="mono"
              onOpen={() => onOpenRun(run.invoker!.workflowRunId, run.invoker!.workflowRunCreatedAt)}
            >
              {run.invoker.workflowRunId}
            </InAppLink>
          ) : undefined}
        </Fact>
        <Fact label="DLQ id" mono value={run.dlqId} />
      </dl>

      <div className="row wf-actions">
        {running ? (
          <WriteButton
            profile={profile}
            size="sm"
            variant="danger"
            busy={cancel.isPending}
            onClick={async () => {
              const ok = await confirmDanger(profile, {
                title: 'Cancel this run?',
                body: 'The run stops before its next step and ends as canceled. Steps already running finish; nothing is undone.',
                confirmLabel: 'Cancel run',
                cancelLabel: 'Keep run',
              });
              if (ok) cancel.mutate({ profileId: profile.id, workflowRunIds: [run.workflowRunId] });
            }}
          >
            Cancel run
          </WriteButton>
        ) : null}
        {running ? (
          <WriteButton profile={profile} size="sm" onClick={() => setDialog('notify')}>
            Notify…
          </WriteButton>
        ) : null}
        <WriteButton profile={profile} size="sm" onClick={() => setDialog('trigger')}>
          Trigger again…
        </WriteButton>
        <Button
          size="sm"
          onClick={async () => {
            try {
              await copyText(json());
              toast.success('Run copied as JSON');
            } catch (error) {
              toast.error('Copy failed', errorMessage(error));
            }
          }}
        >
          Copy JSON
        </Button>
        <Button
          size="sm"
          onClick={() => downloadText(`${run.workflowRunId}.json`, json(), 'application/json')}
        >
          Export JSON
        </Button>
        <Button
          size="sm"
          onClick={() => navigate('workflows', 'compare', `${run.workflowRunId}@${run.workflowRunCreatedAt}`)}
        >
          Compare…
        </Button>
        {messageIds.length > 0 ? (
          <Button
            size="sm"
            variant="ghost"
            title={`Open the message logs filtered to this run's ${plural(messageIds.length, 'message')}`}
            onClick={() => {
              showRunMessages(run.workflowRunId, messageIds);
              navigate('messages', 'logs');
            }}
          >
            Messages in logs
          </Button>
        ) : null}
      </div>

      {run.workflowRunResponse !== undefined ? (
        <details className="wf-section">
          <summary className="section-title">Run response</summary>
          <WfBody value={run.workflowRunResponse} label="Run response" trim={trim} />
        </details>
      ) : null}

      {run.failureFunction ? <FailurePanel run={run} trim={trim} /> : null}

      <div className="row wf-steps-toolbar">
        <strong>{plural(layout.stepKeys.length, 'step')}</strong>
        <span className="toolbar-spacer" />
        <Switch label="Failed steps only" checked={onlyFailed} onChange={setOnlyFailed} />
      </div>
      <div className="wf-steps-split">
        <StepsView layout={layout} rows={rows} selectedKey={selectedKey} onSelect={setSelectedKey} />
        {selected ? (
          <StepPanel row={selected} trim={trim} onOpenRun={onOpenRun} onOpenMessage={onOpenMessage} />
        ) : null}
      </div>

      {dialog === 'notify' ? (
        <NotifyDialog
          profile={profile}
          run={run}
          eventId={pendingWait?.step?.waitEventId}
          onClose={() => setDialog(null)}
          onDone={onChanged}
        />
      ) : null}
      {dialog === 'trigger' ? (
        <TriggerDialog
          profile={profile}
          run={run}
          onClose={() => setDialog(null)}
          onStarted={(id) => {
            setDialog(null);
            onChanged();
            onOpenRun(id);
          }}
        />
      ) : null}
    </div>
  );
}

function FailurePanel({ run, trim }: { run: WorkflowRunLog; trim: BodyTrim }) {
  const ff = run.failureFunction!;
  return (
    <section className="wf-section wf-failure" aria-label="Failure function" data-testid="failure-function">
      <h4 className="section-title">
        Failure function <WfStateBadge state={ff.state} />
      </h4>
      <dl className="wf-facts">
        <Fact label="URL" mono value={ff.url} />
        <Fact label="Message" mono value={ff.messageId} />
        <Fact label="Failed step answered" mono value={ff.failStatus} />
        <Fact label="Callback answered" mono value={ff.responseStatus} />
        <Fact label="Retries (max)" value={ff.maxRetries} />
        <Fact label="Failed attempts" value={ff.errors?.length || undefined} />
        <Fact label="DLQ id" mono value={ff.dlqId} />
      </dl>
      {ff.failResponse ? (
        <>
          <h5 className="section-title">Response of the failed step</h5>
          <WfBody value={ff.failResponse} label="Failed step response" trim={trim} />
          <details>
            <summary className="faint">Response headers</summary>
            <HeadersView headers={ff.failHeaders} />
          </details>
        </>
      ) : null}
      {ff.responseBody ? (
        <>
          <h5 className="section-title">Failure function response</h5>
          <WfBody value={ff.responseBody} label="Failure function response" trim={trim} />
        </>
      ) : null}
      {ff.errors?.length ? <FailedAttempts errors={ff.errors} /> : null}
    </section>
  );
}

function NotifyDialog({
  profile,
  run,
  eventId: suggested,
  onClose,
  onDone,
}: {
  profile: ProfileView;
  run: WorkflowRunLog;
  eventId?: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const [eventId, setEventId] = useState(suggested ?? '');
  const [data, setData] = useState('{}');
  const [scoped, setScoped] = useState(true);
  const notify = useBridgeMutation('workflows.runs.notify', {
    onSuccess: (items) => {
      toast.success(
        items.length ? `Notified ${items.length} waiter${items.length === 1 ? '' : 's'}` : 'Event sent',
        items.length ? undefined : 'Nobody was waiting for it yet; a run-scoped event is kept for the run.',
      );
      onDone();
      onClose();
    },
  });
  return (
    <FormDialog
      onClose={onClose}
      title="Notify a waiting run"
      submitLabel="Send event"
      busy={notify.isPending}
      disabled={!eventId.trim()}
      onSubmit={() =>
        notify.mutate({
          profileId: profile.id,
          eventId: eventId.trim(),
          eventData: data,
          workflowRunId: scoped ? run.workflowRunId : undefined,
        })
      }
    >
      <TextField label="Event id" mono value={eventId} onChange={(event) => setEventId(event.target.value)} />
      <TextareaField
        label="Event data"
        className="mono"
        rows={6}
        value={data}
        spellCheck={false}
        onChange={(event) => setData(event.target.value)}
      />
      <Switch
        label="Only this run"
        description="Run-scoped: kept for this run if it waits later. Off: every run waiting for the event now."
        checked={scoped}
        onChange={setScoped}
      />
      <ErrorCallout error={notify.error} title="The service refused the event." />
    </FormDialog>
  );
}

function TriggerDialog({
  profile,
  run,
  onClose,
  onStarted,
}: {
  profile: ProfileView;
  run: WorkflowRunLog;
  onClose: () => void;
  onStarted: (runId: string) => void;
}) {
  const initial = run.steps[0]?.type !== 'next' ? run.steps[0]?.steps[0] : undefined;
  const [body, setBody] = useState(initial && 'out' in initial ? (initial.out ?? '') : '');
  const labels = run.labels?.length ? run.labels : run.label ? [run.label] : [];
  const [label, setLabel] = useState(labels.join(','));
  const trigger = useBridgeMutation('workflows.runs.trigger', {
    onSuccess: ({ workflowRunId }) => {
      toast.success('New run started', workflowRunId);
      onStarted(workflowRunId);
    },
  });
  return (
    <FormDialog
      onClose={onClose}
      title="Trigger this workflow again"
      className="dialog-wide"
      submitLabel="Start new run"
      busy={trigger.isPending}
      onSubmit={async () => {
        const ok = await confirmDanger(profile, {
          title: 'Start a new run?',
          body: `A new run of ${run.workflowUrl} starts with this body; its steps run against your app again.`,
          confirmLabel: 'Start run',
        });
        if (ok) {
          trigger.mutate({
            profileId: profile.id,
            workflowUrl: run.workflowUrl,
            body,
            label: label.trim() || undefined,
          });
        }
      }}
    >
      <p className="muted">
        Starts a new run of <span className="mono">{run.workflowUrl}</span>, the way the SDK&apos;s{' '}
        <code>client.trigger</code> does. The body below is this run&apos;s trigger payload; edit it to try a
        different input.
      </p>
      <TextareaField
        label="Body"
        className="mono"
        rows={8}
        value={body}
        spellCheck={false}
        onChange={(event) => setBody(event.target.value)}
      />
      <TextField
        label="Labels"
        mono
        value={label}
        placeholder="comma-separated"
        onChange={(event) => setLabel(event.target.value)}
      />
      <ErrorCallout error={trigger.error} title="The service refused the trigger." />
    </FormDialog>
  );
}
