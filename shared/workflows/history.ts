// A run's history: one chronological list of everything that happened to it — how it was triggered, each
// delivery attempt with its status and duration, retries and their errors, sleeps, waits and the notify that
// ended them, calls, invokes, cancel, failure, the failure function, restart and resume (with the runs they
// link). Built from a run record: the local stack's `deliveries` and `history` fill in what the service's
// record alone lacks (attempt durations, who triggered or canceled, the links of a restart); without them
// the history holds what the record has and `complete` says what is missing.
import { tryParseDuration } from '../duration';
import { code, cut, errorMessageOf, failedStepOf } from './explain';
import { base64ToBytes } from '../kv/resp2';
import type { RunDelivery, RunHistoryEvent, RunRef, StepLog, WorkflowRunLog } from './types';

export type HistoryTone = 'success' | 'danger' | 'warning' | 'info' | 'neutral';

export interface HistoryEntry {
  /** Stable within the run. */
  key: string;
  time: number;
  kind:
    | 'triggered'
    | 'attempt'
    | 'retry'
    | 'step'
    | 'sleep'
    | 'wait'
    | 'notify'
    | 'call'
    | 'invoke'
    | 'canceled'
    | 'failed'
    | 'completed'
    | 'failureFunction'
    | 'restarted'
    | 'resumed';
  title: string;
  detail?: string;
  tone: HistoryTone;
  /** How long it took (an attempt, a sleep, a wait). */
  durationMs?: number;
  status?: number;
  messageId?: string;
  /** Another run this entry is about (restarted as/from, invoked, invoked by). */
  run?: RunRef;
  eventId?: string;
  /** A time the entry is about (when a retry is due, when a sleep ends). */
  at?: number;
}

export interface RunHistory {
  entries: HistoryEntry[];
  /** False when the service's record lacks the delivery attempts and trigger/cancel facts (the real service). */
  complete: boolean;
}

/** A SleepFor's duration: seconds, or a duration string as the SDK sends it ("1h", "30s"). */
export function sleepMs(value: unknown): number {
  if (typeof value === 'number') return value * 1000;
  const parsed =
    typeof value === 'string' ? tryParseDuration(value, { bareNumberAsSeconds: true }) : undefined;
  return parsed?.ok ? parsed.ms : 0;
}

/** A detail line: the text on one line, cut at 140 characters; none for no text. */
/**
 * A satisfied wait's `out`: the protocol keeps the event data base64-encoded there. Shown as its text when that
 * is UTF-8 (`{"ok":true}`, not `eyJvayI6dHJ1ZX0=`), as it came otherwise.
 */
function eventData(out: string | undefined): string | undefined {
  if (!out) return out;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(base64ToBytes(out));
  } catch {
    return out;
  }
}

function preview(text: string | undefined): string | undefined {
  return text ? cut(text, 140) : undefined;
}

const SOURCE_TEXT: Record<Extract<RunHistoryEvent, { kind: 'triggered' }>['source'], string> = {
  sdk: 'the SDK',
  console: 'this console (Trigger again)',
  endpoint: 'a request to the workflow endpoint',
  schedule: 'a schedule',
  message: 'a message delivered to the workflow endpoint',
  restart: 'a restart from the DLQ',
  resume: 'a resume from the DLQ',
  invoke: 'another run (context.invoke)',
  api: 'an API call',
};

