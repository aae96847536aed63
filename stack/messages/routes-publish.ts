// POST /v2/publish/{destination}, POST /v2/enqueue/{queue}/{destination} and POST /v2/batch.
import type { BatchResultItem, PublishResponse, PublishResult } from '../../shared/messages/types';
import { HttpError, type Reply, type RequestContext, type Router } from '../http/server';
import type { UrlGroupRecord } from '../store/url-groups';
import {
  checkHeaders,
  destinationQuery,
  type Destination,
  headersFromRecord,
  parseDestination,
  type PlannedMessage,
  planPublish,
  PublishError,
  requestHeaders,
  withDefaults,
  type HeaderInput,
} from './publish-request';
import type { ServiceContext } from './service-context';
import { type MessageWrite, prepareInsert } from './write-ops';

function toHttpError(error: unknown): unknown {
  return error instanceof PublishError ? new HttpError(error.status, error.message) : error;
}

/** The response shape for one publish: an object for a URL, an array (one per endpoint) for a URL group. */
function publishResult(
  destination: Destination,
  results: { messageId: string; url: string; deduplicated: boolean }[],
): PublishResult {
  const entries = results.map((result) => {
    // `url` for every destination kind, as the reference's publish answer and the SDK's `PublishToUrlResponse`
    // have it: a URL group's entries tell the endpoints apart by it, and a URL's echoes the URL called.
    const entry: PublishResponse = { messageId: result.messageId, url: result.url };
    if (result.deduplicated) entry.deduplicated = true;
    return entry;
  });
  return destination.kind === 'group' ? entries : (entries[0] as PublishResponse);
}

/** Plans a publish to `destination` (a URL group's default headers merged in); schedules fire through it too. */
export function plan(
  service: ServiceContext,
  destination: Destination,
  headers: HeaderInput,
  body: Buffer,
  /** `now`: the time the messages are published at (a schedule plans its tick's messages ahead of it). */
  extra: { callerIp?: string; token?: string; queueName?: string; now?: number },
): PlannedMessage[] {
  let group: UrlGroupRecord | undefined;
  if (destination.kind === 'group') {
    group = service.store.urlGroups.get(destination.name);
    headers = withDefaults(headers, group?.headers);
  }
  return planPublish(destination, group, headers, body, {
    llm: service.llm,
    ...extra,
    now: extra.now ?? service.clock.now(),
  });
}

async function publish(service: ServiceContext, ctx: RequestContext, queueName?: string): Promise<Reply> {
  try {
    const query = destinationQuery(ctx.rawQuery);
    const rawDestination =
      ctx.rest + (query && /^[a-z][a-z0-9+.-]*(:|%3a)/i.test(ctx.rest) ? `?${query}` : '');
    const destination = parseDestination(rawDestination);
    const headers = requestHeaders(ctx);
    const body = await ctx.body();
    const planned = plan(service, destination, headers, body, {
      callerIp: ctx.remoteAddress,
      token: ctx.token,
      queueName,
    });
    const now = service.clock.now();
    const insert = prepareInsert(planned, now);
    const inserted = insert.result(
      await service.writer.commitAll([insert.call]).then((results) => results[0]),
    );
    service.engine.addInserted(inserted, planned);
    const allDuplicates =
      inserted.results.length > 0 && inserted.results.every((result) => result.deduplicated);
    return { status: allDuplicates ? 202 : 200, body: publishResult(destination, inserted.results) };
  } catch (error) {
    throw toHttpError(error);
  }
}

const BATCH_SHAPE =
  'expected a JSON array of {"destination": string, "headers"?: {name: string}, "body"?: string, "queue"?: string}';

export interface BatchItem {
  destination: string;
  headers: Record<string, string>;
  body: string;
  queue?: string;
}

/** Checks the shape of a batch; a malformed batch is refused as a whole. */
function checkBatch(value: unknown): BatchItem[] {
  if (!Array.isArray(value)) throw new HttpError(400, `invalid batch: ${BATCH_SHAPE}`);
  return value.map(checkBatchItem);
}

/**
 * Checks one item of a batch; `index` is its place in the request, for the error. Exported for the workflow
 * service, which checks the plain items of a mixed batch before it appends its own.
 */
