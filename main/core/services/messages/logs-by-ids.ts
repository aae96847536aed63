// The logs of a set of messages (e.g. every message of one workflow run). The service's logs endpoint
// filters by ONE message id, so the set is read one id at a time — exact, never "the URL's messages in
// that time range", which would mix in other runs. A page covers a slice of the ids; the cursor says
// where the next slice starts. Every other filter (state, dates, …) still applies to each request.
import type { LogsPage } from '../../../../shared/bridge/procedures/messages/logs';
import type { LogEntry } from '../../../../shared/messages/types';

/** Ids read per page of the list (a workflow step has one message; a page covers this many steps). */
export const IDS_PER_PAGE = 25;
/** Requests in flight at once: enough to be quick, few enough not to flood the service. */
const PARALLEL = 4;
/** Pages followed per message: a message has a handful of events per attempt, so this is a safety stop. */
const MAX_PAGES_PER_ID = 10;
const CURSOR_PREFIX = 'ids:';

/** One page of the service's logs for one filter set (the client's own single-request read). */
export type ReadLogsPage = (
  filters: Record<string, unknown> & { messageId: string },
  cursor: string | undefined,
) => Promise<LogsPage>;

/** Where a page of an id set starts; a cursor this code did not make starts at 0 (a fresh read). */
function offsetOf(cursor: string | undefined): number {
  if (!cursor?.startsWith(CURSOR_PREFIX)) return 0;
  const offset = Number(cursor.slice(CURSOR_PREFIX.length));
  return Number.isInteger(offset) && offset > 0 ? offset : 0;
}

/** Every event of one message (following the service's cursor), within the other filters. */
async function eventsOf(read: ReadLogsPage, filters: Record<string, unknown>, messageId: string) {
  const events: LogEntry[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES_PER_ID; page++) {
    const result = await read({ ...filters, messageId }, cursor);
    events.push(...result.events);
    cursor = result.cursor;
    if (!cursor) break;
  }
  return events;
}

/**
 * One page of the logs of `messageIds` (deduplicated, in the order given), newest event first. A
 * `messageId` filter next to the set narrows it to that id (or to nothing when it is not in the set).
 */
export async function logsByIds(
  read: ReadLogsPage,
  messageIds: readonly string[],
  filters: Record<string, unknown>,
  cursor: string | undefined,
): Promise<LogsPage> {
  const { messageId: only, messageIds: _ids, ...rest } = filters;
  let ids = [...new Set(messageIds.map((id) => id.trim()).filter(Boolean))];
  if (typeof only === 'string' && only !== '') ids = ids.includes(only) ? [only] : [];
  const start = offsetOf(cursor);
  const slice = ids.slice(start, start + IDS_PER_PAGE);

  const perId: LogEntry[][] = new Array(slice.length);
  let next = 0;
  const worker = async () => {
    while (next < slice.length) {
      const index = next++;
      perId[index] = await eventsOf(read, rest, slice[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, slice.length) }, worker));

  const events = perId.flat().sort((a, b) => b.time - a.time);
  const end = start + slice.length;
  return end < ids.length ? { events, cursor: `${CURSOR_PREFIX}${end}` } : { events };
}
