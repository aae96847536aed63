// The workflow DLQ's endpoints (failed runs): list, get, delete, restart (a new run from the start), resume (a
// new run that keeps the failed run's completed steps and goes on from its failed step), failure-callback
// retry; and bulk cancel of active runs. The actions themselves are the runtime's (dlq-actions.ts); these
// routes select the runs and answer. Bulk forms take ids or filters with cursor/count batching — with neither,
// every entry (or run), as at the real service; a parameter the endpoint does not know is refused (400, naming
// it) so that a typo never widens an action to everything.
import type { WorkflowDlqMessage } from '../../shared/workflows/types';
import { HttpError, type Handler, type RequestContext, type Router } from '../http/server';
import { collectHeaders, parseConfig, PublishError, type ConfigPatch } from '../messages/publish-request';
import type { RunFilters, RunRecord } from '../store/workflow-store';
import { redacted, redactHeaders } from '../messages/records';
import { workflowMeta } from './plan';
import { cancelQuery, cursor, integer, multi, refuseWideningBulkRequest, runFilters } from './query';
import { canceledEvent, dlqOrigin } from './origin';
import { DlqEntryMissing, overriding, type Overrides, type RunRef } from './dlq-actions';
import type { WorkflowRuntime } from './runtime';
import { DLQ_ENTRY_GONE } from '../store/dlq';

/**
 * A DLQ action's answer. Each entry is claimed inside the action's transaction; an entry another request took
 * first is skipped, or — for an action on named entries — fails the whole action with 404, acting on none.
 */
async function claimed<T>(action: Promise<T>): Promise<T> {
  try {
    return await action;
  } catch (error) {
    if (error instanceof DlqEntryMissing) throw new HttpError(404, error.message);
    if (error instanceof Error && error.message.includes(DLQ_ENTRY_GONE)) {
      throw new HttpError(
        404,
        `${error.message.slice(error.message.indexOf(DLQ_ENTRY_GONE))} (another request restarted, resumed or deleted it)`,
      );
    }
    throw error;
  }
}

const DLQ_PAGE_MAX = 100;

function dlqView(runtime: WorkflowRuntime, run: RunRecord): WorkflowDlqMessage | undefined {
  if (run.dlqId === undefined) return undefined;
  const entry = runtime.stackStore.dlq.get(run.dlqId);
  if (!entry) return undefined;
  const { message } = entry;
  // The failed message's body, as for any DLQ entry: a step delivers the run log up to its own entry.
  const body = workflowMeta(message)?.kind === 'step' ? runtime.stepBody(message.id) : message.body;
  const view: WorkflowDlqMessage = {
    dlqId: run.dlqId,
    messageId: message.id,
    url: message.spec.url,
    method: message.spec.method,
    header: redactHeaders(run.config, message.spec.header),
    body: run.config.redact?.body ? redacted(body) : body.toString('utf8'),
    maxRetries: message.spec.maxRetries,
    notBefore: message.spec.notBefore,
    createdAt: message.createdAt,
    workflowRunId: run.runId,
    workflowCreatedAt: run.createdAt,
    workflowUrl: run.url,
    responseStatus: entry.responseStatus,
  };
  if (run.callerIp) view.callerIP = run.callerIp;
  if (entry.responseHeader) view.responseHeader = entry.responseHeader;
  if (entry.responseBody) view.responseBody = entry.responseBody.toString('utf8');
  if (run.config.failureCallback) view.failureCallback = run.config.failureCallback;
  if (run.failure) {
    view.failureCallbackInfo = {
      state: run.failure.state,
      responseStatus: run.failure.responseStatus,
      responseBody: run.failure.responseBody,
      responseHeaders: run.failure.responseHeaders,
    };
  }
  if (run.config.labels && run.config.labels.length > 0) {
    view.label = run.config.labels[0];
    view.labels = run.config.labels;
  }
  if (run.config.flowControl) view.flowControlKey = run.config.flowControl.key;
  return view;
}

