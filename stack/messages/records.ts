// Stored records → the wire objects of the API (Message, DLQMessage, LogEntry), with redaction applied:
// a redacted body or header shows as `REDACTED:<sha256>` here while the real value is what gets delivered.
import { createHash } from 'node:crypto';
import { canonicalHeaderName, H } from '../../shared/headers';
import type { DLQMessage, HeaderMap, LogEntry, Message } from '../../shared/messages/types';
import type { DlqRecord } from '../store/dlq';
import type { EventRecord } from '../store/events';
import type { MessageRecord, MessageSpec } from '../store/messages';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function redacted(value: Buffer | string): string {
  return `REDACTED:${createHash('sha256').update(value).digest('hex')}`;
}

export function redactHeaders(spec: Pick<MessageSpec, 'redact'>, header: HeaderMap): HeaderMap {
  const rule = spec.redact?.header;
  if (!rule) return header;
  const out: HeaderMap = {};
  for (const [name, values] of Object.entries(header)) {
    out[name] = rule === true || rule.includes(name.toLowerCase()) ? values.map(redacted) : values;
  }
  return out;
}

function bodyFields(spec: MessageSpec, body: Buffer): { body?: string; bodyBase64?: string } {
  if (body.length === 0) return {};
  if (spec.redact?.body) return { body: redacted(body) };
  try {
    return { body: utf8.decode(body) };
  } catch {
    return { bodyBase64: body.toString('base64') };
  }
}

function callbackHeaders(config: Record<string, string> | undefined): HeaderMap | undefined {
  if (!config) return undefined;
  const out: HeaderMap = {};
  for (const [name, value] of Object.entries(config)) {
    if (name.startsWith(H.forwardPrefix))
      out[canonicalHeaderName(name.slice(H.forwardPrefix.length))] = [value];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The label fields (`label` is the first of `labels`) and the flow-control fields, shared by messages and log entries. */
function labelAndFlowControlFields(spec: MessageSpec) {
  return {
    label: spec.labels?.[0],
    labels: spec.labels,
    flowControlKey: spec.flowControl?.key,
    parallelism: spec.flowControl?.parallelism,
    rate: spec.flowControl?.rate,
    period: spec.flowControl?.period,
  };
}

/** Drops undefined fields, the way the real service's `omitempty` does. */
function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

export function toMessage(record: MessageRecord): Message {
  const { spec } = record;
  return compact({
    messageId: record.id,
    url: spec.url,
    topicName: spec.topicName,
    endpointName: spec.endpointName,
    queueName: spec.queueName,
    scheduleId: spec.scheduleId,
    method: spec.method,
    header: redactHeaders(spec, spec.header),
    ...bodyFields(spec, record.body),
    maxRetries: spec.maxRetries,
    notBefore: spec.notBefore,
    createdAt: record.createdAt,
    callback: spec.callback,
    failureCallback: spec.failureCallback,
    callbackHeader: callbackHeaders(spec.callbackConfig),
    failureCallbackHeader: callbackHeaders(spec.failureCallbackConfig),
    callerIP: spec.callerIp,
    retryDelayExpression: spec.retryDelay,
    ...labelAndFlowControlFields(spec),
    timeout: spec.timeoutMs,
    api: spec.api,
  });
}

export function toDlqMessage(entry: DlqRecord): DLQMessage {
  const message: DLQMessage = {
    ...toMessage(entry.message),
    dlqId: entry.dlqId,
    responseStatus: entry.responseStatus,
  };
  if (entry.responseHeader) message.responseHeader = entry.responseHeader;
  // A workflow run's message (a context.call request out of retries): which run and step, for the console.
  const wf = entry.message.spec.meta?.wf as
    | { kind?: string; runId?: string; createdAt?: number; callbackConfig?: Record<string, string> }
    | undefined;
  if (wf?.runId) {
    message.workflowRunId = wf.runId;
    if (wf.createdAt !== undefined) message.workflowCreatedAt = wf.createdAt;
    if (wf.kind) message.workflowMessage = wf.kind as DLQMessage['workflowMessage'];
    const step = wf.callbackConfig?.['upstash-forward-upstash-workflow-stepname'];
    if (step) message.workflowStepName = step;
  }
  if (entry.responseBody && entry.responseBody.length > 0) {
    try {
      message.responseBody = utf8.decode(entry.responseBody);
    } catch {
      message.responseBodyBase64 = entry.responseBody.toString('base64');
    }
  }
  return message;
}

export function toLogEntry(event: EventRecord): LogEntry {
  const { spec } = event.message;
  const body = event.message.body;
  return compact({
    time: event.time,
    messageId: event.message.id,
    state: event.state,
    url: spec.url,
    error: event.data.error,
    nextDeliveryTime: event.data.nextDeliveryTime ?? (event.state === 'CREATED' ? spec.notBefore : undefined),
    topicName: spec.topicName,
    endpointName: spec.endpointName,
    queueName: spec.queueName,
    scheduleId: spec.scheduleId,
    header: redactHeaders(spec, spec.header),
    body: body.length === 0 ? undefined : spec.redact?.body ? redacted(body) : body.toString('base64'),
    responseStatus: event.data.responseStatus,
    responseBody: event.data.responseBody,
    responseHeader: event.data.responseHeader,
    responseHeaders: event.data.responseHeader,
    timeout: spec.timeoutMs,
    method: spec.method,
    callback: spec.callback,
    failureCallback: spec.failureCallback,
    callbackHeaders: callbackHeaders(spec.callbackConfig),
    failureCallbackHeaders: callbackHeaders(spec.failureCallbackConfig),
    maxRetries: spec.maxRetries,
    retryDelayExpression: spec.retryDelay,
    retryDelayExpr: spec.retryDelay,
    ...labelAndFlowControlFields(spec),
    callerIP: spec.callerIp,
    api: spec.api,
  });
}
