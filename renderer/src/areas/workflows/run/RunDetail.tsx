// One run: its header (state, URL, times, labels, invoker, DLQ id), the actions (cancel with a
// confirmation, notify a waiting run, restart or resume a failed run in the DLQ, trigger again with the same
// or an edited body, copy or export the run as JSON, compare, the run's messages in the message logs), the failure function, and the step tree
// beside the timeline with the selected step's details.
import { useMemo, useState } from 'react';
import { DETAIL_TRIM_BODY, FULL_BODY_BYTES } from '../../../../../shared/bridge/procedures/workflows/runs';
import type { ProfileView } from '../../../../../shared/profiles';
import { explainRun } from '../../../../../shared/workflows/explain';
import { runHistory } from '../../../../../shared/workflows/history';
import type { RunRef, WorkflowRunLog } from '../../../../../shared/workflows/types';
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
import {
  BoundTextField,
  type FormBinding,
  Segmented,
  Switch,
  TextareaField,
  TextField,
} from '../../../ui/fields';
import { formatTime, plural } from '../../../ui/format';
import { HeadersView } from '../../../ui/HeadersView';
import { InAppLink } from '../../../ui/InAppLink';
import { useJobDialog } from '../../../ui/job/useJobDialog';
import { Badge } from '../../../ui/misc';
import { failureOf, RefreshStatus, Waiting } from '../../../ui/Waiting';
import { toast } from '../../../ui/toast';
import { WriteButton } from '../../../ui/WriteButton';
import { FlowKeyFact } from '../../messages/flow-control/FlowKeyFact';
import { showRunMessages } from '../../messages/logs/log-filters';
import { WorkflowDlqJobDialog } from '../dlq/WorkflowDlqJobDialog';
import { WorkflowStateBadge } from '../WorkflowStateBadge';
import { formatDuration } from './duration';
import { FailedAttempts } from './FailedAttempts';
import { HistoryList } from './HistoryList';
import { runMessageIds } from './run-messages';
import { StepPanel } from './StepPanel';
import { StepsView } from './StepsView';
import { failedOnly, layoutRun } from './step-layout';
import { type BodyTrim, WfBody } from './WfBody';
import { WhyNotDone } from './WhyNotDone';
import { pollEvery } from '../../../bridge/polling';

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
  mode = 'panel',
  onClose,
  onChanged,
}: {
  profile: ProfileView;
  runId: string;
  createdAt?: number;
  live: boolean;
  /** Beside the run list (browsing), or the run's own full-width page. */
  mode?: 'panel' | 'page';
  /** Where the close button goes instead of back to the run list (the run's own page). */
  onClose?: () => void;
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
      refetchInterval: pollEvery((q) =>
        live && q.state.data?.workflowState === 'RUN_STARTED' ? 2000 : false,
      ),
      placeholderData: (previous) => previous,
    },
  );
  const run = query.data;
  // Another run (restarted or resumed from / as, invoked by): its page from a page, its panel from a list.
  const openRun = (id: string, at?: number) =>
    navigate('workflows', mode === 'page' ? 'run' : 'runs', id, ...(at ? [String(at)] : []));
  // The page is a region of the shell's one <main>, the panel beside a list a complementary landmark.
  const Container = mode === 'page' ? 'section' : 'aside';
  return (
    <Container
      className={mode === 'page' ? 'wf-run-page' : 'detail-panel wf-detail'}
      aria-label={`Run ${runId}`}
      data-testid={mode === 'page' ? 'run-page' : 'run-detail'}
    >
      <DetailPanelHeader
        kind={mode === 'page' ? 'Workflow run' : undefined}
        id={runId}
        badge={run ? <RunBadges run={run} onOpenRun={openRun} /> : null}
        closeLabel={mode === 'page' ? 'Back to the runs' : 'Close run'}
        onClose={onClose}
      >
        {mode === 'panel' ? (
          <Button
            size="sm"
            onClick={() =>
              navigate('workflows', 'run', runId, ...(run ? [String(run.workflowRunCreatedAt)] : []))
            }
          >
            Open page
          </Button>
        ) : null}
      </DetailPanelHeader>
      {failureOf(query.error) ? (
        <div className="detail-panel-body">
          <ErrorCallout error={query.error} title="Could not load the run." />
        </div>
      ) : !run ? (
        <div className="detail-panel-body">
          <Waiting query={query} />
        </div>
      ) : (
        <>
          <RefreshStatus query={query} />
          <RunBody
            profile={profile}
            run={run}
            mode={mode}
            trim={{
              trimmedAt: full ? undefined : DETAIL_TRIM_BODY,
              loadingFull: full && query.isFetching,
              onLoadFull: () => setFull(true),
            }}
            onOpenRun={openRun}
            onOpenMessage={(messageId) => navigate('messages', 'logs', messageId)}
            onChanged={() => {
              void query.refetch();
              onChanged();
            }}
          />
        </>
      )}
    </Container>
  );
}

