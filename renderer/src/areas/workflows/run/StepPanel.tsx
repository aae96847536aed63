// Everything the log says about one step: type and state, ids, retries and the next delivery, headers,
// the output, the call request and response of Call steps, the wait's event and timeout, the invoked run
// (a link), and every failed attempt with its error.
import { sleepMs } from '../../../../../shared/workflows/history';
import type { StepError, WorkflowRunLog } from '../../../../../shared/workflows/types';
import { FlowKeyFact } from '../../messages/flow-control/FlowKeyFact';
import { Fact } from '../../../ui/Fact';
import { formatRelative, formatTime } from '../../../ui/format';
import { HeadersView } from '../../../ui/HeadersView';
import { InAppLink } from '../../../ui/InAppLink';
import { WorkflowStateBadge } from '../WorkflowStateBadge';
import { formatDuration, retryDelayText } from './duration';
import type { StepRow } from './step-layout';
import { type BodyTrim, WfBody } from './WfBody';
import { FailedAttempts } from './FailedAttempts';

export function StepPanel({
  row,
  run,
  trim,
  onOpenRun,
  onOpenMessage,
}: {
  row: StepRow;
  /** The run (its local-only `deliveries` give the step's delivery attempts and durations). */
  run?: WorkflowRunLog;
  trim: BodyTrim;
  onOpenRun: (runId: string, createdAt?: number) => void;
  onOpenMessage: (messageId: string) => void;
}) {
  const step = row.step;
  const next = row.next;
  const messageId = step?.messageId ?? next?.messageId;
  // A wait in progress is a `next` item; a finished one a step: the same facts either way.
  const wait = step ?? next;
  const deliveries = (run?.deliveries ?? []).filter(
    (delivery) =>
      (messageId && delivery.messageId === messageId) ||
      (delivery.kind === 'call' && row.stepType === 'Call' && delivery.afterStep === row.label),
  );
  const errors: StepError[] = step?.errors ?? next?.errors ?? [];
  const body = (value: string | undefined, label: string) => (
    <WfBody value={value} label={label} trim={trim} />
  );
  return (
    <section className="wf-step-panel" aria-label={`Step ${row.label}`} data-testid="step-panel">
      <h3 className="wf-step-title">
        {row.label} {row.state ? <WorkflowStateBadge state={row.state} /> : null}
      </h3>
      <dl className="wf-facts">
        <Fact
          label="Type"
          value={row.stepType ?? (row.groupType === 'next' ? 'Not recorded yet' : undefined)}
        />
        <Fact label="Step id" value={step?.stepId} />
        <Fact label="Call type" value={step?.callType} />
        <Fact label="Message">
          {messageId ? (
            <InAppLink
              href={`#/messages/logs/${messageId}`}
              className="mono"
              onOpen={() => onOpenMessage(messageId)}
            >
              {messageId}
            </InAppLink>
          ) : undefined}
        </Fact>
        <Fact
          label="Recorded"
          value={step ? `${formatTime(step.createdAt)} (${formatRelative(step.createdAt)})` : undefined}
        />
        {next ? (
          <FlowKeyFact
            flowKey={run?.flowControlKey}
            messageId={next.messageId}
            pending={next.state === 'STEP_PROGRESS' || next.state === 'STEP_RETRY'}
          />
        ) : null}
        <Fact label="Parallel branches" value={step && step.concurrent > 1 ? step.concurrent : undefined} />
        <Fact label="Retries (max)" value={step?.retries ?? next?.retries} />
        <Fact label="Retry delay" mono value={retryDelayText(step?.retryDelay ?? next?.retryDelay)} />
        <Fact label="Next delivery">
          {row.nextDeliveryTime
            ? `${formatTime(row.nextDeliveryTime)} (${formatRelative(row.nextDeliveryTime)})`
            : undefined}
        </Fact>
        <Fact label="Sleep">
          {step?.sleepFor !== undefined
            ? `${typeof step.sleepFor === 'number' ? `${step.sleepFor} s` : step.sleepFor} (until ${formatTime(step.createdAt + sleepMs(step.sleepFor))})`
            : step?.sleepUntil !== undefined
              ? `until ${formatTime(Number(step.sleepUntil) * 1000)}`
              : undefined}
        </Fact>
        <Fact label="Wait event" mono value={wait?.waitEventId} />
        <Fact label="Waiting since">
          {next?.waitEventId && next.createdAt !== undefined
            ? `${formatTime(next.createdAt)} (${formatRelative(next.createdAt)})`
            : undefined}
        </Fact>
        <Fact label="Wait timeout">
          {wait?.waitTimeoutDuration || wait?.waitTimeoutDeadline
            ? `${wait.waitTimeoutDuration ?? ''}${wait.waitTimeoutDeadline ? ` (times out ${formatTime(wait.waitTimeoutDeadline)})` : ''}`
            : undefined}
        </Fact>
        <Fact label="Wait ended by">
          {step?.stepType === 'Wait' && step.waitTimeout !== undefined
            ? step.waitTimeout
              ? 'timeout'
              : 'notify'
            : undefined}
        </Fact>
        <Fact label="Invoked run">
          {step?.invokedWorkflowRunId ? (
            <InAppLink
              href="#/workflows/runs"
              className="mono"
              onOpen={() => onOpenRun(step.invokedWorkflowRunId!, step.invokedWorkflowCreatedAt)}
            >
              {step.invokedWorkflowRunId}
            </InAppLink>
          ) : undefined}
        </Fact>
        <Fact label="Invoked URL" mono value={step?.invokedWorkflowUrl} />
      </dl>

      {step && step.stepType !== 'SleepFor' && step.stepType !== 'SleepUntil' ? (
        <>
          <h4 className="section-title">{step.stepType === 'Initial' ? 'Trigger payload' : 'Output'}</h4>
          {body(step.out, `${row.label} output`)}
        </>
      ) : null}

      {step?.callUrl ? (
        <div className="wf-call">
          <h4 className="section-title">Call request</h4>
          <p className="mono">
            {step.callMethod ?? 'GET'} {step.callUrl}
          </p>
          <HeadersView headers={step.callHeaders} />
          {body(step.callBody, `${row.label} call request body`)}
          <h4 className="section-title">Call response</h4>
          {step.callResponseStatus !== undefined ? (
            <>
              <p>
                Status <strong className="mono">{step.callResponseStatus}</strong>
              </p>
              <HeadersView headers={step.callResponseHeaders} />
              {body(step.callResponseBody, `${row.label} call response body`)}
            </>
          ) : (
            <p className="faint">No response yet.</p>
          )}
        </div>
      ) : null}

      {step?.invokedWorkflowRunBody ? (
        <>
          <h4 className="section-title">Invoke body</h4>
          {body(step.invokedWorkflowRunBody, `${row.label} invoke body`)}
        </>
      ) : null}

      {deliveries.some((delivery) => delivery.attempts.length > 0) ? (
        <>
          <h4 className="section-title">Delivery attempts</h4>
          <ol className="wf-attempts" aria-label="Delivery attempts">
            {deliveries.flatMap((delivery) =>
              delivery.attempts.map((attempt, index) => (
                <li
                  key={`${delivery.messageId}-${index}`}
                  className={
                    attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300
                      ? 'wf-attempt wf-attempt-ok'
                      : attempt.end === undefined
                        ? 'wf-attempt wf-attempt-open'
                        : 'wf-attempt'
                  }
                >
                  <div className="wf-attempt-head">
                    <span className="mono">
                      {delivery.kind === 'call' ? 'call' : delivery.kind} #{index + 1}
                    </span>
                    <span className="mono">
                      {attempt.end === undefined ? 'in flight' : (attempt.status ?? 'no response')}
                    </span>
                    <span className="faint">{formatTime(attempt.start)}</span>
                    <span className="mono faint">
                      {attempt.end !== undefined ? formatDuration(attempt.end - attempt.start) : ''}
                    </span>
                  </div>
                  {attempt.message || attempt.error ? (
                    <div className="wf-attempt-error">{attempt.message ?? attempt.error}</div>
                  ) : null}
                </li>
              )),
            )}
          </ol>
        </>
      ) : null}

      {errors.length > 0 ? (
        <>
          <h4 className="section-title">Attempts that failed ({errors.length})</h4>
          <FailedAttempts
            errors={errors}
            body={(error, index) =>
              error.body ? body(error.body, `Attempt ${index + 1} response body`) : null
            }
          />
        </>
      ) : null}

      {step?.headers && Object.keys(step.headers).length > 0 ? (
        <details>
          <summary className="section-title">Delivery headers</summary>
          <HeadersView headers={step.headers} />
        </details>
      ) : null}
    </section>
  );
}
