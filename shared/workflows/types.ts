// Wire types of the workflow service (the `/v2/workflows…` API), as the real service and the local stack
// send them: run logs, the workflow DLQ and its bulk actions, cancel and notify. Field names and shapes
// follow the API description and the vendor SDK's types (`@upstash/workflow` index.d.ts); where the two
// differ, the SDK wins, because it is what users' code reads. Times are unix milliseconds.
//
// The endpoints these types describe (the local stack serves every one; main's workflow client calls them):
//   GET    /v2/workflows/logs                         → WorkflowRunLogsResponse   (query: WorkflowLogsQuery)
//   DELETE /v2/workflows/runs?workflowRunIds=a&…      → WorkflowCancelResponse    (or filters, see below)
//   POST   /v2/notify/{eventId}                       → NotifyResponseItem[]      (body: the event data)
//   POST   /v2/notify/{workflowRunId}/{eventId}       → NotifyResponseItem[]      (run-scoped, "lookback")
//   GET    /v2/dlq?source=workflow&…                  → WorkflowDlqListResponse   (query: WorkflowDlqListQuery)
//   POST   /v2/workflows/dlq/restart?…                → DlqRestartResumeResponse  (query: WorkflowDlqActionQuery,
//   POST   /v2/workflows/dlq/resume?…                 → DlqRestartResumeResponse   headers: DLQ_OVERRIDE_HEADERS)
//   POST   /v2/workflows/dlq/callback/{dlqId}         → DlqCallbackRetryResponse
//   DELETE /v2/workflows/dlq?…                        → DlqDeleteResponse         (query: WorkflowDlqActionQuery)
// Errors on all of them: a non-2xx status with `{"error": "<text>"}`.

export type HeaderMap = Record<string, string[]>;

export const RUN_STATES = ['RUN_STARTED', 'RUN_SUCCESS', 'RUN_FAILED', 'RUN_CANCELED'] as const;
export type RunState = (typeof RUN_STATES)[number];

export const STEP_STATES = [
  'STEP_SUCCESS',
  'STEP_RETRY',
  'STEP_FAILED',
  'STEP_PROGRESS',
  'STEP_CANCELED',
] as const;
export type StepState = (typeof STEP_STATES)[number];

/** The logs' `state` filter takes a run state or a step state (a run matches when any of its steps has it). */
export const LOG_STATE_FILTERS = [...RUN_STATES, ...STEP_STATES] as const;
export type LogStateFilter = RunState | StepState;

export const FAILURE_FUNCTION_STATES = [
  'CALLBACK_INPROGRESS',
  'CALLBACK_SUCCESS',
  'CALLBACK_FAIL',
  'CALLBACK_CANCELED',
] as const;
export type FailureFunctionState = (typeof FAILURE_FUNCTION_STATES)[number];

/** `Initial` is made by the service for the trigger; the others by `context.run`, `.call`, `.sleepFor`… */
export const STEP_TYPES = [
  'Initial',
  'Run',
  'Call',
  'SleepFor',
  'SleepUntil',
  'Wait',
  'Notify',
  'Invoke',
] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const STEP_GROUP_TYPES = ['sequential', 'parallel', 'next'] as const;
export type StepGroupType = (typeof STEP_GROUP_TYPES)[number];

/**
 * `step` for ordinary steps; `parallelPlan` / `parallelResult` inside parallel groups; `toCallback` /
 * `fromCallback` for the two halves of a Call step (the log folds them into one step).
 */
export type CallType =
  'step' | 'toCallback' | 'fromCallback' | 'parallelPlan' | 'parallelResult' | 'failureCall';

/** One failed delivery attempt of a step (or of the failure function). */
export interface StepError {
  /** The service's description of the failure (e.g. "connection refused", "HTTP 503"). */
  error: string;
  /** The response body of the attempt (bounded by `trimBody` like every body). */
  body: string;
  headers: HeaderMap;
  /** HTTP status of the attempt; 0 when there was no HTTP response. */
  status: number;
  time: number;
}