/** The run's state, and the markers of a restart or a resume from the DLQ, each naming the other run. */
function RunBadges({
  run,
  onOpenRun,
}: {
  run: WorkflowRunLog;
  onOpenRun: (runId: string, createdAt?: number) => void;
}) {
  const events = run.history ?? [];
  const triggered = events.find((event) => event.kind === 'triggered');
  const resumes = events.filter((event) => event.kind === 'resumed');
  // Resumed in place (same id) by an earlier stack: no new run to name.
  const resumedInPlace = resumes.filter((event) => !event.to).length;
  const resumedAs = resumes.find((event) => event.to)?.to;
  const restartedAs = events.find((event) => event.kind === 'restarted')?.to;
  const link = (other: RunRef) => (
    <InAppLink
      href={`#/workflows/run/${encodeURIComponent(other.workflowRunId)}`}
      className="badge-id"
      onOpen={() => onOpenRun(other.workflowRunId, other.workflowRunCreatedAt)}
    >
      {other.workflowRunId}
    </InAppLink>
  );
  return (
    <span className="row wf-run-badges">
      <WorkflowStateBadge state={run.workflowState} />
      {triggered?.restartedFrom ? (
        <Badge tone="info">Restarted from {link(triggered.restartedFrom)}</Badge>
      ) : null}
      {triggered?.resumedFrom ? <Badge tone="info">Resumed from {link(triggered.resumedFrom)}</Badge> : null}
      {resumedInPlace ? (
        <Badge tone="info">Resumed from the DLQ{resumedInPlace > 1 ? ` ×${resumedInPlace}` : ''}</Badge>
      ) : null}
      {resumedAs ? <Badge>Resumed as {link(resumedAs)}</Badge> : null}
      {restartedAs ? <Badge>Restarted as {link(restartedAs)}</Badge> : null}
    </span>
  );
}