/** DLQ filters: the run filters, dates on the failure time, plus `url` and `responseStatus`. */
function dlqFilters(query: URLSearchParams): RunFilters {
  const filters = runFilters(query);
  const urls = multi(query, 'url');
  if (urls) filters.workflowUrl = [...(filters.workflowUrl ?? []), ...urls];
  const statuses = multi(query, 'responseStatus');
  if (statuses) {
    filters.responseStatus = statuses.map((status) => {
      if (!/^\d{1,3}$/.test(status))
        throw new HttpError(400, `invalid responseStatus '${status.slice(0, 20)}'`);
      return Number(status);
    });
  }
  const ids = multi(query, 'dlqIds');
  if (ids) filters.dlqIds = ids;
  filters.inDlq = true;
  filters.datesOnCompletion = true;
  return filters;
}

/**
 * The DLQ entries a bulk request selects: by ids (all of them), or by filters in cursor/count batches — with
 * no filter, every entry, as at the real service (the SDK's `{all: true}` sends only `count`).
 */
async function selectDlq(
  runtime: WorkflowRuntime,
  ctx: RequestContext,
  where: string,
  defaultCount: number | undefined,
): Promise<{ runs: RunRecord[]; next?: number; byIds: boolean }> {
  await refuseWideningBulkRequest(ctx, 'dlq', where);
  const filters = dlqFilters(ctx.query);
  if (filters.dlqIds) {
    const runs = [...new Set(filters.dlqIds)].map((id) => {
      const run = runtime.store.runByDlqId(id);
      if (!run) throw new HttpError(404, `DLQ entry '${id}' not found`);
      return run;
    });
    return { runs, byIds: true };
  }
  const count = integer(ctx.query, 'count', 1, 100_000) ?? defaultCount ?? Number.MAX_SAFE_INTEGER;
  return { ...runtime.store.listRuns(filters, cursor(ctx.query), Math.min(count, 1_000_000)), byIds: false };
}

/** Reads a restart/resume request's override headers once; they apply to each run's settings. */
function overrides(runtime: WorkflowRuntime, ctx: RequestContext): Overrides {
  let patch: ConfigPatch;
  try {
    patch = parseConfig(collectHeaders(ctx.req.rawHeaders), runtime.clock.now());
  } catch (error) {
    if (error instanceof PublishError) throw new HttpError(400, error.message);
    throw error;
  }
  return overriding(patch);
}

