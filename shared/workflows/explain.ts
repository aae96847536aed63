// "Why not done": the reasons a run is not finished (or, for a canceled or failed run, how it ended), in
// words. One function for the run page, the run list and main's summaries, so a run reads the same everywhere.
// It works on any run record: the local stack's extra fields (`deliveries`, `history`) make the reasons
// precise (attempt times, flow control, who canceled); from the real service it says what its record allows.
import type {
  FailureFunctionState,
  NextStepLog,
  RunDelivery,
  RunHistoryEvent,
  RunRef,
  StepLog,
  WorkflowRunLog,
} from './types';

export type RunReason =
  | {
      kind: 'waiting';
      eventId: string;
      since?: number;
      deadline?: number;
      stepName?: string;
      webhook?: boolean;
    }
  | { kind: 'sleeping'; until: number; stepName?: string; messageId?: string }
  | {
      kind: 'retrying';
      /** This is retry number `retry` (the attempts so far failed `retry` times). */
      retry: number;
      maxRetries?: number;
      stepName?: string;
      at?: number;
      error?: string;
      messageId?: string;
      /** A context.call's request rather than a delivery to the app. */
      call?: boolean;
    }
  | {
      kind: 'held';
      key: string;
      ahead?: number;
      paused?: boolean;
      inflight?: number;
      parallelism?: number;
      rate?: number;
      periodMs?: number;
    }
  | { kind: 'delivering'; afterStep?: string; stepName?: string; since?: number; messageId?: string }
  | { kind: 'calling'; stepName?: string; url?: string; since?: number; messageId?: string }
  | { kind: 'scheduled'; at: number; messageId?: string }
  | { kind: 'queued'; since?: number; messageId?: string }
  | { kind: 'invoked'; child: RunRef; stepName?: string }
  | {
      kind: 'failureFunction';
      state: FailureFunctionState;
      retry?: number;
      at?: number;
      messageId?: string;
    }
  | { kind: 'canceled'; by?: Extract<RunHistoryEvent, { kind: 'canceled' }>; time?: number }
  | { kind: 'failed'; stepName?: string; error?: string; dlqId?: string }
  | { kind: 'unknown' };

export type RunReasonKind = RunReason['kind'];

/** Reasons that mean "an operator may want to act": shown in the warning colour, never in the error one. */
export const ATTENTION_KINDS: ReadonlySet<RunReasonKind> = new Set(['retrying', 'held', 'failed']);

const PENDING = new Set<RunDelivery['state']>(['scheduled', 'delivering', 'retrying']);

function lastWait(history: RunHistoryEvent[] | undefined, eventId: string) {
  let found: Extract<RunHistoryEvent, { kind: 'waitStarted' }> | undefined;
  for (const event of history ?? [])
    if (event.kind === 'waitStarted' && event.eventId === eventId) found = event;
  return found;
}

/** The SDK's error message of an error body (`{"error","message"}`), else the text as it is. */
export function errorMessageOf(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON
  }
  return body.slice(0, 300);
}