/** A step that ran (or is running) — in a `sequential` or `parallel` group. */
export interface StepLog {
  /** Absent on the Initial step. */
  stepId?: number;
  stepName: string;
  stepType: StepType;
  callType: CallType;
  messageId: string;
  state: StepState;
  createdAt: number;
  /**
   * The step's result as the service stores it: a string (often JSON text; the Initial step's is the
   * trigger payload). Always whole — `trimBody` governs request and response bodies, not outputs; absent
   * while the step has not finished.
   */
  out?: string;
  /** 1 for a sequential step; the number of branches for a parallel one. */
  concurrent: number;
  /** Maximum retries configured for the step's message. */
  retries: number;
  retryDelay?: string;
  /** Headers the step's delivery carried. */
  headers?: HeaderMap;
  /** Set while the step's message waits for its next attempt. */
  nextDeliveryTime?: number;
  /** Errors of every failed attempt of this step, oldest first (absent when none failed). */
  errors?: StepError[];

  // Call steps (context.call): the request…
  callUrl?: string;
  callMethod?: string;
  callHeaders?: HeaderMap;
  callBody?: string;
  // …and the response, once it came back.
  callResponseStatus?: number;
  callResponseBody?: string;
  callResponseHeaders?: HeaderMap;

  // Wait steps (context.waitForEvent).
  waitEventId?: string;
  /** The timeout as given, e.g. "7d". */
  waitTimeoutDuration?: string;
  waitTimeoutDeadline?: number;
  /** True when the wait ended by timeout rather than by a notify. */
  waitTimeout?: boolean;

  // Invoke steps (context.invoke).
  invokedWorkflowRunId?: string;
  invokedWorkflowUrl?: string;
  invokedWorkflowCreatedAt?: number;
  invokedWorkflowRunBody?: string;
  invokedWorkflowRunHeaders?: HeaderMap;

  // Sleep steps: SleepFor's duration in seconds, SleepUntil's time in unix seconds (as the SDK sends them).
  sleepFor?: number | string;
  sleepUntil?: number;
}

/** A message being delivered or retried that has no recorded result yet (the `next` group). */
export interface NextStepLog {
  messageId: string;
  /** Known when the SDK reported it in the `Upstash-Error-Step-Name` response header of a failed attempt. */
  stepName?: string;
  stepType?: StepType;
  state: 'STEP_PROGRESS' | 'STEP_RETRY' | 'STEP_FAILED' | 'STEP_CANCELED';
  retries: number;
  retryDelay?: string;
  createdAt?: number;
  nextDeliveryTime?: number;
  errors?: StepError[];
  // A wait in progress (the local stack lists a run's waiters here).
  waitEventId?: string;
  waitTimeoutDuration?: string;
  waitTimeoutDeadline?: number;
}

export type StepLogGroup =
  | { type: 'sequential'; steps: StepLog[] }
  | { type: 'parallel'; steps: StepLog[] }
  | { type: 'next'; steps: NextStepLog[] };

export interface InvokerContext {
  workflowRunId: string;
  workflowUrl: string;
  workflowRunCreatedAt: number;
}

export interface FailureFunctionLog {
  messageId: string;
  url: string;
  state: FailureFunctionState;
  /** Headers, status and body of the step response that failed the run. */
  failHeaders?: HeaderMap;
  failStatus?: number;
  failResponse?: string;
  /** Set when the failure callback itself failed and went to the DLQ. */
  dlqId?: string;
  /** The failure callback's last attempt. */
  responseBody?: string;
  responseHeaders?: HeaderMap;
  responseStatus?: number;
  maxRetries?: number;
  /** Every failed attempt of the failure callback. */
  errors?: StepError[];
  nextDeliveryTime?: number;
}

export interface WorkflowRunLog {
  workflowRunId: string;
  workflowUrl: string;
  workflowState: RunState;
  workflowRunCreatedAt: number;
  workflowRunCompletedAt?: number;
  workflowRunCallerIp?: string;
  /** Groups in execution order: the Initial step first, the `next` group (if any) last. */
  steps: StepLogGroup[];
  /** The run's return value as a string (JSON text when the route returned an object). */
  workflowRunResponse?: string;
  invoker?: InvokerContext;
  failureFunction?: FailureFunctionLog;
  /** Set while the failed run is in the DLQ. */
  dlqId?: string;
  /** @deprecated the first of `labels`. */
  label?: string;
  labels?: string[];
  flowControlKey?: string;
  /** Local only: what happened to the run beyond its steps (how it started, cancel, restart, waits…). */
  history?: RunHistoryEvent[];
  /** Local only: every message of the run and each delivery attempt, in the order they were created. */
  deliveries?: RunDelivery[];
}