export function dlqRoutes(router: Router, runtime: WorkflowRuntime): void {
  const list: Handler = (ctx) => {
    const filters = dlqFilters(ctx.query);
    const count = integer(ctx.query, 'count', 1, DLQ_PAGE_MAX) ?? DLQ_PAGE_MAX;
    const page = runtime.store.listRuns(filters, cursor(ctx.query), count);
    return {
      status: 200,
      body: {
        messages: page.runs.flatMap((run) => dlqView(runtime, run) ?? []),
        cursor: page.next !== undefined ? String(page.next) : '',
      },
    };
  };
  // The message DLQ's path: its workflow source is ours, the rest goes on to the message service's route.
  router.add('GET', '/v2/dlq', (ctx) => (ctx.query.get('source') === 'workflow' ? list(ctx) : ctx.next()));
  router.add('GET', '/v2/workflows/dlq', list);
  const one = (ctx: RequestContext): RunRecord => {
    const run = runtime.store.runByDlqId(ctx.params.dlqId as string);
    if (!run) throw new HttpError(404, `DLQ entry '${ctx.params.dlqId}' not found`);
    return run;
  };
  router.add('GET', '/v2/workflows/dlq/:dlqId', (ctx) => {
    const view = dlqView(runtime, one(ctx));
    if (!view) throw new HttpError(404, `DLQ entry '${ctx.params.dlqId}' not found`);
    return { status: 200, body: view };
  });
  router.add('DELETE', '/v2/workflows/dlq/:dlqId', async (ctx) => {
    // Deleted by another request since `one` found it: gone, as for any second delete.
    if ((await runtime.dlq.remove([one(ctx)])) === 0)
      throw new HttpError(404, `DLQ entry '${ctx.params.dlqId}' not found`);
    return { status: 200, body: { deleted: 1 } };
  });
  router.add('DELETE', '/v2/workflows/dlq', async (ctx) => {
    const { runs, next } = await selectDlq(runtime, ctx, 'DELETE /v2/workflows/dlq', 100);
    return {
      status: 200,
      body: { deleted: await runtime.dlq.remove(runs), cursor: next !== undefined ? String(next) : '' },
    };
  });
  for (const action of ['restart', 'resume'] as const) {
    // Restart and resume take the same request: the overrides, whether entries were named, the new runs' origin.
    const run = (ctx: RequestContext, runs: RunRecord[], named: boolean): Promise<RunRef[]> =>
      claimed(
        runtime.dlq[action](runs, {
          overrides: overrides(runtime, ctx),
          named,
          origin: (time, from) => dlqOrigin(ctx, time, action, from),
        }),
      );
    router.add('POST', `/v2/workflows/dlq/${action}`, async (ctx) => {
      const { runs, next, byIds } = await selectDlq(
        runtime,
        ctx,
        `POST /v2/workflows/dlq/${action}`,
        undefined,
      );
      const workflowRuns = await run(ctx, runs, byIds);
      return { status: 200, body: { workflowRuns, cursor: next !== undefined ? String(next) : '' } };
    });
    router.add('POST', `/v2/workflows/dlq/${action}/:dlqId`, async (ctx) => {
      const [result] = await run(ctx, [one(ctx)], true);
      if (!result) throw new HttpError(409, `DLQ entry '${ctx.params.dlqId}' could not be ${action}ed`);
      return { status: 200, body: { workflowRuns: [result], ...result } };
    });
  }
  router.add('POST', '/v2/workflows/dlq/callback/:dlqId', async (ctx) => {
    const run = one(ctx);
    const sent = await runtime.dlq.retryFailure(run);
    if (sent === 'none')
      throw new HttpError(400, `workflow run '${run.runId}' has no failure callback to retry`);
    if (sent === 'not-failed') {
      throw new HttpError(
        400,
        `the failure callback of workflow run '${run.runId}' has not failed (${run.failure?.state}): only a failed one is sent again`,
      );
    }
    if (sent === 'raced') {
      throw new HttpError(
        409,
        `the failure callback of workflow run '${run.runId}' was just sent again by another request`,
      );
    }
    return { status: 200, body: { workflowRunId: run.runId, workflowCreatedAt: run.createdAt } };
  });

  router.add('DELETE', '/v2/workflows/runs', async (ctx) => {
    const query = await cancelQuery(ctx, 'DELETE /v2/workflows/runs');
    const ids = multi(query, 'workflowRunIds');
    let runs: RunRecord[];
    if (ids) {
      runs = ids.flatMap((id) => runtime.store.activeRun(id) ?? []);
    } else {
      const filters = runFilters(query, { urlPrefixByDefault: true });
      // Only running runs can be cancelled. The store ORs run states with step states, so any other state
      // given here would widen the selection past the caller's filter instead of narrowing it.
      if (filters.stepState || filters.runState?.some((state) => state !== 'RUN_STARTED')) {
        throw new HttpError(
          400,
          'a cancel takes running runs only: filter it by state RUN_STARTED, or leave the state out',
        );
      }
      const hosts = multi(query, 'host');
      if (hosts) filters.host = hosts.map((host) => host.toLowerCase());
      const paths = multi(query, 'path');
      if (paths) {
        filters.path = paths.map((path) => {
          if (!path.startsWith('/'))
            throw new HttpError(400, `invalid path '${path.slice(0, 100)}': must start with /`);
          return path;
        });
      }
      // No filter: every active run (up to `count`), as at the real service.
      const count = integer(query, 'count', 1, 100_000) ?? 100;
      runs = runtime.store.listRuns({ ...filters, runState: ['RUN_STARTED'] }, undefined, count).runs;
    }
    let cancelled = 0;
    for (const run of runs) {
      const event = canceledEvent(ctx, 'bulk', runtime.clock.now());
      if (await runtime.finish(run, 'RUN_CANCELED', null, null, event)) cancelled++;
    }
    return { status: 200, body: { cancelled } };
  });
}
