// The `events` table: the logs, one row per state change of a message.
import type { HeaderMap, MessageState } from '../../shared/messages/types';
import { MESSAGE_COLUMNS, toMessage, type MessageRecord, type StoredRow } from './messages';
import { whereClause, type StoreFilters } from './query-filters';
import type { Params, Statements } from './statements';

export interface EventData {
  error?: string;
  nextDeliveryTime?: number;
  responseStatus?: number;
  responseHeader?: HeaderMap;
  /** Base64. */
  responseBody?: string;
  retried?: number;
}

export interface EventRecord {
  id: number;
  time: number;
  state: MessageState;
  data: EventData;
  message: MessageRecord;
}

export class EventTable {
  constructor(private readonly sql: Statements) {}

  insert(seq: number, time: number, state: MessageState, data?: EventData | null): void {
    this.sql
      .get('INSERT INTO events (time, message_seq, state, data) VALUES (?, ?, ?, ?)')
      .run(time, seq, state, data ? JSON.stringify(data) : null);
  }

  /**
   * Newest first. `before` is an event id (the cursor); returns one page and the next cursor. A page ends
   * early (with a cursor) once its events come to about `maxBytes` of JSON: a thousand events of 1 MB
   * messages would otherwise be built into one response of over a gigabyte, stalling the process.
   */
  list(
    filters: StoreFilters,
    before: number | undefined,
    count: number,
    maxBytes = Infinity,
  ): { events: EventRecord[]; next?: number } {
    const params: Params = { limit: count + 1 };
    const clauses = whereClause(filters, 'e.time', params);
    if (before !== undefined) {
      params.before = before;
      clauses.push('e.id < @before');
    }
    const statement = this.sql.get(
      `SELECT e.id AS event_id, e.time AS event_time, e.state AS event_state, e.data AS event_data, ${MESSAGE_COLUMNS}
         FROM events e JOIN messages m ON m.seq = e.message_seq
         ${clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : ''}
         ORDER BY e.id DESC LIMIT @limit`,
    );
    type EventRow = StoredRow & {
      event_id: number;
      event_time: number;
      event_state: string;
      event_data: string | null;
    };
    // Rows are read one at a time, so a page over the budget is never held in memory either.
    const page: EventRow[] = [];
    let more = false;
    let bytes = 0;
    for (const row of statement.iterate(params) as IterableIterator<EventRow>) {
      bytes += approxJsonBytes(row);
      if (page.length === count || (page.length > 0 && bytes > maxBytes)) {
        more = true;
        break;
      }
      page.push(row);
    }
    return {
      events: page.map((row) => ({
        id: row.event_id,
        time: row.event_time,
        state: row.event_state as MessageState,
        data: row.event_data ? (JSON.parse(row.event_data) as EventData) : {},
        message: toMessage(row),
      })),
      next: more ? page[page.length - 1]?.event_id : undefined,
    };
  }
}

/**
 * About how many bytes of JSON a row becomes in a log entry: the body is sent base64 (4/3), the event data
 * (response headers) twice (`responseHeader` and `responseHeaders`), the spec's fields once.
 */
function approxJsonBytes(row: { spec: string; body: Buffer | null; event_data: string | null }): number {
  const body = Math.ceil((row.body?.length ?? 0) / 3) * 4;
  return 256 + row.spec.length + body + 2 * (row.event_data?.length ?? 0);
}
