// GET /v2/workflows/logs (the API description) and GET /v2/workflows/events?groupBy=workflowRunId (the SDK's
// client.logs()): runs newest first, ten per page, each with all its steps. `/v2/workflows/events` without
// `groupBy` answers in event mode (log-events.ts). `/v2/workflows/logs` always answers runs, the response
// its description documents.
import { LOGS_EVENT_PAGE_MAX, LOGS_RUN_PAGE_MAX } from '../../shared/workflows/types';
import { HttpError, type Handler, type Router } from '../http/server';
import { buildRunRecord } from './records';
import { recordLive } from './record-live';
import { cursor, integer, runFilters } from './query';
import { eventPage, parseEventCursor } from './log-events';
import type { WorkflowRuntime } from './runtime';

export function logRoutes(router: Router, runtime: WorkflowRuntime): void {
  const logs =
    (eventModeWithoutGroupBy: boolean): Handler =>
    (ctx) => {
      const groupBys = ctx.query.getAll('groupBy');
      for (const value of groupBys) {
        if (value !== 'workflowRunId')
          throw new HttpError(
            400,
            `invalid groupBy '${value.slice(0, 50)}': only workflowRunId is supported`,
          );
      }
      const groupBy = groupBys[0] ?? null;
      const filters = runFilters(ctx.query);
      const trimBody = integer(ctx.query, 'trimBody', -1, 1_073_741_824) ?? -1;
      if (groupBy === null && eventModeWithoutGroupBy) {
        const count = integer(ctx.query, 'count', 1, LOGS_EVENT_PAGE_MAX) ?? LOGS_EVENT_PAGE_MAX;
        const from = parseEventCursor(ctx.query.get('cursor'));
        return { status: 200, body: eventPage(runtime, filters, from, count, trimBody) };
      }
      const before = cursor(ctx.query);
      const count = integer(ctx.query, 'count', 1, LOGS_RUN_PAGE_MAX) ?? LOGS_RUN_PAGE_MAX;
      const page = runtime.store.listRuns(filters, before, count);
      return {
        status: 200,
        body: {
          cursor: page.next !== undefined ? String(page.next) : '',
          runs: page.runs.map((run) => buildRunRecord(runtime.store, run, trimBody, recordLive(runtime))),
        },
      };
    };
  router.add('GET', '/v2/workflows/logs', logs(false));
  router.add('GET', '/v2/workflows/events', logs(true));
}
