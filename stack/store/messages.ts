// The `messages` table: one row per message. Pending rows (done = 0) are the delivery engine's persisted
// schedule; finished rows stay for the logs and the DLQ until pruned. Writes are plain synchronous calls: the
// caller decides the transaction (normally a group commit of stack/store/writer.ts).
import type { HeaderMap, MessageState } from '../../shared/messages/types';
import { whereClause, type StoreFilters } from './query-filters';
import { RowIds } from './row-ids';
import type { Params, Statements } from './statements';

export interface FlowControlSpec {
  key: string;
  parallelism?: number;
  rate?: number;
  /** Seconds. */
  period: number;
}

export interface RedactSpec {
  body?: boolean;
  /** true = every header; a list = those headers (lowercase names). */
  header?: true | string[];
}

/** Everything about a message except its identity and engine state; stored as JSON. */
export interface MessageSpec {
  url: string;
  method: string;
  /** Headers delivered to the destination (canonical case). */
  header: HeaderMap;
  topicName?: string;
  endpointName?: string;
  queueName?: string;
  scheduleId?: string;
  callerIp?: string;
  labels?: string[];
  /** First planned delivery time (unix ms). */
  notBefore: number;
  maxRetries: number;
  timeoutMs?: number;
  retryDelay?: string;
  callback?: string;
  /** Configuration headers (`upstash-*`, lowercase) of the callback message, from `Upstash-Callback-*`. */
  callbackConfig?: Record<string, string>;
  failureCallback?: string;
  failureCallbackConfig?: Record<string, string>;
  flowControl?: FlowControlSpec;
  redact?: RedactSpec;
  api?: 'llm';
  /** Extension data for services built on the engine (e.g. workflows); the message service ignores it. */
  meta?: Record<string, unknown>;
}

export interface NewMessage {
  id: string;
  createdAt: number;
  dueAt: number;
  spec: MessageSpec;
  body: Buffer;
}

export interface MessageRecord extends NewMessage {
  seq: number;
  retried: number;
  cancelRequested: boolean;
  done: boolean;
  outcome?: MessageState;
  finishedAt?: number;
}

/** The few fields the engine keeps in memory for each pending message. */
export interface PendingRow {
  seq: number;
  id: string;
  dueAt: number;
  retried: number;
  cancelRequested: boolean;
  queueName?: string;
  flowControl?: FlowControlSpec;
  /** Set for rows that were just inserted (the engine may keep their record in memory). */
  createdAt?: number;
}

/** A `messages` row as SELECTed with MESSAGE_COLUMNS (joined queries of the logs and DLQ use it too). */
export interface StoredRow {
  seq: number;
  id: string;
  created_at: number;
  due_at: number;
  retried: number;
  cancel_requested: number;
  done: number;
  outcome: string | null;
  finished_at: number | null;
  spec: string;
  body: Buffer;
}

export const MESSAGE_COLUMNS =
  'm.seq, m.id, m.created_at, m.due_at, m.retried, m.cancel_requested, m.done, m.outcome, m.finished_at, m.spec, m.body';

export function toMessage(row: StoredRow): MessageRecord {
  return {
    seq: row.seq,
    id: row.id,
    createdAt: row.created_at,
    dueAt: row.due_at,
    retried: row.retried,
    cancelRequested: row.cancel_requested === 1,
    done: row.done === 1,
    outcome: (row.outcome ?? undefined) as MessageState | undefined,
    finishedAt: row.finished_at ?? undefined,
    spec: JSON.parse(row.spec) as MessageSpec,
    body: row.body,
  };
}

let lastUrl = '';
let lastHostAndPath = { host: '', path: '' };

/** Host and path columns for the host/path filters; publishes to one destination repeat, so remember the last. */
function hostAndPath(url: string): { host: string; path: string } {
  if (url === lastUrl) return lastHostAndPath;
  try {
    const parsed = new URL(url);
    lastHostAndPath = { host: parsed.host, path: parsed.pathname };
  } catch {
    lastHostAndPath = { host: '', path: '' };
  }
  lastUrl = url;
  return lastHostAndPath;
}