function eventEntry(event: RunHistoryEvent, index: number, run: WorkflowRunLog): HistoryEntry {
  const key = `h${index}`;
  const by = (agent?: string, ip?: string) =>
    [agent ? agent : '', ip ? `from ${ip}` : ''].filter(Boolean).join(' ') || undefined;
  switch (event.kind) {
    case 'triggered': {
      const from = event.restartedFrom ?? event.resumedFrom;
      const how = event.restartedFrom ? 'restarted' : 'resumed';
      return {
        key,
        time: event.time,
        kind: 'triggered',
        title: `Triggered by ${SOURCE_TEXT[event.source]}${from ? `: ${how} from ${code(from.workflowRunId)}` : ''}`,
        detail: by(
          [
            event.agent,
            event.scheduleId ? `schedule ${event.scheduleId}` : '',
            event.messageId ? `message ${event.messageId}` : '',
          ]
            .filter(Boolean)
            .join(', '),
          event.callerIp,
        ),
        tone: 'info',
        ...(from
          ? { run: { workflowRunId: from.workflowRunId, workflowRunCreatedAt: from.workflowRunCreatedAt } }
          : {}),
        ...(!from && run.invoker
          ? {
              run: {
                workflowRunId: run.invoker.workflowRunId,
                workflowRunCreatedAt: run.invoker.workflowRunCreatedAt,
              },
            }
          : {}),
      };
    }
    case 'canceled':
      return {
        key,
        time: event.time,
        kind: 'canceled',
        title: event.agent?.startsWith('switchyard')
          ? 'Canceled in this console'
          : event.via === 'run'
            ? 'Canceled by the workflow (context.cancel) or a cancel of this run'
            : 'Canceled by a cancel request',
        detail: by(event.agent, event.callerIp),
        tone: 'neutral',
      };
    case 'restarted':
      return {
        key,
        time: event.time,
        kind: 'restarted',
        title: `Restarted from the DLQ as ${code(event.to.workflowRunId)}`,
        detail: event.dlqId ? `DLQ entry ${event.dlqId}` : undefined,
        tone: 'info',
        run: event.to,
      };
    case 'resumed':
      return {
        key,
        time: event.time,
        kind: 'resumed',
        // Without `to`: an earlier stack resumed the run in place.
        title: event.to
          ? `Resumed from the DLQ as ${code(event.to.workflowRunId)}: the new run keeps the steps that completed and sends the failed delivery again`
          : 'Resumed from the DLQ: the failed delivery goes again, the steps before it are kept',
        detail: `DLQ entry ${event.dlqId}`,
        tone: 'info',
        messageId: event.messageId,
        ...(event.to ? { run: event.to } : {}),
      };
    case 'waitStarted':
      return {
        key,
        time: event.time,
        kind: 'wait',
        title: `${event.webhook ? 'Waiting for a call to webhook' : 'Waiting for event'} ${code(event.eventId)}${event.stepName ? ` (step ${code(event.stepName)})` : ''}`,
        detail: `times out after ${event.timeout}`,
        tone: 'info',
        eventId: event.eventId,
      };
    case 'notified':
      return {
        key,
        time: event.time,
        kind: 'notify',
        title: `Event ${code(event.eventId)} ${event.kept ? 'sent before the run waited: kept for it' : 'notified'}${event.scoped ? ' (to this run)' : ''}`,
        detail: by(event.agent?.startsWith('switchyard') ? 'this console' : event.agent, event.callerIp),
        tone: 'info',
        eventId: event.eventId,
      };
    case 'webhookCalled':
      return {
        key,
        time: event.time,
        kind: 'notify',
        title: `Webhook ${code(event.eventId)} called (${event.method})${event.kept ? ': kept for the wait' : ''}`,
        detail: by(undefined, event.callerIp),
        tone: 'info',
        eventId: event.eventId,
      };
    case 'invoked':
      return {
        key,
        time: event.time,
        kind: 'invoke',
        title: `Invoked run ${code(event.child.workflowRunId)}${event.stepName ? ` (step ${code(event.stepName)})` : ''}`,
        tone: 'info',
        run: event.child,
      };
  }
}

