// The `events` table: the logs, one row per state change of a message.
import type { HeaderMap, MessageState } from '../../shared/messages/types';
import { MESSAGE_COLUMNS, toMessage, type MessageRecord, type StoredRow } from './messages';
import { pageClauses, type PageQuery } from './query-filters';
import { base64Bytes, boundedPage } from './paging';
import { RowIds } from './row-ids';
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
  /** Event ids are handed out by the store and never reused: they are the logs' cursor (stack/store/row-ids.ts). */
  private readonly ids: RowIds;

  constructor(private readonly sql: Statements) {
    this.ids = new RowIds(sql, 'events');
  }

  insert(seq: number, time: number, state: MessageState, data?: EventData | null): void {
    this.sql
      .get('INSERT INTO events (id, time, message_seq, state, data) VALUES (?, ?, ?, ?, ?)')
      .run(this.ids.take(), time, seq, state, data ? JSON.stringify(data) : null);
  }

  /**
   * A delivered attempt's ACTIVE and DELIVERED events, as insert() would write them one after the other (the
   * same rows, ACTIVE's id first), in one statement: every delivered message comes through here, and each
   * statement run has a fixed cost of its own.
   */
  insertActiveDelivered(seq: number, activeAt: number, time: number, data: EventData): void {
    const activeId = this.ids.take();
    this.sql
      .get(
        `INSERT INTO events (id, time, message_seq, state, data)
           VALUES (?, ?, ?, 'ACTIVE', NULL), (?, ?, ?, 'DELIVERED', ?)`,
      )
      .run(activeId, activeAt, seq, this.ids.take(), time, seq, JSON.stringify(data));
  }

  /** One page of events, newest first, and the next cursor (an event id); see PageQuery. */
  list(query: PageQuery): { events: EventRecord[]; next?: number } {
    const params: Params = { limit: query.count + 1 };
    const clauses = pageClauses(query, 'e.time', 'e.id', params);
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
    // The body goes out base64, the event data (response headers) twice: responseHeader and responseHeaders.
    const { page, more } = boundedPage(
      statement.iterate(params) as IterableIterator<EventRow>,
      query.count,
      query.maxBytes ?? Infinity,
      (row) => 256 + row.spec.length + base64Bytes(row.body) + 2 * (row.event_data?.length ?? 0),
    );
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
