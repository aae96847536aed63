// The workflow service's client: every path, query and wire parse of the `/v2/workflows…` API (run logs,
// cancel, notify, trigger, the workflow DLQ and its actions) in one place. It rides on `ServiceApi` with the
// message API's endpoint of the profile (same host, same token; undici in main, never the renderer).
// Feature handlers call these methods and never build URLs or headers themselves.
import { randomBytes } from 'node:crypto';
import { checkListIds } from '../../../../shared/bridge/list-ids';
import type { RunOverrides } from '../../../../shared/bridge/procedures/workflows/dlq';
import type { RunFilters, WorkflowDlqFilters } from '../../../../shared/bridge/procedures/workflows/filters';
import {
  DLQ_OVERRIDE_HEADERS,
  type DlqCallbackRetryResponse,
  type DlqDeleteResponse,
  type DlqRestartResumeResponse,
  LOGS_RUN_PAGE_MAX,
  type NotifyResponseItem,
  type WorkflowCancelResponse,
  type WorkflowDlqListResponse,
  type WorkflowRunLog,
  type WorkflowRunLogsResponse,
} from '../../../../shared/workflows/types';
import type { QueryValue, ServiceApi } from '../../http/service-api';

/** What the client needs of the profile's HTTP client. */
export type WorkflowTransport = Pick<ServiceApi, 'json'>;

const enc = encodeURIComponent;

/** An empty cursor means "no more" on the wire; the console uses undefined for that. */
function cursorOf(value: unknown): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

function compact(query: Record<string, QueryValue>): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  return out;
}

/** The logs' query for the run list filters (the service takes one state, and labels repeated). */
export function runFiltersQuery(filters: RunFilters): Record<string, QueryValue> {
  return compact({
    state: filters.state,
    workflowUrl: filters.workflowUrl,
    workflowRunId: filters.workflowRunId,
    workflowCreatedAt: filters.workflowCreatedAt,
    label: filters.label,
    flowControlKey: filters.flowControlKey,
    callerIp: filters.callerIp,
    fromDate: filters.fromDate,
    toDate: filters.toDate,
  });
}

export function dlqFiltersQuery(filters: WorkflowDlqFilters): Record<string, QueryValue> {
  return compact({
    workflowUrl: filters.workflowUrl,
    workflowRunId: filters.workflowRunId,
    workflowCreatedAt: filters.workflowCreatedAt,
    label: filters.label,
    failureFunctionState: filters.failureFunctionState,
    callerIp: filters.callerIp,
    flowControlKey: filters.flowControlKey,
    fromDate: filters.fromDate,
    toDate: filters.toDate,
  });
}

/**
 * The query of an action on DLQ entries: their ids, never none — with no ids and no filter the service would
 * act on the whole DLQ (the console's jobs list the entries first and act on them by id).
 */
export function dlqIdsQuery(dlqIds: readonly string[]): Record<string, QueryValue> {
  return { dlqIds: checkListIds(dlqIds, 'DLQ entry') };
}

/** Overrides → the `Upstash-*` headers of a restart/resume request. */
export function overrideHeaders(overrides: RunOverrides = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, name] of Object.entries(DLQ_OVERRIDE_HEADERS) as [keyof RunOverrides, string][]) {
    const value = overrides[key];
    if (value !== undefined && value !== '') headers[name] = String(value);
  }
  return headers;
}

function parseRuns(body: WorkflowRunLogsResponse | null): { runs: WorkflowRunLog[]; cursor?: string } {
  const runs = Array.isArray(body?.runs) ? body.runs : [];
  const cursor = cursorOf(body?.cursor);
  return cursor ? { runs, cursor } : { runs };
}

/**
 * How the console names itself to the service, as the vendors' SDKs do (`Upstash-Telemetry-Sdk`): the local
 * stack records it as who triggered or canceled a run (stack/workflows/origin.ts); the real service ignores it.
 */
export const CONSOLE_TELEMETRY = { 'upstash-telemetry-sdk': 'switchyard-console' } as const;

export class WorkflowClient {
  constructor(private readonly api: WorkflowTransport) {}

