// Wire types of the message delivery service (the `/v2` API), as the real service and the local stack
// send them. Header maps are `{name: [values]}`; times are unix milliseconds unless a field says otherwise.

export type HeaderMap = Record<string, string[]>;

/** States a log entry can have. */
export const MESSAGE_STATES = [
  'CREATED',
  'ACTIVE',
  'RETRY',
  'ERROR',
  'DELIVERED',
  'FAILED',
  'CANCEL_REQUESTED',
  'CANCELLED',
] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

/**
 * What the `state` filter of the logs accepts: every state, the vendor SDKs' spelling `CANCELED`, and the
 * pseudo-state `IN_PROGRESS` (ACTIVE, RETRY or ERROR).
 */
export type MessageStateFilter = MessageState | 'CANCELED' | 'IN_PROGRESS';

/** Expands a state filter value to the states it matches; undefined for an unknown value. */
export function expandStateFilter(value: string): MessageState[] | undefined {
  const upper = value.trim().toUpperCase();
  if (upper === 'IN_PROGRESS') return ['ACTIVE', 'RETRY', 'ERROR'];
  if (upper === 'CANCELED') return ['CANCELLED'];
  return (MESSAGE_STATES as readonly string[]).includes(upper) ? [upper as MessageState] : undefined;
}

/** `{messageId}` for a URL, with `url` for each endpoint of a URL group; `deduplicated` on a dedup hit. */
export interface PublishResponse {
  messageId: string;
  url?: string;
  deduplicated?: boolean;
}

/** Publish to a URL answers one PublishResponse; publish to a URL group answers one per endpoint. */
export type PublishResult = PublishResponse | PublishResponse[];

/** One element of a batch response: a result, or the reason this item was refused. */
export type BatchResultItem = PublishResult | { error: string };

export interface BatchRequestItem {
  destination: string;
  queue?: string | null;
  headers?: Record<string, string>;
  body?: string;
}

/** Where a message came from and what it is tagged with: alike in messages, DLQ entries and log events. */
export interface MessageTags {
  topicName?: string;
  endpointName?: string;
  queueName?: string;
  scheduleId?: string;
  retryDelayExpression?: string;
  label?: string;
  labels?: string[];
  flowControlKey?: string;
  parallelism?: number;
  rate?: number;
  /** Seconds. */
  period?: number;
  callerIP?: string;
  api?: string;
}

export interface Message extends MessageTags {
  messageId: string;
  url: string;
  method: string;
  header?: HeaderMap;
  body?: string;
  bodyBase64?: string;
  maxRetries: number;
  notBefore: number;
  createdAt: number;
  callback?: string;
  failureCallback?: string;
  callbackHeader?: HeaderMap;
  failureCallbackHeader?: HeaderMap;
  /** Milliseconds. */
  timeout?: number;
}

export interface DLQMessage extends Message {
  dlqId: string;
  responseStatus: number;
  responseHeader?: HeaderMap;
  responseBody?: string;
  responseBodyBase64?: string;
  /**
   * Local only: the workflow run the message belongs to, when it is a run's message that went to the message
   * DLQ (a `context.call` request that ran out of retries: `workflowMessage: 'call'`, its step's name).
   */
  workflowRunId?: string;
  workflowCreatedAt?: number;
  workflowMessage?: 'call' | 'step' | 'callback' | 'failure';
  workflowStepName?: string;
}

export interface DLQListResponse {
  messages: DLQMessage[];
  cursor?: string;
}

export interface LogEntry extends MessageTags {
  time: number;
  messageId: string;
  state: MessageState;
  url: string;
  error?: string;
  nextDeliveryTime?: number;
  header?: HeaderMap;
  /** Base64, unlike Message.body. */
  body?: string;
  responseStatus?: number;
  /** Base64. */
  responseBody?: string;
  responseHeader?: HeaderMap;
  /** Same as responseHeader: the OpenAPI spelling. */
  responseHeaders?: HeaderMap;
  /** Milliseconds. */
  timeout?: number;
  method?: string;
  callback?: string;
  failureCallback?: string;
  callbackHeaders?: HeaderMap;
  failureCallbackHeaders?: HeaderMap;
  maxRetries?: number;
  /** Same as retryDelayExpression: the Python SDK's spelling. */
  retryDelayExpr?: string;
}

/** `GET /v2/logs` and `GET /v2/events` answer both keys with the same array. */
export interface LogsResponse {
  cursor?: string;
  events: LogEntry[];
  logs: LogEntry[];
}

export interface UrlGroupEndpoint {
  name?: string;
  url: string;
}

export interface UrlGroup {
  name: string;
  createdAt: number;
  updatedAt: number;
  endpoints: UrlGroupEndpoint[];
  /** Default headers set with `PATCH /v2/topics/{name}` (local stack extension; clients ignore it). */
  headers?: HeaderMap;
}

export interface Queue {
  name: string;
  createdAt: number;
  updatedAt: number;
  parallelism: number;
  lag: number;
  paused: boolean;
}

export interface SigningKeys {
  current: string;
  next: string;
}

/** Filters shared by bulk cancel, logs and the DLQ; multi-value filters OR within, AND across. */
export interface MessageFilters {
  messageIds?: string[];
  url?: string[];
  topicName?: string[];
  queueName?: string[];
  scheduleId?: string[];
  label?: string[];
  flowControlKey?: string[];
  callerIp?: string[];
  host?: string[];
  path?: string[];
  /** Inclusive, unix ms. */
  fromDate?: number;
  /** Inclusive, unix ms. */
  toDate?: number;
}

export interface LogFilters extends MessageFilters {
  state?: MessageState[];
}

export interface DlqFilters extends MessageFilters {
  dlqIds?: string[];
  responseStatus?: number[];
}

/** Callback body the service POSTs after an attempt (and, with `dlqId`, after the final failure). */
export interface CallbackPayload {
  status: number;
  header?: HeaderMap;
  /** Base64 of the destination's response body. */
  body?: string;
  retried?: number;
  maxRetries: number;
  dlqId?: string;
  sourceMessageId: string;
  url: string;
  method: string;
  sourceHeader?: HeaderMap;
  /** Base64 of the original request body. */
  sourceBody?: string;
  topicName?: string;
  endpointName?: string;
  scheduleId?: string;
  notBefore: number;
  createdAt: number;
  callerIP?: string;
  api?: string;
  /** Local stack: why an attempt got no HTTP response (timeout, connection refused); status is 0 then. */
  error?: string;
}