function stepEntry(
  step: StepLog,
  key: string,
  sent: ReadonlySet<string> | undefined,
  now: number,
): HistoryEntry | undefined {
  const name = code(step.stepName);
  // A step a resumed run copied from the failed run has no message of its own: no link to a message nobody
  // sent. (The real service lists no deliveries: its steps keep their links.)
  const linked = !sent || (step.messageId !== undefined && sent.has(step.messageId));
  const base = { key, time: step.createdAt, ...(linked ? { messageId: step.messageId } : {}) };
  switch (step.stepType) {
    case 'Initial':
      return undefined;
    case 'SleepFor':
    case 'SleepUntil': {
      const until =
        step.stepType === 'SleepFor'
          ? step.createdAt + sleepMs(step.sleepFor)
          : Number(step.sleepUntil ?? 0) * 1000 || step.createdAt;
      const over = step.state !== 'STEP_PROGRESS' || until <= now;
      return {
        ...base,
        kind: 'sleep',
        title: over ? `Slept ${name}` : `Sleeping ${name}`,
        at: until,
        durationMs: Math.max(0, until - step.createdAt),
        tone: 'info',
      };
    }
    case 'Wait':
      return {
        ...base,
        kind: 'wait',
        title: `Wait ${name} for event ${code(step.waitEventId ?? '?')} ${step.waitTimeout ? 'timed out' : 'ended: the event arrived'}`,
        detail: step.waitTimeout ? undefined : preview(eventData(step.out)),
        tone: step.waitTimeout ? 'warning' : 'success',
        eventId: step.waitEventId,
      };
    case 'Call':
      return {
        ...base,
        kind: 'call',
        title: `Call ${name}: ${step.callMethod ?? 'GET'} ${step.callUrl ?? ''} answered ${step.callResponseStatus ?? '—'}`,
        detail: preview(step.callResponseBody ?? step.out),
        status: step.callResponseStatus,
        tone: step.callResponseStatus !== undefined && step.callResponseStatus >= 400 ? 'warning' : 'success',
      };
    case 'Invoke':
      return {
        ...base,
        kind: 'invoke',
        title: `Invoke ${name} returned${step.invokedWorkflowRunId ? ` from ${code(step.invokedWorkflowRunId)}` : ''}`,
        detail: preview(step.out),
        tone: 'success',
        ...(step.invokedWorkflowRunId
          ? {
              run: {
                workflowRunId: step.invokedWorkflowRunId,
                workflowRunCreatedAt: step.invokedWorkflowCreatedAt ?? 0,
              },
            }
          : {}),
      };
    default:
      if (step.callType === 'parallelPlan') return undefined;
      return {
        ...base,
        kind: 'step',
        title: `Step ${name} (${step.stepType}) finished${step.concurrent > 1 ? ' in parallel' : ''}`,
        detail: preview(step.out),
        tone: 'success',
      };
  }
}

const DELIVERY_WHAT: Record<RunDelivery['kind'], string> = {
  step: 'Delivery to the app',
  call: 'Call request',
  callback: "Delivery of the call's response to the app",
  failure: 'Failure function call',
};

function attemptEntries(delivery: RunDelivery, index: number, now: number): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  const what =
    delivery.kind === 'step' && delivery.afterStep
      ? `Delivery after ${code(delivery.afterStep)}`
      : DELIVERY_WHAT[delivery.kind];
  const target = delivery.kind === 'call' && delivery.url ? ` to ${delivery.url}` : '';
  const attempts = delivery.attempts;
  attempts.forEach((attempt, n) => {
    const key = `d${index}.a${n}`;
    const ok =
      attempt.end !== undefined &&
      attempt.status !== undefined &&
      attempt.status >= 200 &&
      attempt.status < 300;
    const numbered = attempts.length > 1 || !ok ? ` (attempt ${n + 1})` : '';
    if (attempt.end === undefined) {
      out.push({
        key,
        time: attempt.start,
        kind: 'attempt',
        title: `${what}${target}${numbered}: in progress`,
        durationMs: Math.max(0, now - attempt.start),
        tone: 'info',
        messageId: delivery.messageId,
      });
      return;
    }
    const step = attempt.stepName ? ` — step ${code(attempt.stepName)} threw` : '';
    out.push({
      key,
      time: attempt.start,
      kind: 'attempt',
      title: `${what}${target}${numbered}: ${attempt.status ?? 'no response'}${ok ? '' : step}`,
      detail: ok ? undefined : preview(attempt.message ?? attempt.error),
      durationMs: attempt.end - attempt.start,
      status: attempt.status,
      // A call's failure is its response (the run goes on with it), not an error of the run.
      tone: ok ? 'success' : delivery.kind === 'call' ? 'warning' : 'danger',
      messageId: delivery.messageId,
    });
    const following = attempts[n + 1];
    const retryAt =
      following?.start ??
      (n === attempts.length - 1 && delivery.state === 'retrying' ? delivery.dueAt : undefined);
    if (!ok && retryAt !== undefined) {
      out.push({
        key: `${key}.r`,
        time: attempt.end,
        kind: 'retry',
        title: `Retry ${n + 1}${delivery.maxRetries !== undefined ? ` of ${delivery.maxRetries}` : ''} ${following ? 'due' : 'scheduled'}`,
        at: retryAt,
        tone: 'warning',
        messageId: delivery.messageId,
      });
    }
  });
  if (delivery.state === 'canceled') {
    const end = attempts[attempts.length - 1]?.end ?? delivery.createdAt;
    out.push({
      key: `d${index}.c`,
      time: end,
      kind: 'canceled',
      title: `${what}: canceled`,
      tone: 'neutral',
      messageId: delivery.messageId,
    });
  }
  return out;
}