  /**
   * Runs whose payload, step outputs or errors contain `text` (every word, as a word prefix), newest first:
   * the local stack's text index (`GET /local/workflows/search`, local-only), with the list's filters.
   */
  async search(
    text: string,
    filters: RunFilters,
    options: { cursor?: string } = {},
  ): Promise<{ runs: WorkflowRunLog[]; cursor?: string }> {
    const { body } = await this.api.json<WorkflowRunLogsResponse | null>({
      path: '/local/workflows/search',
      query: { ...runFiltersQuery(filters), q: text, cursor: options.cursor, count: LOGS_RUN_PAGE_MAX },
    });
    return parseRuns(body);
  }

  /** One page of run logs, newest first (at most 10 runs: the service's run-mode maximum). */
  async logs(
    filters: RunFilters,
    options: { cursor?: string; trimBody?: number; signal?: AbortSignal } = {},
  ): Promise<{ runs: WorkflowRunLog[]; cursor?: string }> {
    const { body } = await this.api.json<WorkflowRunLogsResponse | null>({
      path: '/v2/workflows/logs',
      query: {
        ...runFiltersQuery(filters),
        cursor: options.cursor,
        count: LOGS_RUN_PAGE_MAX,
        trimBody: options.trimBody,
      },
      signal: options.signal,
    });
    return parseRuns(body);
  }

  /** One run; the newest of that id unless `workflowCreatedAt` picks one. Undefined when none matches. */
  async run(workflowRunId: string, workflowCreatedAt: number | undefined, trimBody: number) {
    const { body } = await this.api.json<WorkflowRunLogsResponse | null>({
      path: '/v2/workflows/logs',
      query: compact({ workflowRunId, workflowCreatedAt, trimBody, count: 1 }),
    });
    const { runs } = parseRuns(body);
    return runs.find((run) => run.workflowRunId === workflowRunId);
  }

  async cancel(workflowRunIds: readonly string[]): Promise<WorkflowCancelResponse> {
    checkListIds(workflowRunIds, 'run');
    const { body } = await this.api.json<WorkflowCancelResponse | null>({
      method: 'DELETE',
      path: '/v2/workflows/runs',
      query: { workflowRunIds: [...workflowRunIds] },
      headers: { ...CONSOLE_TELEMETRY },
    });
    return { cancelled: Number(body?.cancelled ?? 0) };
  }

  async notify(eventId: string, eventData: string, workflowRunId?: string): Promise<NotifyResponseItem[]> {
    const path = workflowRunId
      ? `/v2/notify/${enc(workflowRunId)}/${enc(eventId)}`
      : `/v2/notify/${enc(eventId)}`;
    const { body } = await this.api.json<NotifyResponseItem[] | NotifyResponseItem | null>({
      method: 'POST',
      path,
      body: eventData,
      headers: { ...CONSOLE_TELEMETRY },
    });
    if (body === null) return [];
    return Array.isArray(body) ? body : [body];
  }

