// GET /local/workflows/search — text search over runs, a local-only extension (the real service has none;
// docs/stack-workflows.md). `q` is matched against each run's payload, step outputs, call bodies, errors and
// response (stack/store/workflow-search.ts); every filter of /v2/workflows/logs applies too. The answer has
// the logs' shape, `{cursor, runs}`, newest run first, at most 10 runs a page.
import { LOGS_RUN_PAGE_MAX } from '../../shared/workflows/types';
import { HttpError, type Router } from '../http/server';
import { searchQuery } from '../store/workflow-search';
import { searchOf } from './history-writes';
import { cursor, integer, isEmptyFilter, runFilters } from './query';
import { buildRunRecord } from './records';
import { recordLive } from './record-live';
import type { WorkflowRuntime } from './runtime';

/** Longest search text taken. */
const QUERY_MAX = 500;

export function searchRoutes(router: Router, runtime: WorkflowRuntime): void {
  router.add('GET', '/local/workflows/search', (ctx) => {
    const text = ctx.query.get('q') ?? '';
    if (text.length > QUERY_MAX) throw new HttpError(400, `invalid q: longer than ${QUERY_MAX} characters`);
    const query = searchQuery(text);
    if (query === undefined) throw new HttpError(400, 'invalid q: give at least one word to search for');
    const filters = runFilters(ctx.query);
    const trimBody = integer(ctx.query, 'trimBody', -1, 1_073_741_824) ?? -1;
    const count = integer(ctx.query, 'count', 1, LOGS_RUN_PAGE_MAX) ?? LOGS_RUN_PAGE_MAX;
    const accept = isEmptyFilter(filters)
      ? () => true
      : (runSeq: number) =>
          runtime.store.listRuns({ ...filters, runSeqs: [runSeq] }, undefined, 1).runs.length > 0;
    const page = searchOf(runtime.stackStore).runs(query, cursor(ctx.query), count, accept);
    const runs =
      page.runSeqs.length > 0 ? runtime.store.listRuns({ runSeqs: page.runSeqs }, undefined, count).runs : [];
    const live = recordLive(runtime);
    return {
      status: 200,
      body: {
        cursor: page.next !== undefined ? String(page.next) : '',
        runs: runs.map((run) => buildRunRecord(runtime.store, run, trimBody, live)),
      },
    };
  });
}