/**
 * A message as the columns it is stored in: flat strings, so that it crosses to the writer thread cheaply
 * (cloning the nested spec object cost a tenth of the main thread's time under load).
 */
export interface MessageRow {
  id: string;
  createdAt: number;
  dueAt: number;
  url: string;
  host: string;
  path: string;
  topicName: string | null;
  endpointName: string | null;
  queueName: string | null;
  flowKey: string | null;
  scheduleId: string | null;
  callerIp: string | null;
  labels: string | null;
  spec: string;
  body: Buffer;
}

export function messageRow(message: NewMessage): MessageRow {
  const { spec } = message;
  const { host, path } = hostAndPath(spec.url);
  return {
    id: message.id,
    createdAt: message.createdAt,
    dueAt: message.dueAt,
    url: spec.url,
    host,
    path,
    topicName: spec.topicName ?? null,
    endpointName: spec.endpointName ?? null,
    queueName: spec.queueName ?? null,
    flowKey: spec.flowControl?.key ?? null,
    scheduleId: spec.scheduleId ?? null,
    callerIp: spec.callerIp ?? null,
    labels: spec.labels && spec.labels.length > 0 ? JSON.stringify(spec.labels) : null,
    spec: JSON.stringify(spec),
    body: ownBuffer(message.body),
  };
}

/**
 * `body` with an ArrayBuffer of its own: cloning a view to the writer thread would copy its whole backing buffer.
 * A publish's body is already one (Node 20's HTTP parser copies each body chunk into a buffer of its own, and
 * Buffer.concat of a big body allocates one), so it passes through uncopied: a bundled stack counted 0 copies
 * in 3,000 publishes (issue 26, session 8). What gets copied are the small bodies the stack builds itself
 * (`Buffer.from` of a string is a slice of Node's shared 8 KiB pool), e.g. workflow step messages. Skipping
 * those copies with the inline writer would save about 1 µs a workflow message and nothing a publish.
 */
function ownBuffer(body: Buffer): Buffer {
  if (body.byteOffset === 0 && body.buffer.byteLength === body.length) return body;
  const copy = new Uint8Array(body.length);
  copy.set(body);
  return Buffer.from(copy.buffer, 0, copy.length);
}

export class MessageTable {
  /** Row numbers are handed out by the store and never reused (see stack/store/row-ids.ts). */
  private readonly seqs: RowIds;

  constructor(private readonly sql: Statements) {
    this.seqs = new RowIds(sql, 'messages');
  }

  insert(message: NewMessage): number {
    return this.insertRow(messageRow(message));
  }

  /** Inserts a row prepared by messageRow() (possibly on another thread); returns its row number. */
  insertRow(row: MessageRow): number {
    const seq = this.seqs.take();
    // Positional parameters: binding them is measurably cheaper than named ones on this hot path.
    this.sql
      .get(
        `INSERT INTO messages (seq, id, created_at, due_at, url, host, path, topic_name, endpoint_name, queue_name,
          flow_key, schedule_id, caller_ip, labels, spec, body)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        seq,
        row.id,
        row.createdAt,
        row.dueAt,
        row.url,
        row.host,
        row.path,
        row.topicName,
        row.endpointName,
        row.queueName,
        row.flowKey,
        row.scheduleId,
        row.callerIp,
        row.labels,
        row.spec,
        row.body,
      );
    return seq;
  }

  get(seq: number): MessageRecord | undefined {
    return this.sql.one(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.seq = ?`, toMessage, seq);
  }

