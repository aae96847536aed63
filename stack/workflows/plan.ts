// Turns workflow publishes into run configuration and message rows. The trigger's settings are kept with the
// run and baked into every later step message (WF_TriggerOnConfig): the SDK no longer repeats them.
import type { HeaderMap } from '../../shared/messages/types';
import { newMessageId } from '../messages/ids';
import { parseConfig, PublishError, type ConfigPatch, type HeaderInput } from '../messages/publish-request';
import { messageRow, type MessageRecord, type MessageRow, type MessageSpec } from '../store/messages';
import type { RunConfig } from '../store/workflow-store';

export const WF = {
  runId: 'upstash-workflow-runid',
  init: 'upstash-workflow-init',
  url: 'upstash-workflow-url',
  callType: 'upstash-workflow-calltype',
  invoke: 'upstash-workflow-invoke',
  triggerBySdk: 'upstash-workflow-trigger-by-sdk',
} as const;

/** What a workflow message is, kept in its spec (`meta.wf`). */
export interface WorkflowMeta {
  /** step: body = the log prefix; call: a plain third-party delivery; callback: the call's result; failure. */
  kind: 'step' | 'call' | 'callback' | 'failure';
  runId: string;
  createdAt: number;
  /** Known for every message but a trigger's (whose run is created in the same write). */
  runSeq?: number;
  /** For call messages: where and how the callback goes. */
  callback?: string;
  callbackConfig?: Record<string, string>;
}

export function workflowMeta(record: { spec: MessageSpec }): WorkflowMeta | undefined {
  return record.spec.meta?.wf as WorkflowMeta | undefined;
}

/**
 * The step a step entry records, from the SDK's step JSON: `step:<stepId>` for a result, `plan:<targetStep>`
 * for a parallel plan (stepId 0) — the SDK's own parser keeps the first entry of each and discards the rest.
 * Undefined for a body that names no step (the run then logs it as it comes).
 */
export function stepKeyOf(step: unknown): string | undefined {
  if (typeof step !== 'object' || step === null) return undefined;
  const { stepId, targetStep } = step as { stepId?: unknown; targetStep?: unknown };
  if (!Number.isInteger(stepId)) return undefined;
  if (stepId !== 0) return `step:${stepId as number}`;
  return Number.isInteger(targetStep) ? `plan:${targetStep as number}` : undefined;
}

/** stepKeyOf() of a step body as published (JSON text). */
export function stepKeyOfBody(body: Buffer): string | undefined {
  try {
    return stepKeyOf(JSON.parse(body.toString('utf8')));
  } catch {
    return undefined;
  }
}

/** The key of a context.call request of step `stepId` (its callback results are logged per attempt). */
export function callKey(stepId: number | undefined): string | undefined {
  return stepId !== undefined && Number.isInteger(stepId) ? `call:${stepId}` : undefined;
}

/** Identity and settings of a run, as much as planning its messages needs. */
export interface RunRef {
  runId: string;
  url: string;
  createdAt: number;
  seq?: number;
  callerIp?: string;
  config: RunConfig;
}

export function first(headers: HeaderInput, name: string): string | undefined {
  return headers.get(name)?.[0]?.trim();
}

const RUN_ID = /^[A-Za-z0-9_\-.:@]{1,200}$/;

export function checkRunId(value: string | undefined, what = 'Upstash-Workflow-RunId'): string {
  if (value === undefined || value === '') throw new PublishError(400, `missing ${what}`);
  if (!RUN_ID.test(value)) {
    throw new PublishError(
      400,
      `invalid ${what} '${value.slice(0, 100)}': use 1 to 200 letters, digits, _ - . : @`,
    );
  }
  return value;
}

/** The settings of a trigger's headers that every later step of the run gets. */
export function runConfig(patch: ConfigPatch, header: HeaderMap): RunConfig {
  const config: RunConfig = { header, maxRetries: patch.retries ?? 3 };
  if (patch.retryDelay !== undefined) config.retryDelay = patch.retryDelay;
  if (patch.timeoutMs !== undefined) config.timeoutMs = patch.timeoutMs;
  if (patch.flowControl) config.flowControl = patch.flowControl;
  if (patch.labels && patch.labels.length > 0) config.labels = patch.labels;
  if (patch.redact) config.redact = patch.redact;
  if (patch.failureCallback !== undefined) config.failureCallback = patch.failureCallback;
  if (patch.failureCallbackConfig) config.failureCallbackConfig = patch.failureCallbackConfig;
  return config;
}

/** Forwarded headers and Content-Type of a publish. */
export function ownHeaders(patch: ConfigPatch): HeaderMap {
  const header: HeaderMap = { ...patch.forward };
  if (patch.contentType !== undefined) header['Content-Type'] = [patch.contentType];
  return header;
}

export interface PlannedRunMessage {
  row: MessageRow;
  /** What the engine schedules once committed (the record stays in memory for the first attempt). */
  record: MessageRecord;
}

/**
 * A step message of a run: the run's settings, the step's own headers over them. Only the message's own delay
 * (a sleep, a trigger's or a DLQ action's Upstash-Delay) holds it back: a run has no delay of its own.
 */
export function planStep(
  run: RunRef,
  own: ConfigPatch | undefined,
  body: Buffer,
  now: number,
  options: { url?: string; isTrigger?: boolean } = {},
): PlannedRunMessage {
  const { config } = run;
  const header: HeaderMap = { ...config.header, ...(own ? ownHeaders(own) : {}) };
  const dueAt = own?.notBefore ?? now + (own?.delayMs ?? 0);
  const spec: MessageSpec = {
    url: options.url ?? run.url,
    method: 'POST',
    header,
    notBefore: dueAt,
    maxRetries: config.maxRetries,
    meta: {
      wf: {
        kind: 'step',
        runId: run.runId,
        createdAt: run.createdAt,
        runSeq: run.seq,
      } satisfies WorkflowMeta,
    },
  };
  if (run.callerIp) spec.callerIp = run.callerIp;
  if (config.retryDelay !== undefined) spec.retryDelay = config.retryDelay;
  if (config.timeoutMs !== undefined) spec.timeoutMs = config.timeoutMs;
  if (config.flowControl) spec.flowControl = config.flowControl;
  if (config.labels) spec.labels = config.labels;
  if (config.redact) spec.redact = config.redact;
  // The delivered body is built from the run log (stack/workflows/deliveries.ts); the row keeps none.
  return planned(spec, dueAt, Buffer.alloc(0), now);
}

/** A message with its spec given whole (call, callback, failure callback). */
export function planned(spec: MessageSpec, dueAt: number, body: Buffer, now: number): PlannedRunMessage {
  const message = { id: newMessageId(), createdAt: now, dueAt, spec, body };
  return {
    row: messageRow(message),
    record: { ...message, seq: 0, retried: 0, cancelRequested: false, done: false },
  };
}

/** Parses headers given as `{name: value | [values]}` (stored waiter and invoker headers). */
export function parseStoredHeaders(headers: Record<string, string[] | string>, now: number): ConfigPatch {
  const input: HeaderInput = new Map();
  for (const [name, value] of Object.entries(headers)) {
    input.set(name.toLowerCase(), Array.isArray(value) ? value : [value]);
  }
  return parseConfig(input, now);
}
