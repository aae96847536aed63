// Builds the run record the logs answer with (shared/workflows/types.ts WorkflowRunLog) from a run, its log,
// the delivery history of its messages (every failed attempt is an ERROR event) and its waiters.
import type {
  FlowControlHold,
  NextStepLog,
  RunDelivery,
  RunHistoryEvent,
  StepError,
  StepLog,
  StepLogGroup,
  WorkflowRunLog,
} from '../../shared/workflows/types';
import type { HeaderMap } from '../../shared/messages/types';
import { tryParseDuration } from '../../shared/duration';
import { redacted, redactHeaders } from '../messages/records';
import type { LogEntry, MessageHistory, RunRecord, WorkflowStore } from '../store/workflow-store';
import { delivery } from './deliveries';

/**
 * What a record needs beyond the store: the time, the engine's view of held deliveries, and the run's
 * history events (the local-only fields `deliveries` and `history`).
 */
export interface RecordLive {
  now: number;
  flowHold?(messageId: string): FlowControlHold | undefined;
  /** The start of a message's attempt in flight, before its ACTIVE event is written. */
  inflightSince?(messageId: string): number | undefined;
  history?(runSeq: number): RunHistoryEvent[];
  /**
   * The retry delay a step shows when its run set none: the engine's default backoff as an expression (the
   * SDK's own test reads `retryDelay` as a string on every step).
   */
  defaultRetryDelay?: string;
}

/** A run log as the SDK reads it (deliveries and the lazy fetch): `[{messageId, body: base64, callType}]`. */
export function rawSteps(entries: LogEntry[]): RawStep[] {
  return entries.map(rawStep);
}

export interface RawStep {
  messageId: string;
  body: string;
  callType: string;
}

/** One entry of a run log as the SDK reads it (a step delivery's body is the JSON array of these). */
export function rawStep(entry: Pick<LogEntry, 'messageId' | 'callType' | 'body'>): RawStep {
  return { messageId: entry.messageId, body: entry.body.toString('base64'), callType: entry.callType };
}

/**
 * Request and response bodies (a call's, a failed attempt's, a failure callback's) are cut to `trimBody`
 * characters; -1 (the default) leaves them out. Step outputs and the run's response are not bodies: they
 * are always there, whole (the SDK's `client.logs()` sends no `trimBody`, and apps read results from them).
 */
function trim(text: string | undefined, trimBody: number): string | undefined {
  if (text === undefined || trimBody < 0) return undefined;
  return text.length > trimBody ? text.slice(0, trimBody) : text;
}

interface ErrorData {
  error?: string;
  responseStatus?: number;
  responseHeader?: HeaderMap;
  responseBody?: string;
}

function errorsOf(history: MessageHistory | undefined, trimBody: number): StepError[] {
  if (!history) return [];
  return history.events
    .filter((event) => event.state === 'ERROR')
    .map((event) => {
      const data = (event.data ? JSON.parse(event.data) : {}) as ErrorData;
      const error: StepError = {
        error: data.error ?? '',
        body:
          trim(
            data.responseBody ? Buffer.from(data.responseBody, 'base64').toString('utf8') : '',
            trimBody,
          ) ?? '',
        headers: data.responseHeader ?? {},
        status: data.responseStatus ?? 0,
        time: event.time,
      };
      return error;
    });
}

/** The state of a message's delivery (what the step it carries is doing now). */
function deliveryState(history: MessageHistory | undefined): NextStepLog['state'] | 'DONE' {
  if (!history) return 'STEP_PROGRESS';
  const last = history.events[history.events.length - 1]?.state;
  if (history.done) {
    if (last === 'FAILED') return 'STEP_FAILED';
    if (last === 'CANCELLED') return 'STEP_CANCELED';
    return 'DONE';
  }
  return history.retried > 0 ? 'STEP_RETRY' : 'STEP_PROGRESS';
}

function stepName(history: MessageHistory | undefined): string | undefined {
  if (!history) return undefined;
  for (let i = history.events.length - 1; i >= 0; i--) {
    const event = history.events[i] as MessageHistory['events'][number];
    if (event.state !== 'ERROR' || !event.data) continue;
    const header = (JSON.parse(event.data) as ErrorData).responseHeader ?? {};
    for (const [name, values] of Object.entries(header)) {
      if (name.toLowerCase() === 'upstash-error-step-name') return values[0];
    }
  }
  return undefined;
}