function RunBody({
  profile,
  run,
  mode,
  trim,
  onOpenRun,
  onOpenMessage,
  onChanged,
}: {
  profile: ProfileView;
  run: WorkflowRunLog;
  mode: 'panel' | 'page';
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
  // Restart or resume this run from the DLQ: the triage screen's job, for this one entry.
  const [dlqJob, openDlqJob] = useJobDialog(WorkflowDlqJobDialog, profile, onChanged);
  const [notifyEvent, setNotifyEvent] = useState<string>();
  const [view, setView] = useState<'steps' | 'history'>('steps');
  const reasons = useMemo(() => explainRun(run), [run]);
  // Built when shown: a 1,000-step run's history is thousands of entries, and the page opens on its steps.
  const history = useMemo(() => (view === 'history' ? runHistory(run) : undefined), [run, view]);
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
  // The event the run waits for now (the notify dialog opens with it).
  const waitingFor = reasons.find((reason) => reason.kind === 'waiting' && !reason.webhook);
  const pendingEventId = waitingFor?.kind === 'waiting' ? waitingFor.eventId : undefined;

  return (
    <div className={mode === 'page' ? 'wf-run-page-body' : 'detail-panel-body wf-detail-body'}>
      <WhyNotDone
        profile={profile}
        runId={run.workflowRunId}
        reasons={reasons}
        onNotify={(eventId) => {
          setNotifyEvent(eventId);
          setDialog('notify');
        }}
        onOpenRun={onOpenRun}
      />
      <dl className="wf-facts wf-run-facts">
        <UrlFact url={run.workflowUrl} />
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
        <FlowKeyFact
          flowKey={run.flowControlKey}
          messageId={run.steps.find((group) => group.type === 'next')?.steps[0]?.messageId}
          pending={running}
        />
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
          <WriteButton
            profile={profile}
            size="sm"
            onClick={() => {
              setNotifyEvent(pendingEventId);
              setDialog('notify');
            }}
          >
            Notify…
          </WriteButton>
        ) : null}
        {run.dlqId ? (
          <WriteButton
            profile={profile}
            size="sm"
            variant="primary"
            onClick={() =>
              // Resume first: from a failed run's own page, going on from the failed step is what one
              // usually wants; the dialog offers the restart beside it.
              openDlqJob({
                action: 'resume',
                target: { ids: [run.dlqId!] },
                description: `run ${run.workflowRunId}`,
              })
            }
          >
            Restart / resume…
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
        <Segmented
          label="Run view"
          value={view}
          onChange={setView}
          options={{
            steps: plural(layout.stepKeys.length, 'step'),
            history: `History${history ? ` (${history.entries.length.toLocaleString()})` : ''}`,
          }}
        />
        <span className="toolbar-spacer" />
        {view === 'steps' ? (
          <Switch label="Failed steps only" checked={onlyFailed} onChange={setOnlyFailed} />
        ) : null}
      </div>
      {view === 'history' && history ? (
        <HistoryList
          history={history}
          start={run.workflowRunCreatedAt}
          onOpenRun={(ref) => onOpenRun(ref.workflowRunId, ref.workflowRunCreatedAt || undefined)}
          onOpenMessage={onOpenMessage}
        />
      ) : (
        <div className="wf-steps-split">
          <StepsView layout={layout} rows={rows} selectedKey={selectedKey} onSelect={setSelectedKey} />
          {selected ? (
            <StepPanel
              key={selected.key}
              row={selected}
              run={run}
              trim={trim}
              onOpenRun={onOpenRun}
              onOpenMessage={onOpenMessage}
            />
          ) : null}
        </div>
      )}

      {dlqJob}
      {dialog === 'notify' ? (
        <NotifyDialog
          profile={profile}
          run={run}
          eventId={notifyEvent}
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

/** The URL the run (or its failure function) calls: cut to the panel's width, whole in its tooltip. */
function UrlFact({ url }: { url: string }) {
  return (
    <Fact label="URL">
      <span className="mono truncate" title={url}>
        {url}
      </span>
    </Fact>
  );
}

function FailurePanel({ run, trim }: { run: WorkflowRunLog; trim: BodyTrim }) {
  const ff = run.failureFunction!;
  return (
    <section className="wf-section wf-failure" aria-label="Failure function" data-testid="failure-function">
      <h3 className="section-title">
        Failure function <WorkflowStateBadge state={ff.state} />
      </h3>
      <dl className="wf-facts">
        <UrlFact url={ff.url} />
        <Fact label="Message" mono value={ff.messageId} />
        <Fact label="Failed step answered" mono value={ff.failStatus} />
        <Fact label="Callback answered" mono value={ff.responseStatus} />
        <Fact label="Retries (max)" value={ff.maxRetries} />
        <Fact label="Failed attempts" value={ff.errors?.length || undefined} />
        <Fact label="DLQ id" mono value={ff.dlqId} />
      </dl>
      {ff.failResponse ? (
        <>
          <h4 className="section-title wf-failure-part">Response of the failed step</h4>
          <WfBody value={ff.failResponse} label="Failed step response" trim={trim} />
          <details>
            <summary className="faint">Response headers</summary>
            <HeadersView headers={ff.failHeaders} />
          </details>
        </>
      ) : null}
      {ff.responseBody ? (
        <>
          <h4 className="section-title wf-failure-part">Failure function response</h4>
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
        mono
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

/** The original run's settings, as Trigger again sends them (shared/workflows: the Initial step's fields). */
export function triggerSettings(run: WorkflowRunLog) {
  const initial = run.steps[0]?.type !== 'next' ? run.steps[0]?.steps[0] : undefined;
  const headers: Record<string, string> = {};
  let contentType = 'application/json';
  for (const [name, values] of Object.entries(initial?.headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'content-type') contentType = values[0] ?? contentType;
    // Upstash-* headers are the service's (the SDK version, the label): the trigger sets those itself.
    else if (!lower.startsWith('upstash-')) headers[name] = values.join(', ');
  }
  const labels = run.labels?.length ? run.labels : run.label ? [run.label] : [];
  return {
    body: initial && 'out' in initial ? (initial.out ?? '') : '',
    contentType,
    label: labels.join(','),
    retries: initial?.retries !== undefined ? String(initial.retries) : '',
    retryDelay: initial?.retryDelay ?? '',
    flowControlKey: run.flowControlKey ?? '',
    headers: Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
    failureUrl:
      run.failureFunction?.url && run.failureFunction.url !== run.workflowUrl ? run.failureFunction.url : '',
  };
}

/** A JSON body that does not parse: the reason, else undefined (text bodies are not checked). */
export function bodyProblem(body: string, contentType: string): string | undefined {
  if (!/json/i.test(contentType) || body.trim() === '') return undefined;
  try {
    JSON.parse(body);
    return undefined;
  } catch (error) {
    return `The body is not valid JSON (${error instanceof Error ? error.message : String(error)}). Fix it, or set the content type to text/plain to send it as text.`;
  }
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
  const [form, setForm] = useState(() => ({ ...triggerSettings(run), flowControlValue: '' }));
  const bound: FormBinding<typeof form> = {
    values: form,
    set: (patch) => setForm((current) => ({ ...current, ...patch })),
  };
  /** The body's and the headers' textareas, bound to the form as BoundTextField binds the other fields. */
  const codeArea = (key: 'body' | 'headers') => ({
    mono: true,
    spellCheck: false,
    value: form[key],
    onChange: (event: { target: { value: string } }) => bound.set({ [key]: event.target.value }),
  });
  const problem = bodyProblem(form.body, form.contentType);
  const headerLines = form.headers.split('\n').filter((line) => line.trim() !== '');
  const badHeader = headerLines.find((line) => !/^[^:\s]+:/.test(line));
  const retries = form.retries.trim();
  const badRetries = retries !== '' && !/^\d{1,3}$/.test(retries);
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
      disabled={Boolean(problem || badHeader || badRetries)}
      onSubmit={async () => {
        const ok = await confirmDanger(profile, {
          title: 'Start a new run?',
          body: `A new run of ${run.workflowUrl} starts with this body; its steps run against your app again.`,
          confirmLabel: 'Start run',
        });
        if (!ok) return;
        const headers = Object.fromEntries(
          headerLines.map((line) => {
            const at = line.indexOf(':');
            return [line.slice(0, at).trim(), line.slice(at + 1).trim()];
          }),
        );
        trigger.mutate({
          profileId: profile.id,
          workflowUrl: run.workflowUrl,
          body: form.body,
          contentType: form.contentType.trim() || undefined,
          label: form.label.trim() || undefined,
          retries: retries === '' ? undefined : Number(retries),
          retryDelay: form.retryDelay.trim() || undefined,
          flowControlKey: form.flowControlKey.trim() || undefined,
          flowControlValue: form.flowControlValue.trim() || undefined,
          headers: headerLines.length > 0 ? headers : undefined,
          failureUrl: form.failureUrl.trim() || undefined,
        });
      }}
    >
      <p className="muted">
        Starts a new run of <span className="mono">{run.workflowUrl}</span>, the way the SDK&apos;s{' '}
        <code>client.trigger</code> does, with this run&apos;s payload and settings (retries, retry delay,
        flow control, labels, headers). Edit any of them to try something different.
      </p>
      <TextareaField label="Body" rows={8} error={problem} {...codeArea('body')} />
      <div className="wf-trigger-grid">
        <BoundTextField form={bound} name="contentType" label="Content type" mono />
        <BoundTextField form={bound} name="label" label="Labels" mono placeholder="comma-separated" />
        <BoundTextField
          form={bound}
          name="retries"
          label="Retries"
          mono
          placeholder="the service's default (3)"
          error={badRetries ? 'A whole number from 0 to 999.' : undefined}
        />
        <BoundTextField
          form={bound}
          name="retryDelay"
          label="Retry delay"
          mono
          placeholder="e.g. 1000 * pow(2, retried)"
        />
        <BoundTextField form={bound} name="flowControlKey" label="Flow-control key" mono />
        <BoundTextField
          form={bound}
          name="flowControlValue"
          label="Flow-control value"
          mono
          placeholder="parallelism=1, rate=10, period=1m"
          hint={
            form.flowControlKey ? "The service does not report the key's limits: give them again." : undefined
          }
        />
        <BoundTextField
          form={bound}
          name="failureUrl"
          label="Failure URL"
          mono
          placeholder="the workflow URL (the SDK's default)"
        />
      </div>
      <TextareaField
        label="Headers forwarded to the app"
        rows={3}
        placeholder="Name: value, one a line"
        error={badHeader ? `Not a header line: ${badHeader}` : undefined}
        {...codeArea('headers')}
      />
      <ErrorCallout error={trigger.error} title="The service refused the trigger." />
    </FormDialog>
  );
}
