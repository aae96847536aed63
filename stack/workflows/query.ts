// Query-string parsing shared by the logs, DLQ and cancel endpoints: every malformed value is a 400 with a
// message naming the parameter. Multi-value filters may be repeated or comma-joined.
import {
  FAILURE_FUNCTION_STATES,
  RUN_STATES,
  STEP_STATES,
  type FailureFunctionState,
} from '../../shared/workflows/types';
import { HttpError, refuseUnknownParams, type RequestContext } from '../http/server';
import { TOKEN_PARAMS } from '../messages/publish-request';
import { jsonSource } from '../messages/filters';
import type { RunFilters, RunState, StepState } from '../store/workflow-store';

export function integer(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new HttpError(
      400,
      `invalid ${name} '${value.slice(0, 50)}': expected a whole number from ${min} to ${max}`,
    );
  }
  return Number(value);
}

const MAX_MS = 8_640_000_000_000_000;

export function date(query: URLSearchParams, name: string): number | undefined {
  return integer(query, name, 0, MAX_MS);
}

export function multi(query: URLSearchParams, name: string): string[] | undefined {
  const values = query
    .getAll(name)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
  return values.length > 0 ? values : undefined;
}

export function single(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null || value === '' ? undefined : value;
}

/** A cursor is a row number this service handed out. */
export function cursor(query: URLSearchParams): number | undefined {
  const value = query.get('cursor');
  if (value === null || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value)) throw new HttpError(400, `invalid cursor '${value.slice(0, 50)}'`);
  return Number(value);
}

function httpUrl(value: string, name: string): string {
  if (!/^https?:\/\//i.test(value)) {
    throw new HttpError(400, `invalid ${name} '${value.slice(0, 100)}': must start with http:// or https://`);
  }
  return value;
}

export function failureStates(query: URLSearchParams): FailureFunctionState[] | undefined {
  const values = multi(query, 'failureFunctionState');
  for (const value of values ?? []) {
    if (!(FAILURE_FUNCTION_STATES as readonly string[]).includes(value)) {
      throw new HttpError(
        400,
        `invalid failureFunctionState '${value}': use ${FAILURE_FUNCTION_STATES.join(', ')}`,
      );
    }
  }
  return values as FailureFunctionState[] | undefined;
}

/** The run filters every endpoint shares (logs, DLQ, cancel). */
export function runFilters(
  query: URLSearchParams,
  options: { urlPrefixByDefault?: boolean } = {},
): RunFilters {
  const filters: RunFilters = {};
  const runs = single(query, 'workflowRuns');
  if (runs !== undefined) {
    filters.workflowRuns = runs.split(',').map((pair) => {
      const match = /^(.+)@(\d+)$/.exec(pair.trim());
      if (!match)
        throw new HttpError(400, `invalid workflowRuns entry '${pair.slice(0, 100)}': expected id@createdAt`);
      return { id: match[1] as string, createdAt: Number(match[2]) };
    });
    return filters;
  }
  const runId = single(query, 'workflowRunId');
  if (runId !== undefined) filters.workflowRunId = runId;
  const createdAt = date(query, 'workflowCreatedAt');
  if (createdAt !== undefined) filters.workflowCreatedAt = createdAt;
  const urls = query.getAll('workflowUrl').filter((value) => value !== '');
  const exact = query.get('workflowUrlExactMatch');
  const prefix = single(query, 'workflowUrlStartingWith');
  if (prefix !== undefined) filters.workflowUrlPrefix = httpUrl(prefix, 'workflowUrlStartingWith');
  if (urls.length > 0) {
    urls.forEach((url) => httpUrl(url, 'workflowUrl'));
    const asPrefix = exact === 'false' || (options.urlPrefixByDefault === true && exact !== 'true');
    if (asPrefix && urls.length === 1) filters.workflowUrlPrefix = urls[0];
    else filters.workflowUrl = urls;
  }
  const from = date(query, 'fromDate');
  if (from !== undefined) filters.fromDate = from;
  const to = date(query, 'toDate');
  if (to !== undefined) filters.toDate = to;
  const labels = multi(query, 'label');
  if (labels) filters.label = labels;
  const flowKeys = multi(query, 'flowControlKey');
  if (flowKeys) filters.flowControlKey = flowKeys;
  const callerIps = multi(query, 'callerIp');
  if (callerIps) filters.callerIp = callerIps;
  const messageId = single(query, 'messageId');
  if (messageId !== undefined) filters.messageId = messageId;
  const states = multi(query, 'state');
  for (const state of states ?? []) {
    if ((RUN_STATES as readonly string[]).includes(state)) (filters.runState ??= []).push(state as RunState);
    else if ((STEP_STATES as readonly string[]).includes(state))
      (filters.stepState ??= []).push(state as StepState);
    else {
      throw new HttpError(
        400,
        `invalid state '${state.slice(0, 50)}': use a run state (${RUN_STATES.join(', ')}) or a step state (${STEP_STATES.join(', ')})`,
      );
    }
  }
  const failure = failureStates(query);
  if (failure) filters.failureFunctionState = failure;
  return filters;
}