export function checkBatchItem(item: unknown, index: number): BatchItem {
  const where = `invalid batch item ${index}`;
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    throw new HttpError(400, `${where}: not an object`);
  const record = item as Record<string, unknown>;
  if (typeof record.destination !== 'string')
    throw new HttpError(400, `${where}: 'destination' must be a string`);
  if (record.body !== undefined && record.body !== null && typeof record.body !== 'string') {
    throw new HttpError(400, `${where}: 'body' must be a string`);
  }
  if (record.queue !== undefined && record.queue !== null && typeof record.queue !== 'string') {
    throw new HttpError(400, `${where}: 'queue' must be a string`);
  }
  const headers: Record<string, string> = {};
  if (record.headers !== undefined && record.headers !== null) {
    if (typeof record.headers !== 'object' || Array.isArray(record.headers)) {
      throw new HttpError(400, `${where}: 'headers' must be an object of strings`);
    }
    for (const [name, headerValue] of Object.entries(record.headers as Record<string, unknown>)) {
      if (typeof headerValue !== 'string')
        throw new HttpError(400, `${where}: header '${name}' must be a string`);
      headers[name] = headerValue;
    }
  }
  // What no single publish could carry — a header that cannot be sent, a URL and headers larger than a
  // request head — makes the batch malformed (400, nothing published), as it is refused on a single publish.
  try {
    checkHeaders(headersFromRecord(headers), record.destination);
  } catch (error) {
    if (error instanceof PublishError) throw new HttpError(400, `${where}: ${error.message}`);
    throw error;
  }
  return {
    destination: record.destination,
    headers,
    body: (record.body as string | undefined | null) ?? '',
    queue: (record.queue as string | undefined | null) ?? undefined,
  };
}

/**
 * A checked batch as write calls (one per publishable item) and its answers once they committed. Exported
 * for the workflow service: a mixed batch commits its plain items in the same transaction as its workflow
 * items, so a crash can never keep one half of it.
 */
export function prepareBatch(
  service: ServiceContext,
  items: BatchItem[],
  ctx: Pick<RequestContext, 'remoteAddress' | 'token'>,
): { calls: MessageWrite[]; answer(committed: unknown[]): BatchResultItem[] } {
  const plans: (PlannedMessage[] | { error: string })[] = [];
  const destinations: (Destination | undefined)[] = [];
  for (const item of items) {
    let destination: Destination | undefined;
    try {
      destination = parseDestination(item.destination);
      plans.push(
        plan(service, destination, headersFromRecord(item.headers), Buffer.from(item.body, 'utf8'), {
          callerIp: ctx.remoteAddress,
          token: ctx.token,
          queueName: item.queue,
        }),
      );
    } catch (error) {
      if (!(error instanceof PublishError)) throw error;
      plans.push({ error: error.message });
    }
    destinations.push(destination);
  }
  const now = service.clock.now();
  const inserts = plans.map((planned) => (Array.isArray(planned) ? prepareInsert(planned, now) : undefined));
  return {
    calls: inserts.flatMap((insert) => (insert ? [insert.call] : [])),
    answer(committed) {
      let next = 0;
      return plans.map((planned, index) => {
        const insert = inserts[index];
        if (!Array.isArray(planned) || !insert) return { error: (planned as { error: string }).error };
        const result = insert.result(committed[next++]);
        service.engine.addInserted(result, planned);
        return publishResult(destinations[index] as Destination, result.results);
      });
    },
  };
}

async function batch(service: ServiceContext, ctx: RequestContext): Promise<Reply> {
  const prepared = prepareBatch(service, checkBatch(await ctx.json()), ctx);
  const committed = await service.writer.commitAll(prepared.calls);
  return { status: 200, body: prepared.answer(committed) };
}

export function publishRoutes(router: Router, service: ServiceContext): void {
  router.add('POST', '/v2/publish/*', (ctx) => publish(service, ctx));
  router.add('POST', '/v2/enqueue/:queue/*', (ctx) => publish(service, ctx, ctx.params.queue));
  router.add('POST', '/v2/batch', (ctx) => batch(service, ctx));
}
