// The `dlq` table: messages that failed for good, with the last response, until deleted or retried.
import type { HeaderMap } from '../../shared/messages/types';
import { MESSAGE_COLUMNS, toMessage, type MessageRecord, type StoredRow } from './messages';
import { whereClause, type StoreFilters } from './query-filters';
import type { Params, Statements } from './statements';

export interface DlqRecord {
  dlqId: string;
  createdAt: number;
  responseStatus: number;
  responseHeader?: HeaderMap;
  responseBody?: Buffer;
  message: MessageRecord;
}

/** What a message's last failed attempt leaves in the DLQ. */
export interface NewDlqEntry {
  dlqId: string;
  seq: number;
  createdAt: number;
  responseStatus: number;
  responseHeader?: HeaderMap;
  responseBody?: Buffer;
}

export class DlqTable {
  constructor(private readonly sql: Statements) {}

  insert(entry: NewDlqEntry): void {
    this.sql
      .get(
        `INSERT INTO dlq (dlq_id, message_seq, created_at, response_status, response_header, response_body)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(
        entry.dlqId,
        entry.seq,
        entry.createdAt,
        entry.responseStatus,
        entry.responseHeader ? JSON.stringify(entry.responseHeader) : null,
        entry.responseBody ?? null,
      );
  }

  get(dlqId: string): DlqRecord | undefined {
    return this.rows(['d.dlq_id = @id'], { id: dlqId })[0];
  }

  /** Newest first; `before` is the cursor from the previous page. */
  list(
    filters: StoreFilters,
    before: number | undefined,
    count: number,
  ): { entries: DlqRecord[]; next?: number } {
    const params: Params = {};
    const clauses = whereClause(filters, 'd.created_at', params);
    if (before !== undefined) {
      params.before = before;
      clauses.push('d.seq < @before');
    }
    const rows = this.rows(clauses, params, count + 1);
    const page = rows.slice(0, count);
    return { entries: page, next: rows.length > count ? page[page.length - 1]?.seqInDlq : undefined };
  }

  delete(dlqId: string): boolean {
    return this.sql.get('DELETE FROM dlq WHERE dlq_id = ?').run(dlqId).changes > 0;
  }

  private rows(where: string[], params: Params, limit?: number): (DlqRecord & { seqInDlq: number })[] {
    if (limit !== undefined) params.limit = limit;
    const rows = this.sql
      .get(
        `SELECT d.seq AS dlq_seq, d.dlq_id, d.created_at AS dlq_created_at, d.response_status, d.response_header,
          d.response_body, ${MESSAGE_COLUMNS}
         FROM dlq d JOIN messages m ON m.seq = d.message_seq
         ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY d.seq DESC ${limit !== undefined ? 'LIMIT @limit' : ''}`,
      )
      .all(params) as (StoredRow & {
      dlq_seq: number;
      dlq_id: string;
      dlq_created_at: number;
      response_status: number;
      response_header: string | null;
      response_body: Buffer | null;
    })[];
    return rows.map((row) => ({
      seqInDlq: row.dlq_seq,
      dlqId: row.dlq_id,
      createdAt: row.dlq_created_at,
      responseStatus: row.response_status,
      responseHeader: row.response_header ? (JSON.parse(row.response_header) as HeaderMap) : undefined,
      responseBody: row.response_body ?? undefined,
      message: toMessage(row),
    }));
  }
}