function parseJson(body: Buffer): Record<string, unknown> {
  try {
    const value = JSON.parse(body.toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function buildRunRecord(
  store: WorkflowStore,
  run: RunRecord,
  trimBody: number,
  live?: RecordLive,
): WorkflowRunLog {
  const now = live?.now ?? Date.now();
  const log = store.log(run.seq);
  const seqs = log.flatMap((entry) => (entry.messageSeq !== undefined ? [entry.messageSeq] : []));
  const histories = store.messageEvents(seqs);
  const historyOf = (entry: LogEntry): MessageHistory | undefined =>
    entry.messageSeq !== undefined ? histories.get(entry.messageSeq) : undefined;
  const retries = run.config.maxRetries;
  const retryDelay = run.config.retryDelay ?? live?.defaultRetryDelay;
  const groups: StepLogGroup[] = [];
  const calls = new Map<string, Record<string, unknown>>();
  const callbacks = new Map<string, Record<string, unknown>>();
  const parallel = new Map<number, { group: StepLog[]; plans: Map<number, StepLog> }>();
  const next: NextStepLog[] = [];
  const deliveries: RunDelivery[] = [];
  let lastStep: { name: string; type?: string } = { name: 'init', type: 'Initial' };

  log.forEach((entry, index) => {
    const history = historyOf(entry);
    if (entry.messageSeq !== undefined) {
      const parsed = entry.callType === 'step' && index > 0 ? parseJson(entry.body) : undefined;
      if (parsed) lastStep = { name: str(parsed.stepName) ?? '', type: str(parsed.stepType) };
      const call = entry.callType === 'toCallback' ? parseJson(entry.body) : undefined;
      deliveries.push(
        delivery(
          {
            messageId: entry.messageId,
            kind:
              entry.callType === 'toCallback'
                ? 'call'
                : entry.callType === 'fromCallback'
                  ? 'callback'
                  : 'step',
            createdAt: entry.createdAt,
            ...(entry.callType === 'step'
              ? {
                  afterStep: lastStep.name,
                  ...(lastStep.type ? { afterStepType: lastStep.type as RunDelivery['afterStepType'] } : {}),
                }
              : {}),
            ...(call
              ? { url: str(call.url), ...(str(call.stepName) ? { afterStep: str(call.stepName) } : {}) }
              : {}),
          },
          history,
          live?.flowHold?.(entry.messageId),
          live?.inflightSince?.(entry.messageId),
        ),
      );
    }
    const base = {
      messageId: entry.messageId,
      createdAt: entry.createdAt,
      retries,
      ...(retryDelay !== undefined ? { retryDelay } : {}),
    };
    if (index === 0) {
      groups.push({
        type: 'sequential',
        steps: [
          {
            ...base,
            stepName: 'init',
            stepType: 'Initial',
            callType: 'step',
            state: 'STEP_SUCCESS',
            concurrent: 1,
            out: entry.body.toString('utf8'),
            headers: run.config.header,
          },
        ],
      });
    } else if (entry.callType === 'toCallback') {
      calls.set(entry.messageId, parseJson(entry.body));
    } else if (entry.callType === 'fromCallback') {
      const payload = parseJson(entry.body);
      const source = str(payload.sourceMessageId);
      if (source) callbacks.set(source, payload);
    } else {
      const step = parseJson(entry.body);
      const concurrent = num(step.concurrent) ?? 1;
      const stepId = num(step.stepId) ?? 0;
      const log: StepLog = {
        ...base,
        stepId,
        stepName: str(step.stepName) ?? '',
        stepType: (str(step.stepType) ?? 'Run') as StepLog['stepType'],
        callType: 'step',
        state: 'STEP_SUCCESS',
        concurrent,
        // What the step's delivery carried: the trigger's forwarded headers (every step gets them).
        headers: run.config.header,
      };
      const out = str(step.out);
      if (out !== undefined) log.out = out;
      if (step.sleepFor !== undefined) log.sleepFor = sleepSeconds(step.sleepFor);
      if (step.sleepUntil !== undefined) log.sleepUntil = step.sleepUntil as number;
      // A sleep is not over until its delivery, which the step's own delay holds back, is due.
      if (
        (log.stepType === 'SleepFor' || log.stepType === 'SleepUntil') &&
        history &&
        !history.done &&
        history.events.every((event) => event.state === 'CREATED') &&
        history.dueAt > now
      ) {
        log.state = 'STEP_PROGRESS';
      }
      if (step.waitEventId !== undefined) {
        log.waitEventId = str(step.waitEventId);
        log.waitTimeout = step.waitTimeout === true;
        if (step.timeout !== undefined) log.waitTimeoutDuration = String(step.timeout);
      }
      if (log.stepType === 'Call') foldCall(log, step, calls, callbacks, trimBody);
      if (log.stepType === 'Invoke') foldInvoke(store, run, log);
      const plan = stepId === 0 && step.targetStep !== undefined;
      if (plan) {
        // A parallel plan: its branch shows the plan until the result arrives.
        log.callType = 'parallelPlan' as StepLog['callType'];
        const state = deliveryState(history);
        log.state = state === 'DONE' ? 'STEP_PROGRESS' : state;
        const errors = errorsOf(history, trimBody);
        if (errors.length > 0) log.errors = errors;
        if (state === 'STEP_RETRY' && history) log.nextDeliveryTime = history.dueAt;
        const target = num(step.targetStep) as number;
        let found = [...parallel.values()].find((p) => p.group.length < concurrent && !p.plans.has(target));
        if (!found) {
          found = { group: [], plans: new Map() };
          parallel.set(target, found);
          groups.push({ type: 'parallel', steps: found.group });
        }
        found.plans.set(target, log);
        found.group.push(log);
        return;
      }
      if (concurrent > 1) {
        const owner = [...parallel.values()].find((p) => p.plans.has(stepId));
        if (owner) {
          log.callType = 'parallelResult' as StepLog['callType'];
          const index = owner.group.indexOf(owner.plans.get(stepId) as StepLog);
          owner.group[index] = log;
          owner.plans.delete(stepId);
        } else {
          groups.push({ type: 'parallel', steps: [log] });
        }
      } else {
        groups.push({ type: 'sequential', steps: [log] });
      }
    }
    // A message still being delivered (or failed): the step it will produce is the `next` one. (A parallel
    // plan's delivery returned above: its branch shows it.)
    const state = deliveryState(history);
    if (state === 'DONE') return;
    // An ended run's last delivery may still be finishing (the run ended inside it): not a next step.
    if (run.state !== 'RUN_STARTED' && (state === 'STEP_PROGRESS' || state === 'STEP_RETRY')) return;
    // A context.call's request: its attempts are the Call step's (the run's `deliveries`), and a failed call is
    // the call's response, never a failed step. While the run waits on a retrying call, `next` names it.
    if (entry.callType === 'toCallback' && (state !== 'STEP_RETRY' || run.state !== 'RUN_STARTED')) return;
    const item: NextStepLog = { messageId: entry.messageId, state, retries, createdAt: entry.createdAt };
    if (retryDelay !== undefined) item.retryDelay = retryDelay;
    const name = stepName(history);
    if (name !== undefined) item.stepName = name;
    if (entry.callType === 'toCallback') {
      const call = parseJson(entry.body);
      if (str(call.stepName)) item.stepName = str(call.stepName);
      item.stepType = 'Call';
      if (history?.maxRetries !== undefined) item.retries = history.maxRetries;
    } else if (entry.callType === 'step' && index > 0 && state === 'STEP_PROGRESS') {
      // A sleep's own delivery, held back until it is over: the sleep step is what is pending.
      const step = parseJson(entry.body);
      if (step.stepType === 'SleepFor' || step.stepType === 'SleepUntil') {
        item.stepName = str(step.stepName);
        item.stepType = step.stepType;
      }
    }
    if (history && !history.done && history.dueAt > now) item.nextDeliveryTime = history.dueAt;
    // Every failed attempt's error; an empty list when none failed yet (the SDK reads an array).
    item.errors = errorsOf(history, trimBody);
    next.push(item);
  });

  if (run.state === 'RUN_STARTED') {
    for (const waiter of store.waitersOfRun(run.seq)) {
      next.push({
        messageId: '',
        stepName: str(waiter.step.stepName),
        stepType: (waiter.kind === 'webhook' ? 'WaitForWebhook' : 'Wait') as NextStepLog['stepType'],
        state: 'STEP_PROGRESS',
        retries,
        createdAt: waiter.createdAt,
        waitEventId: waiter.eventId,
        waitTimeoutDuration: waiter.timeout,
        waitTimeoutDeadline: waiter.deadline,
      } as NextStepLog);
    }
  }
  if (next.length > 0) groups.push({ type: 'next', steps: next });
  if (run.failure?.messageId) {
    const seq = store.messageSeq(run.failure.messageId);
    const history = seq !== undefined ? store.messageEvents([seq]).get(seq) : undefined;
    deliveries.push(
      delivery(
        { messageId: run.failure.messageId, kind: 'failure', createdAt: run.completedAt ?? run.createdAt },
        history,
        live?.flowHold?.(run.failure.messageId),
        live?.inflightSince?.(run.failure.messageId),
      ),
    );
  }

  const record: WorkflowRunLog = {
    workflowRunId: run.runId,
    workflowUrl: run.url,
    workflowState: run.state,
    workflowRunCreatedAt: run.createdAt,
    steps: groups,
  };
  if (run.completedAt !== undefined) record.workflowRunCompletedAt = run.completedAt;
  if (run.callerIp !== undefined) record.workflowRunCallerIp = run.callerIp;
  if (run.response !== undefined) record.workflowRunResponse = run.response;
  if (run.invoker) {
    record.invoker = {
      workflowRunId: run.invoker.workflowRunId,
      workflowUrl: run.invoker.workflowUrl,
      workflowRunCreatedAt: run.invoker.workflowRunCreatedAt,
    };
  }
  if (run.failure) {
    const failure = run.failure;
    record.failureFunction = {
      messageId: failure.messageId ?? '',
      url: failure.url,
      state: failure.state,
      failHeaders: failure.failHeaders,
      failStatus: failure.failStatus,
      failResponse: trim(failure.failResponse, trimBody),
      dlqId: failure.dlqId,
      maxRetries: failure.maxRetries,
      ...(failure.responseStatus !== undefined ? { responseStatus: failure.responseStatus } : {}),
      ...(failure.responseHeaders ? { responseHeaders: failure.responseHeaders } : {}),
      ...(failure.responseBody !== undefined ? { responseBody: trim(failure.responseBody, trimBody) } : {}),
      ...(failure.nextDeliveryTime !== undefined ? { nextDeliveryTime: failure.nextDeliveryTime } : {}),
    };
  }
  if (run.dlqId !== undefined) record.dlqId = run.dlqId;
  const labels = run.config.labels;
  if (labels && labels.length > 0) {
    record.label = labels[0];
    record.labels = labels;
  }
  if (run.config.flowControl) record.flowControlKey = run.config.flowControl.key;
  const events = live?.history?.(run.seq);
  if (events && events.length > 0) record.history = events;
  if (deliveries.length > 0) record.deliveries = deliveries;
  if (run.config.redact) redactRecord(record, run.config);
  return record;
}

/**
 * The trigger's `Upstash-Redact-Fields`, as the message logs apply it: what the logs show of the run's bodies
 * (the payload, step results, call bodies, the response) and headers becomes `REDACTED:<sha256>`; deliveries
 * keep the real values.
 */
function redactRecord(record: WorkflowRunLog, config: RunRecord['config']): void {
  const body = config.redact?.body === true;
  const text = (value: string | undefined): string | undefined =>
    body && value !== undefined ? redacted(value) : value;
  const headers = (value: HeaderMap | undefined): HeaderMap | undefined =>
    value && redactHeaders(config, value);
  for (const group of record.steps) {
    for (const step of group.steps as (StepLog & NextStepLog)[]) {
      step.out = text(step.out);
      step.callBody = text(step.callBody);
      step.callResponseBody = text(step.callResponseBody);
      step.headers = headers(step.headers);
      step.callHeaders = headers(step.callHeaders);
      for (const key of ['out', 'callBody', 'callResponseBody', 'headers', 'callHeaders'] as const) {
        if (step[key] === undefined) delete step[key];
      }
    }
  }
  record.workflowRunResponse = text(record.workflowRunResponse);
  if (record.workflowRunResponse === undefined) delete record.workflowRunResponse;
}

function foldCall(
  log: StepLog,
  step: Record<string, unknown>,
  calls: Map<string, Record<string, unknown>>,
  callbacks: Map<string, Record<string, unknown>>,
  trimBody: number,
): void {
  // The request: the newest call message of this step id not yet claimed (its entry carries the step id).
  for (const [messageId, call] of calls) {
    if (call.stepId !== undefined && String(call.stepId) !== String(step.stepId)) continue;
    calls.delete(messageId);
    log.callUrl = str(call.url);
    log.callMethod = str(call.method);
    log.callHeaders = call.header as HeaderMap;
    log.callBody = base64Text(call.body, trimBody);
    const callback = callbacks.get(messageId);
    if (callback) {
      log.callResponseStatus = num(callback.status);
      log.callResponseHeaders = callback.header as HeaderMap;
      log.callResponseBody = base64Text(callback.body, trimBody);
    }
    break;
  }
}

/** A base64 body of a call or its callback, as text cut to `trimBody`. */
function base64Text(value: unknown, trimBody: number): string | undefined {
  const body = str(value);
  return trim(body !== undefined ? Buffer.from(body, 'base64').toString('utf8') : undefined, trimBody);
}

function foldInvoke(store: WorkflowStore, run: RunRecord, log: StepLog): void {
  const child = store.invokedRun(run.runId, run.createdAt, log.stepId ?? 0);
  if (!child) return;
  log.invokedWorkflowRunId = child.runId;
  log.invokedWorkflowUrl = child.url;
  log.invokedWorkflowCreatedAt = child.createdAt;
}

/**
 * A sleep's length as the logs give it: seconds, a number. The SDK publishes `context.sleep('x', '1d')` as the
 * string `"1d"`; the vendors type the logged field as a number (the Go SDK's whole logs page fails to parse on a
 * string), so a duration is turned into its seconds.
 */
function sleepSeconds(value: unknown): number {
  if (typeof value === 'number') return value;
  const parsed = tryParseDuration(String(value), { bareNumberAsSeconds: true });
  return parsed.ok ? parsed.ms / 1_000 : Number(value);
}