/** `GET /v2/workflows/logs`. `cursor` is empty (or absent) on the last page. Newest runs first. */
export interface WorkflowRunLogsResponse {
  cursor?: string;
  runs: WorkflowRunLog[];
}

/** Most runs the logs return per page (run mode); the service's default too. */
export const LOGS_RUN_PAGE_MAX = 10;

/** Most events the logs return per page in event mode (no `groupBy`); the service's default too. */
export const LOGS_EVENT_PAGE_MAX = 1000;

/**
 * One entry of the logs in event mode: a step (or a pending `next` delivery) flattened with the run it
 * belongs to, so a client can list every step of many runs without grouping.
 */
export type WorkflowLogEvent = (StepLog | NextStepLog) & {
  workflowRunId: string;
  workflowUrl: string;
  workflowState: RunState;
  workflowRunCreatedAt: number;
  /** Which group of the run the step sits in. */
  groupType: StepLogGroup['type'];
};

export interface WorkflowLogEventsResponse {
  cursor: string;
  events: WorkflowLogEvent[];
}

/**
 * Query parameters of `GET /v2/workflows/logs` (all optional). Repeatable ones are arrays on the wire
 * (`label=a&label=b`; a run matches any). `workflowRuns` (`id@createdAt,id@createdAt`) ignores the rest.
 */
export interface WorkflowLogsQuery {
  cursor?: string;
  /** Exact match. */
  workflowUrl?: string;
  workflowRunId?: string;
  /** With workflowRunId, picks one run of a reused id. */
  workflowCreatedAt?: number;
  workflowRuns?: string;
  state?: LogStateFilter;
  /** Inclusive, on the run's creation time. */
  fromDate?: number;
  toDate?: number;
  /** At most LOGS_RUN_PAGE_MAX. */
  count?: number;
  /**
   * Bodies (step `out`, call bodies, error bodies, the run response, failure bodies) are cut to this
   * many bytes; -1 (the default) leaves them out.
   */
  trimBody?: number;
  label?: string[];
  flowControlKey?: string;
  callerIp?: string;
}

/** An entry of the workflow DLQ (`GET /v2/dlq?source=workflow`): the failed step message of a run. */
export interface WorkflowDlqMessage {
  dlqId: string;
  messageId: string;
  /** Where the failed message went (the workflow URL). */
  url: string;
  method: string;
  header: HeaderMap;
  body: string;
  maxRetries: number;
  notBefore: number;
  /** When the failed message was created. */
  createdAt: number;
  callerIP?: string;
  workflowRunId: string;
  workflowCreatedAt: number;
  workflowUrl: string;
  /** The last attempt's response; `responseHeader` carries `Upstash-Error-Step-Name` when the SDK named the step. */
  responseStatus: number;
  responseHeader?: HeaderMap;
  responseBody?: string;
  failureCallback?: string;
  failureCallbackInfo?: {
    state?: FailureFunctionState;
    responseStatus?: number;
    responseBody?: string;
    responseHeaders?: HeaderMap;
  };
  label?: string;
  labels?: string[];
  flowControlKey?: string;
}

export interface WorkflowDlqListResponse {
  messages: WorkflowDlqMessage[];
  cursor?: string;
}

/**
 * The filters of the workflow DLQ, the same for its list and its bulk actions: they AND together, and values
 * of one filter OR. `count` is at most 100 on the list; on an action it caps how many entries are processed
 * (without it, every match), and `cursor` continues.
 */
export interface WorkflowDlqFilterQuery {
  cursor?: string;
  count?: number;
  fromDate?: number;
  toDate?: number;
  workflowUrl?: string[];
  workflowRunId?: string;
  workflowCreatedAt?: number;
  label?: string[];
  failureFunctionState?: FailureFunctionState[];
  callerIp?: string[];
  flowControlKey?: string[];
}