function fromDelivery(delivery: RunDelivery, now: number): RunReason {
  const { attempts } = delivery;
  const last = attempts[attempts.length - 1];
  const failed = attempts.filter((attempt) => attempt.end !== undefined && attempt.status !== 200).length;
  if (delivery.flowControl) {
    const { key, ahead, paused, inflight, parallelism, rate, periodMs } = delivery.flowControl;
    return { kind: 'held', key, ahead, paused, inflight, parallelism, rate, periodMs };
  }
  const call = delivery.kind === 'call';
  if (delivery.state === 'retrying') {
    return {
      kind: 'retrying',
      retry: failed,
      ...(delivery.maxRetries !== undefined ? { maxRetries: delivery.maxRetries } : {}),
      stepName: call ? delivery.afterStep : last?.stepName,
      ...(delivery.dueAt !== undefined ? { at: delivery.dueAt } : {}),
      error: last?.message ?? last?.error,
      messageId: delivery.messageId,
      ...(call ? { call } : {}),
    };
  }
  if (delivery.state === 'delivering') {
    return call
      ? {
          kind: 'calling',
          stepName: delivery.afterStep,
          url: delivery.url,
          since: last?.start,
          messageId: delivery.messageId,
        }
      : {
          kind: 'delivering',
          afterStep: delivery.afterStep,
          since: last?.start,
          messageId: delivery.messageId,
        };
  }
  const due = delivery.dueAt ?? delivery.createdAt;
  if (due > now) {
    if (delivery.afterStepType === 'SleepFor' || delivery.afterStepType === 'SleepUntil') {
      return { kind: 'sleeping', until: due, stepName: delivery.afterStep, messageId: delivery.messageId };
    }
    return { kind: 'scheduled', at: due, messageId: delivery.messageId };
  }
  if (call)
    return {
      kind: 'calling',
      stepName: delivery.afterStep,
      url: delivery.url,
      messageId: delivery.messageId,
    };
  return { kind: 'queued', since: due, messageId: delivery.messageId };
}

/** What a pending `next` item (or a parallel branch in progress) says, from the service's fields alone. */
function fromNext(item: NextStepLog | StepLog, now: number): RunReason {
  const errors = item.errors ?? [];
  const last = errors[errors.length - 1];
  if (item.state === 'STEP_RETRY') {
    return {
      kind: 'retrying',
      retry: Math.max(1, errors.length),
      maxRetries: item.retries,
      stepName: item.stepName,
      ...(item.nextDeliveryTime !== undefined ? { at: item.nextDeliveryTime } : {}),
      error: last ? (errorMessageOf(last.body) ?? last.error) : undefined,
      messageId: item.messageId,
      ...(item.stepType === 'Call' ? { call: true } : {}),
    };
  }
  if (item.nextDeliveryTime !== undefined && item.nextDeliveryTime > now) {
    if (item.stepType === 'SleepFor' || item.stepType === 'SleepUntil') {
      return {
        kind: 'sleeping',
        until: item.nextDeliveryTime,
        stepName: item.stepName,
        messageId: item.messageId,
      };
    }
    return { kind: 'scheduled', at: item.nextDeliveryTime, messageId: item.messageId };
  }
  return { kind: 'delivering', stepName: item.stepName, messageId: item.messageId };
}

/** The step a failed run failed at: the last one in `STEP_FAILED` (a recorded step or a `next` item). */
export function failedStepOf(run: WorkflowRunLog): StepLog | NextStepLog | undefined {
  return run.steps
    .flatMap((group): (StepLog | NextStepLog)[] => group.steps)
    .filter((step) => step.state === 'STEP_FAILED')
    .pop();
}

/** A step whose result is recorded (or a branch that has been planned) is no longer pending. */
function recordedSteps(run: WorkflowRunLog): StepLog[] {
  return run.steps.flatMap((group) => (group.type === 'next' ? [] : group.steps));
}

/**
 * Why the run is not done: one reason per thing it waits for (an event, a sleep, a retry, a flow-control key,
 * a call, an invoked run…), in that order; for a canceled run who canceled it, for a failed one where it
 * failed or its pending failure function. Empty for a run that succeeded.
 */
