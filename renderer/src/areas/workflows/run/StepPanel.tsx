// Everything the log says about one step: type and state, ids, retries and the next delivery, headers,
// the output, the call request and response of Call steps, the wait's event and timeout, the invoked run
// (a link), and every failed attempt with its error.
import type { StepError } from '../../../../../shared/workflows/types';
import { Fact } from '../../../ui/Fact';
import { formatRelative, formatTime } from '../../../ui/format';
import { HeadersView } from '../../../ui/HeadersView';
import { InAppLink } from '../../../ui/InAppLink';
import { WfStateBadge } from '../StateBadge';
import type { StepRow } from './step-layout';
import { type BodyTrim, WfBody } from './WfBody';
import { FailedAttempts } from './FailedAttempts';

export function StepPanel({
  row,
  trim,
  onOpenRun,
  onOpenMessage,
}: {
  row: StepRow;
  trim: BodyTrim;
  onOpenRun: (runId: string, createdAt?: number) => void;
  onOpenMessage: (messageId: string) => void;
}) {
  const step = row.step;
  const next = row.next;
  const messageId = step?.messageId ?? next?.messageId;
  const errors: StepError[] = step?.errors ?? next?.errors ?? [];
  const body = (value: string | undefined, label: string) => (
    <WfBody value={value} label={label} trim={trim} />
  );
  return (
    <section className="wf-step-panel" aria-label={`Step ${row.label}`} data-testid="step-panel">
      <h3 className="wf-step-title">
        {row.label} {row.state ? <WfStateBadge state={row.state} /> : null}
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
        <Fact label="Parallel branches" value={step && step.concurrent > 1 ? step.concurrent : undefined} />
        <Fact label="Retries (max)" value={step?.retries ?? next?.retries} />
        <Fact label="Retry delay" value={step?.retryDelay ?? next?.retryDelay} />
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
        <Fact label="Wait event" mono value={step?.waitEventId} />
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