/** Query of `GET /v2/dlq?source=workflow`. */
export interface WorkflowDlqListQuery extends WorkflowDlqFilterQuery {
  source: 'workflow';
  responseStatus?: number;
}

/**
 * Query of the bulk DLQ actions (restart, resume, delete). With `dlqIds` every other filter is ignored.
 * A request with neither ids nor any filter means "every entry" to the service: main never sends one.
 */
export interface WorkflowDlqActionQuery extends WorkflowDlqFilterQuery {
  dlqIds?: string[];
}

/** Headers that override the settings of restarted/resumed runs. */
export const DLQ_OVERRIDE_HEADERS = {
  retries: 'Upstash-Retries',
  delay: 'Upstash-Delay',
  retryDelay: 'Upstash-Retry-Delay',
  flowControlKey: 'Upstash-Flow-Control-Key',
  flowControlValue: 'Upstash-Flow-Control-Value',
  label: 'Upstash-Label',
  failureCallback: 'Upstash-Failure-Callback',
} as const;

export interface RestartedRun {
  workflowRunId: string;
  workflowCreatedAt: number;
}

/** `POST /v2/workflows/dlq/{restart,resume}`: the new runs; `cursor` empty when all matches were processed. */
export interface DlqRestartResumeResponse {
  workflowRuns: RestartedRun[];
  cursor?: string;
}

/** `POST /v2/workflows/dlq/callback/{dlqId}`: the run whose failure callback was re-sent. */
export interface DlqCallbackRetryResponse extends RestartedRun {
  error?: string;
}

/** `DELETE /v2/workflows/dlq`. */
export interface DlqDeleteResponse {
  deleted: number;
  cursor?: string;
}

/** `DELETE /v2/workflows/runs`. */
export interface WorkflowCancelResponse {
  cancelled: number;
}

/** A waiter of an event, as `POST /v2/notify…` reports the ones it satisfied. */
export interface Waiter {
  url: string;
  /** Unix seconds. */
  deadline: number;
  headers: HeaderMap;
  timeoutUrl?: string;
  timeoutBody?: string;
  timeoutHeaders?: HeaderMap;
}

export interface NotifyResponseItem {
  waiter: Waiter;
  messageId: string;
  deduplicated?: boolean;
  /** Only when this waiter could not be served (the service leaves it out otherwise). */
  error?: string;
  workflowRunId?: string;
  workflowCreatedAt?: number;
}

/** The response header in which the SDK names the step that threw. */
export const ERROR_STEP_NAME_HEADER = 'Upstash-Error-Step-Name';

// ---------------------------------------------------------------------------------------------------------
// Local-only fields. The local stack adds these to a run's record (extra fields; clients of the real service
// ignore them). The real service sends none of them, so every reader treats them as optional and says what
// it cannot know without them (docs/stack-workflows.md, "Local-only fields").

/** How a run was started. */
export const RUN_ORIGIN_SOURCES = [
  /** The workflow SDK's `client.trigger` (or another SDK client) at the API. */
  'sdk',
  /** This console's "Trigger again…". */
  'console',
  /** A request to the workflow endpoint itself: the app's `serve()` started the run. */
  'endpoint',
  /** A schedule's delivery to the workflow endpoint. */
  'schedule',
  /** A message of the message service delivered to the workflow endpoint. */
  'message',
  /** A restart of a failed run from the DLQ. */
  'restart',
  /** A resume of a failed run from the DLQ: a new run that keeps the failed run's completed steps. */
  'resume',
  /** Another run's `context.invoke`. */
  'invoke',
  /** A plain API call with no SDK's telemetry. */
  'api',
] as const;
export type RunOriginSource = (typeof RUN_ORIGIN_SOURCES)[number];

/** A run as another run's entry refers to it. */
export interface RunRef {
  workflowRunId: string;
  workflowRunCreatedAt: number;
}