export function explainRun(run: WorkflowRunLog, now: number = Date.now()): RunReason[] {
  const history = run.history;
  if (run.workflowState === 'RUN_SUCCESS') return [];
  if (run.workflowState === 'RUN_CANCELED') {
    const by = history?.filter((event) => event.kind === 'canceled').pop() as
      Extract<RunHistoryEvent, { kind: 'canceled' }> | undefined;
    return [{ kind: 'canceled', ...(by ? { by } : {}), time: by?.time ?? run.workflowRunCompletedAt }];
  }
  if (run.workflowState === 'RUN_FAILED') {
    const ff = run.failureFunction;
    if (ff?.state === 'CALLBACK_INPROGRESS') {
      const delivery = run.deliveries?.find((candidate) => candidate.kind === 'failure');
      const retry =
        delivery?.attempts.filter((attempt) => attempt.end !== undefined).length ?? ff.errors?.length;
      return [
        {
          kind: 'failureFunction',
          state: ff.state,
          ...(retry ? { retry } : {}),
          ...((delivery?.dueAt ?? ff.nextDeliveryTime) !== undefined
            ? { at: delivery?.dueAt ?? ff.nextDeliveryTime }
            : {}),
          messageId: ff.messageId,
        },
      ];
    }
    const failedStep = failedStepOf(run);
    const errors = failedStep?.errors ?? [];
    const last = errors[errors.length - 1];
    // The SDK's message from the last failed attempt (local `deliveries` carry it whatever trimBody was).
    const attempt = run.deliveries
      ?.filter((delivery) => delivery.state === 'failed' && delivery.kind !== 'failure')
      .flatMap((delivery) => delivery.attempts)
      .pop();
    const error =
      attempt?.message ??
      ff?.failResponse ??
      (last ? (errorMessageOf(last.body) ?? last.error) : undefined) ??
      attempt?.error;
    return [
      {
        kind: 'failed',
        ...(failedStep?.stepName ? { stepName: failedStep.stepName } : {}),
        ...(error ? { error } : {}),
        ...(run.dlqId ? { dlqId: run.dlqId } : {}),
      },
    ];
  }

  const reasons: RunReason[] = [];
  const next = run.steps.flatMap((group) => (group.type === 'next' ? group.steps : []));
  for (const item of next) {
    if (!item.waitEventId || item.messageId) continue;
    const started = lastWait(history, item.waitEventId);
    reasons.push({
      kind: 'waiting',
      eventId: item.waitEventId,
      ...(started ? { since: started.time } : item.createdAt !== undefined ? { since: item.createdAt } : {}),
      ...(item.waitTimeoutDeadline !== undefined ? { deadline: item.waitTimeoutDeadline } : {}),
      ...(item.stepName ? { stepName: item.stepName } : {}),
      ...(started?.webhook || (item.stepType as string) === 'WaitForWebhook' ? { webhook: true } : {}),
    });
  }
  if (run.deliveries) {
    for (const delivery of run.deliveries) {
      if (delivery.kind !== 'failure' && PENDING.has(delivery.state))
        reasons.push(fromDelivery(delivery, now));
    }
  } else {
    for (const item of next) if (!item.waitEventId) reasons.push(fromNext(item, now));
    for (const step of recordedSteps(run)) {
      if (step.callType === 'parallelPlan' && (step.state === 'STEP_RETRY' || step.errors?.length)) {
        reasons.push(fromNext(step, now));
      }
    }
  }
  if (reasons.length === 0) {
    const invokeResults = new Set(
      recordedSteps(run)
        .filter((step) => step.stepType === 'Invoke')
        .map((step) => step.stepName),
    );
    const invoked = history?.filter(
      (event): event is Extract<RunHistoryEvent, { kind: 'invoked' }> =>
        event.kind === 'invoked' && !invokeResults.has(event.stepName ?? ''),
    );
    for (const event of invoked ?? []) {
      reasons.push({
        kind: 'invoked',
        child: event.child,
        ...(event.stepName ? { stepName: event.stepName } : {}),
      });
    }
  }
  return reasons.length > 0 ? reasons : [{ kind: 'unknown' }];
}

/** How the reasons show times (the renderer passes the user's clock format; tests a fixed one). */
export interface ReasonFormat {
  time(ms: number): string;
}

/** Text set as code in the reasons' and the history's Markdown-like strings. */
export const code = (text: string) => `\`${text}\``;

