// GET /v2/workflows/logs (the API description) and GET /v2/workflows/events?groupBy=workflowRunId (the SDK's
// client.logs()): runs newest first, ten per page, each with all its steps.
import { LOGS_RUN_PAGE_MAX } from '../../shared/workflows/types';
import { HttpError, type Handler, type Router } from '../http/server';
import { buildRunRecord } from './records';
import { cursor, integer, runFilters } from './query';
import type { WorkflowRuntime } from './runtime';

export function logRoutes(router: Router, runtime: WorkflowRuntime): void {
  const logs: Handler = (ctx) => {
    const groupBy = ctx.query.get('groupBy');
    if (groupBy !== null && groupBy !== 'workflowRunId') {
      throw new HttpError(400, `invalid groupBy '${groupBy.slice(0, 50)}': only workflowRunId is supported`);
    }
    const filters = runFilters(ctx.query);
    const before = cursor(ctx.query);
    const count = integer(ctx.query, 'count', 1, LOGS_RUN_PAGE_MAX) ?? LOGS_RUN_PAGE_MAX;
    const trimBody = integer(ctx.query, 'trimBody', -1, 1_073_741_824) ?? -1;
    const page = runtime.store.listRuns(filters, before, count);
    return {
      status: 200,
      body: {
        cursor: page.next !== undefined ? String(page.next) : '',
        runs: page.runs.map((run) => buildRunRecord(runtime.store, run, trimBody)),
      },
    };
  };
  router.add('GET', '/v2/workflows/logs', logs);
  router.add('GET', '/v2/workflows/events', logs);
}