/** Something that happened to a run that its steps and messages do not show. */
export type RunHistoryEvent =
  | {
      kind: 'triggered';
      time: number;
      source: RunOriginSource;
      /** The client, from its `Upstash-Telemetry-Sdk` header (e.g. `@upstash/workflow@v1.3.2`). */
      agent?: string;
      callerIp?: string;
      scheduleId?: string;
      /** For `message`: the message delivered to the endpoint. */
      messageId?: string;
      /** For `restart`: the failed run this one restarts (and its DLQ entry). */
      restartedFrom?: RunRef & { dlqId?: string };
      /** For `resume`: the failed run this one resumes (and its DLQ entry). */
      resumedFrom?: RunRef & { dlqId?: string };
    }
  | {
      kind: 'canceled';
      time: number;
      /** `run`: `DELETE /v2/workflows/runs/{id}?cancel=true` (context.cancel, or the API for one run); `bulk`: `DELETE /v2/workflows/runs` by ids or filter. */
      via: 'run' | 'bulk';
      agent?: string;
      callerIp?: string;
    }
  /** This failed run was restarted from the DLQ as a new run. */
  | { kind: 'restarted'; time: number; to: RunRef; dlqId?: string }
  /**
   * This failed run was resumed from the DLQ: the new run `to` keeps its completed steps and sends its failed
   * message (`messageId`) again. Without `to`: written by an earlier stack, which resumed the failed run in place
   * (same id).
   */
  | { kind: 'resumed'; time: number; dlqId: string; messageId: string; to?: RunRef }
  | {
      kind: 'waitStarted';
      time: number;
      eventId: string;
      /** As given, e.g. "1h". */
      timeout: string;
      deadline: number;
      stepName?: string;
      /** A `waitForWebhook` rather than a `waitForEvent`. */
      webhook?: boolean;
    }
  | {
      kind: 'notified';
      time: number;
      eventId: string;
      /** Run-scoped notify (`/v2/notify/{runId}/{eventId}`). */
      scoped: boolean;
      /** The event arrived before the run waited for it and was kept for it (the lookback). */
      kept?: boolean;
      agent?: string;
      callerIp?: string;
    }
  | {
      kind: 'webhookCalled';
      time: number;
      eventId: string;
      method: string;
      callerIp?: string;
      kept?: boolean;
    }
  | { kind: 'invoked'; time: number; child: RunRef; stepName?: string };

export type RunHistoryKind = RunHistoryEvent['kind'];

/** One attempt to deliver a message of a run. */
export interface DeliveryAttempt {
  start: number;
  /** Absent while the attempt is in flight. */
  end?: number;
  /** The app's (or the call target's) HTTP status; absent when there was no response or none yet. */
  status?: number;
  /** The stack's description of a failed attempt ("destination answered HTTP 500", "connection refused"). */
  error?: string;
  /** The SDK's error message from a failed attempt's body, when it sent one. */
  message?: string;
  /** The step the SDK named in `Upstash-Error-Step-Name`. */
  stepName?: string;
}

/** Why a delivery waits although it is due: held by its flow-control key. */
export interface FlowControlHold {
  key: string;
  /** Deliveries of the key waiting before this one. */
  ahead: number;
  waiting: number;
  inflight: number;
  parallelism?: number;
  rate?: number;
  periodMs?: number;
  paused?: boolean;
}

/**
 * A message of the run and its delivery: `step` (the run log to the app, after the step `afterStep`),
 * `call` (a context.call's request to its target), `callback` (the call's response back to the app), `failure`
 * (the failure function).
 */
export interface RunDelivery {
  messageId: string;
  kind: 'step' | 'call' | 'callback' | 'failure';
  /** For `step`: the name of the last step it carries (the app runs what follows it). */
  afterStep?: string;
  afterStepType?: StepType | 'WaitForWebhook' | 'CreateWebhook';
  createdAt: number;
  state: 'scheduled' | 'delivering' | 'retrying' | 'delivered' | 'failed' | 'canceled';
  /** When the next attempt is due (a delayed first attempt or a retry). */
  dueAt?: number;
  maxRetries?: number;
  attempts: DeliveryAttempt[];
  /** Set while the delivery is due but held by its flow-control key. */
  flowControl?: FlowControlHold;
  /** For `call`: the target. */
  url?: string;
}
