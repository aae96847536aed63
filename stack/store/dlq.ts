// The `dlq` table: messages that failed for good, with the last response, until deleted or retried.
import type { HeaderMap } from '../../shared/messages/types';
import { MESSAGE_COLUMNS, toMessage, type MessageRecord, type StoredRow } from './messages';
import { pageClauses, type PageQuery } from './query-filters';
import { base64Bytes, boundedPage } from './paging';
import type { Params, Statements } from './statements';

/**
 * The error of an action on a DLQ entry that another request has just taken (retried, restarted, resumed or
 * deleted it): every action claims its entries inside the transaction that acts on them, so each entry is
 * acted on once. The routes answer it with 404.
 */
export const DLQ_ENTRY_GONE = 'DLQ entry not found';

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

  /** One page of entries, newest first, and the next cursor (an entry's seq in the DLQ); see PageQuery. */
  list(query: PageQuery): { entries: DlqRecord[]; next?: number } {
    const params: Params = {};
    const clauses = pageClauses(query, 'd.created_at', 'd.seq', params);
    const { page, more } = boundedPage(
      this.statement(clauses, params, query.count + 1).iterate(params) as IterableIterator<DlqRow>,
      query.count,
      query.maxBytes ?? Infinity,
      (row) =>
        256 +
        row.spec.length +
        base64Bytes(row.body) +
        base64Bytes(row.response_body) +
        (row.response_header?.length ?? 0),
    );
    const entries = page.map(toDlqRecord);
    return { entries, next: more ? entries[entries.length - 1]?.seqInDlq : undefined };
  }

  delete(dlqId: string): boolean {
    return this.sql.get('DELETE FROM dlq WHERE dlq_id = ?').run(dlqId).changes > 0;
  }

  private rows(where: string[], params: Params): (DlqRecord & { seqInDlq: number })[] {
    return (this.statement(where, params).all(params) as DlqRow[]).map(toDlqRecord);
  }

  private statement(where: string[], params: Params, limit?: number) {
    if (limit !== undefined) params.limit = limit;
    return this.sql.get(
      `SELECT d.seq AS dlq_seq, d.dlq_id, d.created_at AS dlq_created_at, d.response_status, d.response_header,
          d.response_body, ${MESSAGE_COLUMNS}
         FROM dlq d JOIN messages m ON m.seq = d.message_seq
         ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY d.seq DESC ${limit !== undefined ? 'LIMIT @limit' : ''}`,
    );
  }
}

type DlqRow = StoredRow & {
  dlq_seq: number;
  dlq_id: string;
  dlq_created_at: number;
  response_status: number;
  response_header: string | null;
  response_body: Buffer | null;
};

function toDlqRecord(row: DlqRow): DlqRecord & { seqInDlq: number } {
  return {
    seqInDlq: row.dlq_seq,
    dlqId: row.dlq_id,
    createdAt: row.dlq_created_at,
    responseStatus: row.response_status,
    responseHeader: row.response_header ? (JSON.parse(row.response_header) as HeaderMap) : undefined,
    responseBody: row.response_body ?? undefined,
    message: toMessage(row),
  };
}
