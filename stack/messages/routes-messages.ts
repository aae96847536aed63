// Messages (`/v2/messages…`), the dead-letter queue (`/v2/dlq…`) and the logs (`/v2/logs`, `/v2/events`).
import type { DLQListResponse, LogsResponse } from '../../shared/messages/types';
import { MAX_PAGE_BYTES } from '../../shared/messages/limits';
import { HttpError, type RequestContext, type Router } from '../http/server';
import { DLQ_ENTRY_GONE, type DlqRecord } from '../store/dlq';
import type { StoreFilters } from '../store/query-filters';
import {
  hasFilter,
  jsonSource,
  parseCount,
  parseCursor,
  parseFilters,
  refuseWideningFilters,
} from './filters';
import { collectHeaders, planOverride, PublishError } from './publish-request';
import { toDlqMessage, toLogEntry, toMessage } from './records';
import type { ServiceContext } from './service-context';
import { prepareInsert, type MessageWrite } from './write-ops';

/**
 * Filters from the query string, or from a legacy JSON body when the query has none. A parameter (or body
 * field) the endpoint does not know is refused, naming it: ignored, it would widen the action to everything.
 */
async function bulkFilters(
  ctx: RequestContext,
  allowed: { dlq?: boolean },
  where: string,
): Promise<StoreFilters> {
  refuseWideningFilters(
    { getAll: (name) => ctx.query.getAll(name), keys: () => ctx.query.keys() },
    allowed,
    where,
  );
  const fromQuery = parseFilters(ctx.query, allowed);
  if (hasFilter(fromQuery)) return fromQuery;
  const body = await ctx.body();
  if (body.length === 0 || body.toString('utf8').trim() === '') return fromQuery;
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new HttpError(400, `request body is not valid JSON: ${(error as Error).message}`);
  }
  const source = jsonSource(json);
  refuseWideningFilters(source, allowed, `${where} (JSON body)`);
  return parseFilters(source, allowed);
}

/** Most messages one bulk cancel request acts on. */
const MAX_CANCEL_COUNT = 1_000;