/** `text` on one line (white space folded), cut to `max` characters with an ellipsis. */
export function cut(text: string, max = 160): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function cancelerText(by: Extract<RunHistoryEvent, { kind: 'canceled' }> | undefined): string {
  if (!by) return 'Canceled (the service does not say by whom)';
  const from = by.callerIp ? ` from ${by.callerIp}` : '';
  if (by.agent?.startsWith('switchyard')) return `Canceled in this console${from}`;
  if (by.via === 'run') {
    return `Canceled by the workflow (context.cancel) or a cancel of this one run${by.agent ? `, ${by.agent}` : ''}${from}`;
  }
  return `Canceled by a cancel request${by.agent ? ` of ${by.agent}` : ' (no SDK named)'}${from}`;
}

/** The reason as one sentence. */
export function reasonText(reason: RunReason, format: ReasonFormat): string {
  const t = format.time;
  switch (reason.kind) {
    case 'waiting': {
      const what = reason.webhook
        ? `a call to webhook ${code(reason.eventId)}`
        : `event ${code(reason.eventId)}`;
      const since = reason.since !== undefined ? ` since ${t(reason.since)}` : '';
      const until = reason.deadline !== undefined ? ` (times out ${t(reason.deadline)})` : '';
      return `Waiting for ${what}${since}${until}`;
    }
    case 'sleeping':
      return `Sleeping until ${t(reason.until)}${reason.stepName ? ` (step ${code(reason.stepName)})` : ''}`;
    case 'retrying': {
      const of = reason.maxRetries !== undefined ? ` of ${reason.maxRetries}` : '';
      const step = reason.stepName
        ? ` of ${reason.call ? 'call' : 'step'} ${code(reason.stepName)}`
        : reason.call
          ? ' of a call'
          : '';
      const at = reason.at !== undefined ? ` at ${t(reason.at)}` : '';
      const after = reason.error ? ` after ${code(cut(reason.error))}` : '';
      return `Retry ${reason.retry}${of}${step}${at}${after}`;
    }
    case 'held': {
      const state = reason.paused
        ? 'paused'
        : reason.ahead !== undefined
          ? `${reason.ahead} ahead of it`
          : 'over its limits';
      const limits = [
        reason.parallelism !== undefined
          ? `parallelism ${reason.parallelism}, ${reason.inflight ?? 0} in flight`
          : '',
        reason.rate !== undefined
          ? `rate ${reason.rate} per ${Math.round((reason.periodMs ?? 1000) / 1000)} s`
          : '',
      ].filter(Boolean);
      return `Held by flow-control key ${code(reason.key)} (${state}${limits.length ? `; ${limits.join(', ')}` : ''})`;
    }
    case 'delivering': {
      const what = reason.stepName
        ? `step ${code(reason.stepName)}`
        : reason.afterStep
          ? `the step after ${code(reason.afterStep)}`
          : 'the next step';
      return `Running ${what} in the app${reason.since !== undefined ? ` since ${t(reason.since)}` : ''}`;
    }
    case 'calling':
      return `Calling ${reason.url ? code(reason.url) : 'a third party'}${reason.stepName ? ` for step ${code(reason.stepName)}` : ''}${reason.since !== undefined ? ` since ${t(reason.since)}` : ''}`;
    case 'scheduled':
      return `Next delivery scheduled for ${t(reason.at)}`;
    case 'queued':
      return `Due${reason.since !== undefined ? ` since ${t(reason.since)}` : ''}, waiting to be delivered`;
    case 'invoked':
      return `Waiting for invoked run ${code(reason.child.workflowRunId)}${reason.stepName ? ` (step ${code(reason.stepName)})` : ''}`;
    case 'failureFunction':
      return `Failure function pending${reason.retry ? ` (retry ${reason.retry}${reason.at !== undefined ? ` at ${t(reason.at)}` : ''})` : ''}`;
    case 'canceled':
      return `${cancelerText(reason.by)}${reason.time !== undefined ? ` at ${t(reason.time)}` : ''}`;
    case 'failed':
      return `Failed${reason.stepName ? ` at step ${code(reason.stepName)}` : ''}${reason.error ? `: ${code(cut(reason.error))}` : ''}`;
    case 'unknown':
      return 'Running; the service reports nothing pending';
  }
}
