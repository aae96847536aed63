// Everything the log says about one step: type and state, ids, retries and the next delivery, headers,
// the output, the call request and response of Call steps, the wait's event and timeout, the invoked run
// (a link), and every failed attempt with its error.
import type { ReactNode } from 'react';
import type { StepError } from '../../../../../shared/workflows/types';
import { formatRelative, formatTime } from '../../../ui/format';
import { HeadersView } from '../../../ui/HeadersView';
import { WfStateBadge } from '../StateBadge';
import type { StepRow } from './step-layout';
import { WfBody } from './WfBody';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  if (children === undefined || children === null || children === '') return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

export function StepPanel({
  row,
  trimmedAt,
  onLoadFull,
  loadingFull,
  onOpenRun,
  onOpenMessage,
}: {
  row: StepRow;
  trimmedAt?: number;
  onLoadFull: () => void;
  loadingFull: boolean;
  onOpenRun: (runId: string, createdAt?: number) => void;
  onOpenMessage: (messageId: string) => void;
}) {
  const step = row.step;
  const next = row.next;
  const messageId = step?.messageId ?? next?.messageId;
  const errors: StepError[] = step?.errors ?? next?.errors ?? [];
  const body = (value: string | undefined, label: string) => (
    <WfBody
      value={value}
      label={label}
      trimmedAt={trimmedAt}
      onLoadFull={onLoadFull}
      loadingFull={loadingFull}
    />
  );
  return (
    <section className="wf-step-panel" aria-label={`Step ${row.label}`} data-testid="step-panel">
      <h3 className="wf-step-title">
        {row.label} {row.state ? <WfStateBadge state={row.state} /> : null}
      </h3>
      <dl className="wf-facts">
        <Fact label="Type">
          {row.stepType ?? (row.groupType === 'next' ? 'Not recorded yet' : undefined)}
        </Fact>
        <Fact label="Step id">{step?.stepId}</Fact>
        <Fact label="Call type">{step?.callType}</Fact>
        <Fact label="Message">
          {messageId ? (
            <a
              href={`#/messages/logs/${messageId}`}
              className="mono"
              onClick={(event) => {
                event.preventDefault();
                onOpenMessage(messageId);
              }}
            >
              {messageId}
            </a>
          ) : undefined}
        </Fact>
        <Fact label="Recorded">
          {step ? `${formatTime(step.createdAt)} (${formatRelative(step.createdAt)})` : undefined}
        </Fact>
        <Fact label="Parallel branches">{step && step.concurrent > 1 ? step.concurrent : undefined}</Fact>
        <Fact label="Retries (max)">{step?.retries ?? next?.retries}</Fact>
        <Fact label="Retry delay">{step?.retryDelay ?? next?.retryDelay}</Fact>
        <Fact label="Next delivery">
          {row.nextDeliveryTime
            ? `${formatTime(row.nextDeliveryTime)} (${formatRelative(row.nextDeliveryTime)})`
            : undefined}
        </Fact>
        <Fact label="Sleep">
          {step?.sleepFor !== undefined
            ? `${step.sleepFor} s`
            : step?.sleepUntil !== undefined
              ? `until ${formatTime(step.sleepUntil * 1000)}`
              : undefined}
        </Fact>
        <Fact label="Wait event">
          {step?.waitEventId ? <span className="mono">{step.waitEventId}</span> : undefined}
        </Fact>
        <Fact label="Wait timeout">
          {step?.waitTimeoutDuration || step?.waitTimeoutDeadline
            ? `${step.waitTimeoutDuration ?? ''}${step.waitTimeoutDeadline ? ` (deadline ${formatTime(step.waitTimeoutDeadline)})` : ''}`
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
            <a
              href="#/workflows/runs"
              className="mono"
              onClick={(event) => {
                event.preventDefault();
                onOpenRun(step.invokedWorkflowRunId!, step.invokedWorkflowCreatedAt);
              }}
            >
              {step.invokedWorkflowRunId}
            </a>
          ) : undefined}
        </Fact>
        <Fact label="Invoked URL">
          {step?.invokedWorkflowUrl ? <span className="mono">{step.invokedWorkflowUrl}</span> : undefined}
        </Fact>
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

      {errors.length > 0 ? (
        <>
          <h4 className="section-title">Attempts that failed ({errors.length})</h4>
          <ol className="wf-attempts" aria-label="Failed attempts">
            {errors.map((error, index) => (
              <li key={`${error.time}-${index}`} className="wf-attempt">
                <div className="wf-attempt-head">
                  <span className="mono">#{index + 1}</span>
                  <span className="mono">{error.status || 'no response'}</span>
                  <span className="faint">{formatTime(error.time)}</span>
                </div>
                <div className="wf-attempt-error">{error.error}</div>
                {error.body ? body(error.body, `Attempt ${index + 1} response body`) : null}
              </li>
            ))}
          </ol>
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