/** The attempts the service reports without the local `deliveries`: the errors of failed attempts. */
function errorEntries(run: WorkflowRunLog): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  run.steps.forEach((group, g) =>
    group.steps.forEach((step, s) =>
      (step.errors ?? []).forEach((error, e) =>
        out.push({
          key: `e${g}.${s}.${e}`,
          time: error.time,
          kind: 'attempt',
          title: `Attempt ${e + 1}${step.stepName ? ` of step ${code(step.stepName)}` : ''} failed: ${error.status || 'no response'}`,
          detail: preview(errorMessageOf(error.body) ?? error.error),
          status: error.status,
          tone: 'danger',
          messageId: step.messageId,
        }),
      ),
    ),
  );
  return out;
}

export function runHistory(run: WorkflowRunLog, now: number = Date.now()): RunHistory {
  const entries: HistoryEntry[] = [];
  const events = run.history ?? [];
  events.forEach((event, index) => entries.push(eventEntry(event, index, run)));
  if (!events.some((event) => event.kind === 'triggered')) {
    entries.push({
      key: 'start',
      time: run.workflowRunCreatedAt,
      kind: 'triggered',
      title: run.invoker ? `Invoked by ${code(run.invoker.workflowRunId)}` : 'Triggered',
      detail: run.workflowRunCallerIp ? `from ${run.workflowRunCallerIp}` : undefined,
      tone: 'info',
      ...(run.invoker
        ? {
            run: {
              workflowRunId: run.invoker.workflowRunId,
              workflowRunCreatedAt: run.invoker.workflowRunCreatedAt,
            },
          }
        : {}),
    });
  }
  // The messages the service sent (local stack); undefined when it lists none (the real service).
  const sent = run.deliveries && new Set(run.deliveries.map((delivery) => delivery.messageId));
  run.steps.forEach((group, g) => {
    if (group.type === 'next') return;
    group.steps.forEach((step, s) => {
      const entry = stepEntry(step, `s${g}.${s}`, sent, now);
      if (entry) entries.push(entry);
    });
  });
  if (run.deliveries)
    run.deliveries.forEach((delivery, index) => entries.push(...attemptEntries(delivery, index, now)));
  else entries.push(...errorEntries(run));

  const end = run.workflowRunCompletedAt;
  if (run.workflowState === 'RUN_SUCCESS' && end !== undefined) {
    entries.push({
      key: 'end',
      time: end,
      kind: 'completed',
      title: 'Completed',
      detail: preview(run.workflowRunResponse),
      tone: 'success',
    });
  } else if (run.workflowState === 'RUN_FAILED' && end !== undefined) {
    const failed = failedStepOf(run);
    entries.push({
      key: 'end',
      time: end,
      kind: 'failed',
      title: `Failed${failed?.stepName ? ` at step ${code(failed.stepName)}` : ''}: retries exhausted or the error was not retryable`,
      detail: run.dlqId ? `DLQ entry ${run.dlqId}` : undefined,
      tone: 'danger',
    });
  } else if (
    run.workflowState === 'RUN_CANCELED' &&
    end !== undefined &&
    !events.some((event) => event.kind === 'canceled')
  ) {
    entries.push({
      key: 'end',
      time: end,
      kind: 'canceled',
      title: 'Canceled (the service does not say by whom)',
      tone: 'neutral',
    });
  }
  const ff = run.failureFunction;
  if (ff && !run.deliveries?.some((delivery) => delivery.kind === 'failure')) {
    entries.push({
      key: 'ff',
      time: end ?? run.workflowRunCreatedAt,
      kind: 'failureFunction',
      title: `Failure function called: ${ff.state}`,
      detail: ff.responseStatus !== undefined ? `answered ${ff.responseStatus}` : undefined,
      tone: ff.state === 'CALLBACK_SUCCESS' ? 'success' : ff.state === 'CALLBACK_FAIL' ? 'danger' : 'info',
      messageId: ff.messageId,
    });
  }
  // Chronological; what was recorded first stays first among equal times (the trigger before its delivery).
  const order = new Map(entries.map((entry, index) => [entry, index]));
  entries.sort((a, b) => a.time - b.time || rank(a) - rank(b) || order.get(a)! - order.get(b)!);
  return { entries, complete: run.deliveries !== undefined && run.history !== undefined };
}

/** Among entries of the same millisecond: the trigger first, the end last. */
function rank(entry: HistoryEntry): number {
  if (entry.kind === 'triggered') return 0;
  if (entry.kind === 'completed' || entry.kind === 'failed') return 2;
  return 1;
}