export function messageRoutes(router: Router, service: ServiceContext): void {
  const { store, writer, engine, clock } = service;

  // ---------------------------------------------------------------- messages
  router.add('GET', '/v2/messages/:id', (ctx) => {
    const id = ctx.params.id as string;
    const record = store.messages.getById(id);
    if (!record || record.done) {
      throw new HttpError(404, `message '${id}' not found (finished messages are only in the logs)`);
    }
    return { body: toMessage(record) };
  });
  router.add('DELETE', '/v2/messages/:id', async (ctx) => {
    const id = ctx.params.id as string;
    const cancelled = await engine.cancel([id]);
    if (cancelled === 0) throw new HttpError(404, `message '${id}' not found or already finished`);
    return { body: { cancelled } };
  });
  router.add('DELETE', '/v2/messages', async (ctx) => {
    // No ids and no filter means every pending message, as at the real service (the SDK's
    // `cancel({all: true})` and `deleteAll()`); the console asks before it sends one. `count` caps how many
    // one request cancels (the SDK loops until `cancelled` is 0); without it, every match.
    const filters = await bulkFilters(ctx, {}, 'DELETE /v2/messages');
    const count = ctx.query.has('count')
      ? parseCount(ctx.query, MAX_CANCEL_COUNT, MAX_CANCEL_COUNT)
      : undefined;
    const ids = filters.messageIds
      ? filters.messageIds
      : store.messages.findPending(filters, count).map((row) => row.id);
    return { body: { cancelled: await engine.cancel(ids) } };
  });

  // ---------------------------------------------------------------- DLQ
  const dlqNotFound = (id: string): HttpError => new HttpError(404, `DLQ message '${id}' not found`);

  router.add('GET', '/v2/dlq', (ctx) => {
    const filters = parseFilters(ctx.query, { dlq: true });
    const count = parseCount(ctx.query, 100, 100);
    const page = store.dlq.list({ filters, before: parseCursor(ctx.query), count, maxBytes: MAX_PAGE_BYTES });
    const response: DLQListResponse = { messages: page.entries.map(toDlqMessage) };
    if (page.next !== undefined) response.cursor = String(page.next);
    return { body: response };
  });
  router.add('GET', '/v2/dlq/:id', (ctx) => {
    const entry = store.dlq.get(ctx.params.id as string);
    if (!entry) throw dlqNotFound(ctx.params.id as string);
    return { body: toDlqMessage(entry) };
  });
  router.add('DELETE', '/v2/dlq/:id', async (ctx) => {
    const id = ctx.params.id as string;
    if (!(await writer.commit('deleteDlq', id))) throw dlqNotFound(id);
    return { raw: '' };
  });

  /**
   * One page of DLQ entries the bulk operations act on: the listed ids (and those of them not found), or the
   * filter's next page — every entry when there is no filter, as at the real service.
   */
  const bulkTargets = async (
    ctx: RequestContext,
    where: string,
  ): Promise<{ entries: DlqRecord[]; next?: number; byIds: boolean; missing: string[] }> => {
    const filters = await bulkFilters(ctx, { dlq: true }, where);
    if (filters.dlqIds) {
      const ids = [...new Set(filters.dlqIds)];
      const found = ids.map((id) => store.dlq.get(id));
      return {
        entries: found.filter((entry): entry is DlqRecord => entry !== undefined),
        byIds: true,
        missing: ids.filter((_, index) => found[index] === undefined),
      };
    }
    const count = parseCount(ctx.query, 100, 100);
    return {
      ...store.dlq.list({ filters, before: parseCursor(ctx.query), count }),
      byIds: false,
      missing: [],
    };
  };

  router.add('DELETE', '/v2/dlq', async (ctx) => {
    const { entries, next } = await bulkTargets(ctx, 'DELETE /v2/dlq');
    const deleted = await writer.commit(
      'deleteDlqMany',
      entries.map((entry) => entry.dlqId),
    );
    return { body: next !== undefined ? { deleted, cursor: String(next) } : { deleted } };
  });

  /**
   * Publishes the entries' messages again (with the request's header overrides), each entry taken in the same
   * transaction: one taken by another request meanwhile is skipped — or, for entries named by id (`named`),
   * fails the whole request with 404 and retries none.
   */
  const retry = async (
    ctx: RequestContext,
    entries: DlqRecord[],
    named: boolean,
  ): Promise<{ messageId: string }[]> => {
    const now = clock.now();
    const headers = collectHeaders(ctx.req.rawHeaders);
    let planned;
    try {
      planned = entries.map((entry) => ({ entry, ...planOverride(entry.message.spec, headers, now) }));
    } catch (error) {
      if (error instanceof PublishError) throw new HttpError(error.status, error.message);
      throw error;
    }
    const inserts = planned.map(({ spec, dueAt, entry }) =>
      prepareInsert([{ spec, dueAt, body: entry.message.body }], now),
    );
    let results: unknown[];
    try {
      results = await writer.commitAll(
        planned.map(({ entry }, index): MessageWrite => [
          'retryDlq',
          entry.dlqId,
          (inserts[index] as ReturnType<typeof prepareInsert>).prepared,
          now,
          named,
        ]),
      );
    } catch (error) {
      if (error instanceof Error && error.message.includes(DLQ_ENTRY_GONE))
        throw new HttpError(
          404,
          `some messages were not found (retried or deleted meanwhile): ${error.message}`,
        );
      throw error;
    }
    return planned.flatMap(({ entry, spec, dueAt }, index) => {
      if (results[index] === null) return [];
      const inserted = (inserts[index] as ReturnType<typeof prepareInsert>).result(results[index]);
      engine.addInserted(inserted, [{ spec, dueAt, body: entry.message.body }]);
      return [{ messageId: (inserted.results[0] as { messageId: string }).messageId }];
    });
  };

  router.add('POST', '/v2/dlq/retry/:id', async (ctx) => {
    const entry = store.dlq.get(ctx.params.id as string);
    if (!entry) throw dlqNotFound(ctx.params.id as string);
    const [response] = await retry(ctx, [entry], true);
    return { status: 201, body: response };
  });
  router.add('POST', '/v2/dlq/retry', async (ctx) => {
    const { entries, next, byIds, missing } = await bulkTargets(ctx, 'POST /v2/dlq/retry');
    if (missing.length > 0) throw new HttpError(404, `some messages were not found: ${missing.join(', ')}`);
    const responses = await retry(ctx, entries, byIds);
    return { status: 201, body: { cursor: next !== undefined ? String(next) : '', responses } };
  });

  // ---------------------------------------------------------------- logs
  const logs = (ctx: RequestContext): { body: LogsResponse } => {
    const filters = parseFilters(ctx.query, { state: true });
    const count = parseCount(ctx.query, 100, 1000);
    // Half the budget: the page goes out twice, as `events` and as its older name `logs`.
    const page = store.events.list({
      filters,
      before: parseCursor(ctx.query),
      count,
      maxBytes: MAX_PAGE_BYTES / 2,
    });
    const events = page.events.map(toLogEntry);
    const body: LogsResponse = { events, logs: events };
    if (page.next !== undefined) body.cursor = String(page.next);
    return { body };
  };
  router.add('GET', '/v2/logs', logs);
  router.add('GET', '/v2/events', logs);
}