  /** Several messages by row number, read in chunks of 200 (for the engine's read-ahead). */
  getMany(seqs: number[]): Map<number, MessageRecord> {
    const out = new Map<number, MessageRecord>();
    for (let start = 0; start < seqs.length; start += 200) {
      const chunk = seqs.slice(start, start + 200);
      const rows = this.sql
        .get(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.seq IN (${chunk.map(() => '?').join(', ')})`)
        .all(...chunk) as StoredRow[];
      for (const row of rows) out.set(row.seq, toMessage(row));
    }
    return out;
  }

  getById(id: string): MessageRecord | undefined {
    return this.sql.one(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.id = ?`, toMessage, id);
  }

  /** Every message not yet finished, oldest first: what the engine loads at start-up. */
  *pending(): Generator<PendingRow> {
    const rows = this.sql
      .get(
        `SELECT seq, id, due_at, retried, cancel_requested, queue_name, flow_key,
          CASE WHEN flow_key IS NULL THEN NULL ELSE json_extract(spec, '$.flowControl') END AS flow
         FROM messages WHERE done = 0 ORDER BY seq`,
      )
      .iterate() as IterableIterator<{
      seq: number;
      id: string;
      due_at: number;
      retried: number;
      cancel_requested: number;
      queue_name: string | null;
      flow_key: string | null;
      flow: string | null;
    }>;
    for (const row of rows) {
      yield {
        seq: row.seq,
        id: row.id,
        dueAt: row.due_at,
        retried: row.retried,
        cancelRequested: row.cancel_requested === 1,
        queueName: row.queue_name ?? undefined,
        flowControl: row.flow ? (JSON.parse(row.flow) as FlowControlSpec) : undefined,
      };
    }
  }

  /**
   * Pending messages matching the filters that no cancel has reached yet, oldest first, at most `limit` (for
   * bulk cancel: a message already being cancelled is not counted again).
   */
  findPending(filters: StoreFilters, limit?: number): { seq: number; id: string }[] {
    const params: Params = {};
    const clauses = ['m.done = 0', 'm.cancel_requested = 0', ...whereClause(filters, 'm.created_at', params)];
    if (limit !== undefined) params.limit = limit;
    return this.sql
      .get(
        `SELECT m.seq, m.id FROM messages m WHERE ${clauses.join(' AND ')} ORDER BY m.seq
         ${limit !== undefined ? 'LIMIT @limit' : ''}`,
      )
      .all(params) as { seq: number; id: string }[];
  }

  scheduleRetry(seq: number, retried: number, dueAt: number): void {
    this.sql.get('UPDATE messages SET retried = ?, due_at = ? WHERE seq = ?').run(retried, dueAt, seq);
  }

  requestCancel(seq: number): void {
    this.sql.get('UPDATE messages SET cancel_requested = 1 WHERE seq = ?').run(seq);
  }

  finish(seq: number, outcome: MessageState, time: number): void {
    this.sql
      .get('UPDATE messages SET done = 1, outcome = ?, finished_at = ? WHERE seq = ?')
      .run(outcome, time, seq);
  }

  /**
   * Takes back messages that were committed but never attempted, as if they had not been written: their rows,
   * their log events and the deduplication ids they took. Only a schedule's tick committed ahead of its time
   * (stack/messages/schedule-scheduler.ts) does this, when the schedule is paused, updated or deleted before
   * the tick. Returns how many messages went.
   */
  withdraw(ids: string[]): number {
    let count = 0;
    // The withdrawn rows are often the newest: their ids must not come back after a restart.
    this.seqs.keepFloor();
    new RowIds(this.sql, 'events').keepFloor();
    for (const id of ids) {
      const row = this.sql.get('SELECT seq FROM messages WHERE id = ? AND done = 0').get(id) as
        { seq: number } | undefined;
      if (!row) continue;
      this.sql.get('DELETE FROM events WHERE message_seq = ?').run(row.seq);
      this.sql.get('DELETE FROM dedup WHERE message_id = ?').run(id);
      count += this.sql.get('DELETE FROM messages WHERE seq = ?').run(row.seq).changes;
    }
    return count;
  }

  /** How many messages are not finished yet. */
  countPending(): number {
    return (this.sql.get('SELECT count(*) AS n FROM messages WHERE done = 0').get() as { n: number }).n;
  }
}