  /**
   * Starts a run the way the SDK's `client.trigger` does: `POST /v2/batch` with the workflow init headers,
   * a fresh `wfr_` run id, and the failure callback pointed at the workflow (the SDK's default).
   */
  async trigger(input: {
    workflowUrl: string;
    body: string;
    label?: string;
    contentType?: string;
    retries?: number;
    retryDelay?: string;
    flowControlKey?: string;
    flowControlValue?: string;
    headers?: Record<string, string>;
    failureUrl?: string;
  }): Promise<{ workflowRunId: string }> {
    const workflowRunId = `wfr_${randomBytes(12).toString('base64url')}`;
    const featureSet = 'LazyFetch,InitialBody,WF_DetectTrigger,WF_TriggerOnConfig';
    const headers: Record<string, string> = {
      'upstash-workflow-init': 'true',
      'upstash-workflow-runid': workflowRunId,
      'upstash-workflow-url': input.workflowUrl,
      'upstash-workflow-sdk-version': '1',
      'upstash-forward-upstash-workflow-sdk-version': '1',
      'upstash-feature-set': featureSet,
      'upstash-method': 'POST',
      'content-type': input.contentType || 'application/json',
      'upstash-failure-callback': input.failureUrl || input.workflowUrl,
      'upstash-failure-callback-forward-upstash-workflow-is-failure': 'true',
      'upstash-failure-callback-forward-upstash-workflow-failure-callback': 'true',
      'upstash-failure-callback-workflow-runid': workflowRunId,
      'upstash-failure-callback-workflow-init': 'false',
      'upstash-failure-callback-workflow-url': input.workflowUrl,
      'upstash-failure-callback-workflow-calltype': 'failureCall',
      'upstash-failure-callback-feature-set': featureSet,
      ...CONSOLE_TELEMETRY,
    };
    // The original run's settings, as the SDK's trigger sends them (and mirrored for the failure callback).
    const settings: Record<string, string | undefined> = {
      retries: input.retries !== undefined ? String(input.retries) : undefined,
      'retry-delay': input.retryDelay || undefined,
      'flow-control-key': input.flowControlKey || undefined,
      'flow-control-value': input.flowControlKey ? input.flowControlValue || undefined : undefined,
    };
    for (const [name, value] of Object.entries(settings)) {
      if (value === undefined) continue;
      headers[`upstash-${name}`] = value;
      headers[`upstash-failure-callback-${name}`] = value;
    }
    for (const [name, value] of Object.entries(input.headers ?? {})) {
      headers[`upstash-forward-${name.toLowerCase()}`] = value;
      headers[`upstash-failure-callback-forward-${name.toLowerCase()}`] = value;
    }
    if (input.label) {
      headers['upstash-label'] = input.label;
      headers['upstash-forward-upstash-label'] = input.label;
    }
    await this.api.json<unknown>({
      method: 'POST',
      path: '/v2/batch',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ destination: input.workflowUrl, headers, body: input.body }]),
    });
    return { workflowRunId };
  }

  /** One page of the workflow DLQ (`GET /v2/dlq?source=workflow`). */
  async listDlq(
    filters: WorkflowDlqFilters,
    options: { cursor?: string; count: number; signal?: AbortSignal },
  ): Promise<WorkflowDlqListResponse> {
    const { body } = await this.api.json<WorkflowDlqListResponse | null>({
      path: '/v2/dlq',
      query: {
        source: 'workflow',
        ...dlqFiltersQuery(filters),
        cursor: options.cursor,
        count: options.count,
      },
      signal: options.signal,
    });
    const messages = Array.isArray(body?.messages) ? body.messages : [];
    const cursor = cursorOf(body?.cursor);
    return cursor ? { messages, cursor } : { messages };
  }

  /** Restart (from the first step) or resume (from the failed step) the runs of these entries. */
  async restartOrResumeDlq(
    action: 'restart' | 'resume',
    dlqIds: readonly string[],
    overrides: RunOverrides,
  ): Promise<DlqRestartResumeResponse> {
    const { body } = await this.api.json<DlqRestartResumeResponse | null>({
      method: 'POST',
      path: `/v2/workflows/dlq/${action}`,
      query: dlqIdsQuery(dlqIds),
      headers: overrideHeaders(overrides),
    });
    const workflowRuns = Array.isArray(body?.workflowRuns) ? body.workflowRuns : [];
    const cursor = cursorOf(body?.cursor);
    return cursor ? { workflowRuns, cursor } : { workflowRuns };
  }

  async deleteDlqMany(dlqIds: readonly string[]): Promise<DlqDeleteResponse> {
    const { body } = await this.api.json<DlqDeleteResponse | null>({
      method: 'DELETE',
      path: '/v2/workflows/dlq',
      query: dlqIdsQuery(dlqIds),
    });
    const cursor = cursorOf(body?.cursor);
    const deleted = Number(body?.deleted ?? 0);
    return cursor ? { deleted, cursor } : { deleted };
  }

  /** Sends the failure callback of one failed run again. */
  async retryDlqCallback(dlqId: string): Promise<DlqCallbackRetryResponse> {
    const { body } = await this.api.json<DlqCallbackRetryResponse>({
      method: 'POST',
      path: `/v2/workflows/dlq/callback/${enc(dlqId)}`,
    });
    return body;
  }
}