/** True when no filter narrows the selection. */
export function isEmptyFilter(filters: RunFilters): boolean {
  return Object.values(filters).every(
    (value) => value === undefined || (Array.isArray(value) && value.length === 0),
  );
}

/** The query parameters runFilters() reads. */
const RUN_FILTER_PARAMS = [
  'workflowRunId',
  'workflowCreatedAt',
  'workflowRuns',
  'workflowUrl',
  'workflowUrlExactMatch',
  'workflowUrlStartingWith',
  'fromDate',
  'toDate',
  'label',
  'flowControlKey',
  'callerIp',
  'messageId',
  'state',
  'failureFunctionState',
];

/** What each bulk endpoint takes besides the run filters. */
export const BULK_PARAMS = {
  dlq: ['dlqIds', 'url', 'responseStatus', 'count', 'cursor', 'all'],
  cancel: ['workflowRunIds', 'host', 'path', 'count', 'all'],
} as const;

/** Parameters that are not filters: left empty, they take their defaults. */
const NOT_FILTERS: ReadonlySet<string> = new Set(['count', 'cursor', 'all', ...TOKEN_PARAMS]);

/**
 * What a bulk request (DLQ delete, restart, resume; cancel) must not do, since each would widen the action to
 * every run without anyone choosing "all":
 * - name a parameter its endpoint does not know (a typo such as `labeel`): refused, naming it;
 * - give a filter with no value (`dlqIds=`, `label=%20`, `workflowRunIds=,`): refused; ignored, it was no filter;
 * - say `all` with anything but `true`;
 * - carry a body: these endpoints read their ids and filters from the query string only (as the SDK sends
 *   them), so a body's `{"dlqIds": […]}` would be ignored.
 * `all=true` is still accepted, and means what no filter means: every one.
 */
export async function refuseWideningBulkRequest(
  ctx: Pick<RequestContext, 'query' | 'body'>,
  kind: keyof typeof BULK_PARAMS,
  where: string,
): Promise<void> {
  const query = ctx.query;
  refuseUnknownParams(
    query.keys(),
    new Set([...RUN_FILTER_PARAMS, ...BULK_PARAMS[kind]]),
    where,
    TOKEN_PARAMS,
  );
  for (const name of new Set(query.keys())) {
    if (NOT_FILTERS.has(name)) continue;
    const parts = query.getAll(name).flatMap((value) => value.split(','));
    if (parts.every((part) => part.trim() === '')) {
      throw new HttpError(
        400,
        `empty filter '${name.slice(0, 60)}' for ${where}: give it a value, or leave it out ` +
          '(with no filter at all, the action takes every run)',
      );
    }
  }
  const all = query.getAll('all').find((value) => value !== 'true');
  if (all !== undefined) {
    throw new HttpError(400, `invalid all '${all.slice(0, 20)}' for ${where}: the only value is true`);
  }
  if ((await ctx.body()).toString('utf8').trim() !== '') {
    throw new HttpError(
      400,
      `${where} takes its ids and filters in the query string (e.g. ?dlqIds=a,b), not in a request body`,
    );
  }
}

/**
 * The ids and filters of a bulk cancel (DELETE /v2/workflows/runs): the query string, as the JS SDK sends them,
 * or — when the query names none — a JSON body, the API's older form that the Go SDK sends
 * (`{"workflowRunIds": ["wfr_a"]}`, `{"workflowUrl": "https://…"}`; `{}` means every run, as no filter does).
 * Either is held to refuseWideningBulkRequest's rules; a body beside query filters is refused (which one?).
 */
export async function cancelQuery(
  ctx: Pick<RequestContext, 'query' | 'body'>,
  where: string,
): Promise<URLSearchParams> {
  const text = (await ctx.body()).toString('utf8').trim();
  const queryFilters = [...ctx.query.keys()].filter((name) => !NOT_FILTERS.has(name));
  if (text === '' || queryFilters.length > 0) {
    await refuseWideningBulkRequest(ctx, 'cancel', where);
    return ctx.query;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `request body is not valid JSON: ${(error as Error).message}`);
  }
  const source = jsonSource(json);
  const query = new URLSearchParams(ctx.query);
  for (const name of source.keys()) {
    const values = source.getAll(name);
    // An empty list stays a named filter with no value, which refuseWideningBulkRequest refuses.
    if (values.length === 0) query.append(name, '');
    for (const value of values) query.append(name, value);
  }
  await refuseWideningBulkRequest(
    { query, body: async () => Buffer.alloc(0) },
    'cancel',
    `${where} (JSON body)`,
  );
  return query;
}
