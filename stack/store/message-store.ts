// Every SQL statement of the message delivery service. Callers get typed records; nothing outside stack/store
// knows a table or column name. Writes are plain synchronous calls: the caller decides the transaction
// (normally a group commit of stack/store/writer.ts).
import type { DlqFilters, HeaderMap, LogFilters, MessageState } from '../../shared/messages/types';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db';

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

export interface DlqRecord {
  dlqId: string;
  createdAt: number;
  responseStatus: number;
  responseHeader?: HeaderMap;
  responseBody?: Buffer;
  message: MessageRecord;
}

export interface QueueRecord {
  name: string;
  parallelism: number;
  paused: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface UrlGroupRecord {
  name: string;
  createdAt: number;
  updatedAt: number;
  headers?: HeaderMap;
  endpoints: { name?: string; url: string }[];
}

/**
 * Multi-value filters OR within a field and AND across fields; dates are inclusive unix ms. One type for
 * every query: `state` applies to the logs only, `dlqIds` and `responseStatus` to the DLQ only.
 */
export interface StoreFilters extends LogFilters, DlqFilters {}

/** What a message's last failed attempt leaves in the DLQ. */
export interface NewDlqEntry {
  dlqId: string;
  seq: number;
  createdAt: number;
  responseStatus: number;
  responseHeader?: HeaderMap;
  responseBody?: Buffer;
}

interface StoredRow {
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

const MESSAGE_COLUMNS =
  'm.seq, m.id, m.created_at, m.due_at, m.retried, m.cancel_requested, m.done, m.outcome, m.finished_at, m.spec, m.body';

function toMessage(row: StoredRow): MessageRecord {
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
 * A copy of `body` with an ArrayBuffer of its own. Request bodies are often views into a 64 KiB socket buffer,
 * and cloning a view to another thread copies the whole backing buffer.
 */
function ownBuffer(body: Buffer): Buffer {
  if (body.byteOffset === 0 && body.buffer.byteLength === body.length) return body;
  const copy = new Uint8Array(body.length);
  copy.set(body);
  return Buffer.from(copy.buffer, 0, copy.length);
}

type Params = Record<string, string | number>;

/** Builds the WHERE clause of a filtered query over `messages m` (and `events e` / `dlq d` when joined). */
function whereClause(filters: StoreFilters, dateColumn: string, params: Params): string[] {
  const clauses: string[] = [];
  let n = 0;
  const list = (column: string, values: readonly (string | number)[] | undefined): void => {
    if (!values || values.length === 0) return;
    const names = values.map((value) => {
      const name = `p${n++}`;
      params[name] = value;
      return `@${name}`;
    });
    clauses.push(`${column} IN (${names.join(', ')})`);
  };
  list('m.id', filters.messageIds);
  list('m.url', filters.url);
  list('m.topic_name', filters.topicName);
  list('m.queue_name', filters.queueName);
  list('m.schedule_id', filters.scheduleId);
  list('m.flow_key', filters.flowControlKey);
  list('m.caller_ip', filters.callerIp);
  list('m.host', filters.host);
  list('m.path', filters.path);
  list('e.state', filters.state);
  list('d.dlq_id', filters.dlqIds);
  list('d.response_status', filters.responseStatus);
  if (filters.label && filters.label.length > 0) {
    const names = filters.label.map((label) => {
      const name = `p${n++}`;
      params[name] = label;
      return `@${name}`;
    });
    clauses.push(
      `m.labels IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(m.labels) WHERE value IN (${names.join(', ')}))`,
    );
  }
  if (filters.fromDate !== undefined) {
    params.fromDate = filters.fromDate;
    clauses.push(`${dateColumn} >= @fromDate`);
  }
  if (filters.toDate !== undefined) {
    params.toDate = filters.toDate;
    clauses.push(`${dateColumn} <= @toDate`);
  }
  return clauses;
}

export class MessageStore {
  private readonly statements = new Map<string, Statement<unknown[]>>();

  /** Public so that other services' stores (stack/store/workflow-store.ts) share the same connection. */
  constructor(readonly db: Db) {}

  private stmt(sql: string): Statement<unknown[]> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      // Dynamic filter queries vary; keep the cache from growing without bound.
      if (this.statements.size > 500) this.statements.clear();
      this.statements.set(sql, statement);
    }
    return statement;
  }

  // ---------------------------------------------------------------- settings

  getSetting(key: string): string | undefined {
    const row = this.stmt('SELECT value FROM settings WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row?.value;
  }

  setSetting(key: string, value: string): void {
    this.stmt(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  }

  // ---------------------------------------------------------------- messages

  insertMessage(message: NewMessage): number {
    return this.insertRow(messageRow(message));
  }

  /** Inserts a row prepared by messageRow() (possibly on another thread). */
  insertRow(row: MessageRow): number {
    // Positional parameters: binding them is measurably cheaper than named ones on this hot path.
    const result = this.stmt(
      `INSERT INTO messages (id, created_at, due_at, url, host, path, topic_name, endpoint_name, queue_name,
        flow_key, schedule_id, caller_ip, labels, spec, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
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
    return Number(result.lastInsertRowid);
  }

  getMessage(seq: number): MessageRecord | undefined {
    const row = this.stmt(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.seq = ?`).get(seq) as
      StoredRow | undefined;
    return row && toMessage(row);
  }

  /** Several messages by row number, read in chunks of 200 (for the engine's read-ahead). */
  getMessages(seqs: number[]): Map<number, MessageRecord> {
    const out = new Map<number, MessageRecord>();
    for (let start = 0; start < seqs.length; start += 200) {
      const chunk = seqs.slice(start, start + 200);
      const rows = this.stmt(
        `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.seq IN (${chunk.map(() => '?').join(', ')})`,
      ).all(...chunk) as StoredRow[];
      for (const row of rows) out.set(row.seq, toMessage(row));
    }
    return out;
  }

  getMessageById(id: string): MessageRecord | undefined {
    const row = this.stmt(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.id = ?`).get(id) as
      StoredRow | undefined;
    return row && toMessage(row);
  }

  /** Every message not yet finished, oldest first: what the engine loads at start-up. */
  *pendingMessages(): Generator<PendingRow> {
    const rows = this.stmt(
      `SELECT seq, id, due_at, retried, cancel_requested, queue_name, flow_key,
        CASE WHEN flow_key IS NULL THEN NULL ELSE json_extract(spec, '$.flowControl') END AS flow
       FROM messages WHERE done = 0 ORDER BY seq`,
    ).iterate() as IterableIterator<{
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

  /** Pending messages matching the filters (for bulk cancel). */
  findPending(filters: StoreFilters): { seq: number; id: string }[] {
    const params: Params = {};
    const clauses = ['m.done = 0', ...whereClause(filters, 'm.created_at', params)];
    return this.stmt(`SELECT m.seq, m.id FROM messages m WHERE ${clauses.join(' AND ')} ORDER BY m.seq`).all(
      params,
    ) as { seq: number; id: string }[];
  }

  scheduleRetry(seq: number, retried: number, dueAt: number): void {
    this.stmt('UPDATE messages SET retried = ?, due_at = ? WHERE seq = ?').run(retried, dueAt, seq);
  }

  /** A finished message becomes pending again (a workflow resumed from the DLQ), with a new spec. */
  reopenMessage(seq: number, dueAt: number, spec: string): void {
    this.stmt(
      `UPDATE messages SET done = 0, outcome = NULL, finished_at = NULL, retried = 0, cancel_requested = 0,
        due_at = ?, spec = ? WHERE seq = ?`,
    ).run(dueAt, spec, seq);
  }

  requestCancel(seq: number): void {
    this.stmt('UPDATE messages SET cancel_requested = 1 WHERE seq = ?').run(seq);
  }

  finish(seq: number, outcome: MessageState, time: number): void {
    this.stmt('UPDATE messages SET done = 1, outcome = ?, finished_at = ? WHERE seq = ?').run(
      outcome,
      time,
      seq,
    );
  }

  /** How many messages are not finished yet. */
  countPending(): number {
    return (this.stmt('SELECT count(*) AS n FROM messages WHERE done = 0').get() as { n: number }).n;
  }

  // ---------------------------------------------------------------- events (logs)

  insertEvent(seq: number, time: number, state: MessageState, data?: EventData | null): void {
    this.stmt('INSERT INTO events (time, message_seq, state, data) VALUES (?, ?, ?, ?)').run(
      time,
      seq,
      state,
      data ? JSON.stringify(data) : null,
    );
  }

  /** Newest first. `before` is an event id (the cursor); returns one page and the next cursor. */
  listEvents(
    filters: StoreFilters,
    before: number | undefined,
    count: number,
  ): {
    events: EventRecord[];
    next?: number;
  } {
    const params: Params = { limit: count + 1 };
    const clauses = whereClause(filters, 'e.time', params);
    if (before !== undefined) {
      params.before = before;
      clauses.push('e.id < @before');
    }
    const rows = this.stmt(
      `SELECT e.id AS event_id, e.time AS event_time, e.state AS event_state, e.data AS event_data, ${MESSAGE_COLUMNS}
       FROM events e JOIN messages m ON m.seq = e.message_seq
       ${clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : ''}
       ORDER BY e.id DESC LIMIT @limit`,
    ).all(params) as (StoredRow & {
      event_id: number;
      event_time: number;
      event_state: string;
      event_data: string | null;
    })[];
    const page = rows.slice(0, count);
    return {
      events: page.map((row) => ({
        id: row.event_id,
        time: row.event_time,
        state: row.event_state as MessageState,
        data: row.event_data ? (JSON.parse(row.event_data) as EventData) : {},
        message: toMessage(row),
      })),
      next: rows.length > count ? page[page.length - 1]?.event_id : undefined,
    };
  }

  // ---------------------------------------------------------------- deduplication

  findDuplicate(key: string, now: number): string | undefined {
    const row = this.stmt('SELECT message_id FROM dedup WHERE key = ? AND expires_at > ?').get(key, now) as
      { message_id: string } | undefined;
    return row?.message_id;
  }

  rememberDeduplication(key: string, messageId: string, expiresAt: number): void {
    this.stmt(
      `INSERT INTO dedup (key, message_id, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET message_id = excluded.message_id, expires_at = excluded.expires_at`,
    ).run(key, messageId, expiresAt);
  }

  // ---------------------------------------------------------------- DLQ

  insertDlq(entry: NewDlqEntry): void {
    this.stmt(
      `INSERT INTO dlq (dlq_id, message_seq, created_at, response_status, response_header, response_body)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(
      entry.dlqId,
      entry.seq,
      entry.createdAt,
      entry.responseStatus,
      entry.responseHeader ? JSON.stringify(entry.responseHeader) : null,
      entry.responseBody ?? null,
    );
  }

  private dlqRows(where: string[], params: Params, limit?: number): (DlqRecord & { seqInDlq: number })[] {
    if (limit !== undefined) params.limit = limit;
    const rows = this.stmt(
      `SELECT d.seq AS dlq_seq, d.dlq_id, d.created_at AS dlq_created_at, d.response_status, d.response_header,
        d.response_body, ${MESSAGE_COLUMNS}
       FROM dlq d JOIN messages m ON m.seq = d.message_seq
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY d.seq DESC ${limit !== undefined ? 'LIMIT @limit' : ''}`,
    ).all(params) as (StoredRow & {
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

  getDlq(dlqId: string): DlqRecord | undefined {
    return this.dlqRows(['d.dlq_id = @id'], { id: dlqId })[0];
  }

  /** Newest first; `before` is the cursor from the previous page. */
  listDlq(
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
    const rows = this.dlqRows(clauses, params, count + 1);
    const page = rows.slice(0, count);
    return { entries: page, next: rows.length > count ? page[page.length - 1]?.seqInDlq : undefined };
  }

  deleteDlq(dlqId: string): boolean {
    return this.stmt('DELETE FROM dlq WHERE dlq_id = ?').run(dlqId).changes > 0;
  }

  // ---------------------------------------------------------------- queues

  getQueue(name: string): QueueRecord | undefined {
    const row = this.stmt('SELECT * FROM queues WHERE name = ?').get(name) as QueueRow | undefined;
    return row && toQueue(row);
  }

  listQueues(): QueueRecord[] {
    return (this.stmt('SELECT * FROM queues ORDER BY name').all() as QueueRow[]).map(toQueue);
  }

  upsertQueue(name: string, parallelism: number, paused: boolean, now: number): QueueRecord {
    this.stmt(
      `INSERT INTO queues (name, parallelism, paused, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET parallelism = excluded.parallelism, paused = excluded.paused,
        updated_at = excluded.updated_at`,
    ).run(name, parallelism, paused ? 1 : 0, now, now);
    return this.getQueue(name) as QueueRecord;
  }

  deleteQueue(name: string): boolean {
    return this.stmt('DELETE FROM queues WHERE name = ?').run(name).changes > 0;
  }

  // ---------------------------------------------------------------- URL groups

  getUrlGroup(name: string): UrlGroupRecord | undefined {
    const row = this.stmt('SELECT * FROM url_groups WHERE name = ?').get(name) as GroupRow | undefined;
    return row && this.toGroup(row);
  }

  listUrlGroups(): UrlGroupRecord[] {
    return (this.stmt('SELECT * FROM url_groups ORDER BY name').all() as GroupRow[]).map((row) =>
      this.toGroup(row),
    );
  }

  /** Creates the group if needed; endpoints are matched by name (when given) or URL and updated in place. */
  addEndpoints(group: string, endpoints: { name?: string; url: string }[], now: number): void {
    this.stmt(
      `INSERT INTO url_groups (name, created_at, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET updated_at = excluded.updated_at`,
    ).run(group, now, now);
    for (const endpoint of endpoints) {
      if (endpoint.name !== undefined) {
        this.stmt('DELETE FROM url_group_endpoints WHERE group_name = ? AND name = ? AND url <> ?').run(
          group,
          endpoint.name,
          endpoint.url,
        );
      }
      const position =
        (
          this.stmt('SELECT max(position) AS p FROM url_group_endpoints WHERE group_name = ?').get(group) as {
            p: number | null;
          }
        ).p ?? -1;
      this.stmt(
        `INSERT INTO url_group_endpoints (group_name, position, name, url) VALUES (?, ?, ?, ?)
         ON CONFLICT (group_name, url) DO UPDATE SET name = coalesce(excluded.name, name)`,
      ).run(group, position + 1, endpoint.name ?? null, endpoint.url);
    }
  }

  /** Removes matching endpoints; deletes the group when none is left. Returns how many were removed. */
  removeEndpoints(group: string, endpoints: { name?: string; url?: string }[], now: number): number {
    let removed = 0;
    for (const endpoint of endpoints) {
      const clauses: string[] = [];
      const params: Params = { group };
      if (endpoint.name !== undefined) {
        clauses.push('name = @name');
        params.name = endpoint.name;
      }
      if (endpoint.url !== undefined) {
        clauses.push('url = @url');
        params.url = endpoint.url;
      }
      removed += this.stmt(
        `DELETE FROM url_group_endpoints WHERE group_name = @group AND ${clauses.join(' AND ')}`,
      ).run(params).changes;
    }
    const left = (
      this.stmt('SELECT count(*) AS n FROM url_group_endpoints WHERE group_name = ?').get(group) as {
        n: number;
      }
    ).n;
    if (left === 0) this.deleteUrlGroup(group);
    else this.stmt('UPDATE url_groups SET updated_at = ? WHERE name = ?').run(now, group);
    return removed;
  }

  setUrlGroupHeaders(group: string, headers: HeaderMap, now: number): boolean {
    return (
      this.stmt('UPDATE url_groups SET headers = ?, updated_at = ? WHERE name = ?').run(
        Object.keys(headers).length > 0 ? JSON.stringify(headers) : null,
        now,
        group,
      ).changes > 0
    );
  }

  deleteUrlGroup(name: string): boolean {
    return this.stmt('DELETE FROM url_groups WHERE name = ?').run(name).changes > 0;
  }

  private toGroup(row: GroupRow): UrlGroupRecord {
    const endpoints = this.stmt(
      'SELECT name, url FROM url_group_endpoints WHERE group_name = ? ORDER BY position',
    ).all(row.name) as { name: string | null; url: string }[];
    return {
      name: row.name,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      headers: row.headers ? (JSON.parse(row.headers) as HeaderMap) : undefined,
      endpoints: endpoints.map((endpoint) =>
        endpoint.name === null ? { url: endpoint.url } : { name: endpoint.name, url: endpoint.url },
      ),
    };
  }

  // ---------------------------------------------------------------- housekeeping

  /**
   * Drops expired dedup keys, log events older than `before`, and finished messages older than `before` that
   * no DLQ entry or log event still needs. Works oldest-first in bounded chunks (rows are in time order), so
   * no index on time is needed and one call never holds the writer for long. Returns how many rows went.
   */
  prune(now: number, before: number, chunk = 5_000): number {
    let changes = this.stmt('DELETE FROM dedup WHERE expires_at <= ?').run(now).changes;
    changes += this.stmt(
      `DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY id LIMIT ?) AND time < ?`,
    ).run(chunk, before).changes;
    changes += this.stmt(
      `DELETE FROM messages WHERE seq IN (
         SELECT seq FROM messages WHERE done = 1 AND finished_at < ? ORDER BY seq LIMIT ?)
        AND NOT EXISTS (SELECT 1 FROM dlq WHERE dlq.message_seq = messages.seq)
        AND NOT EXISTS (SELECT 1 FROM events WHERE events.message_seq = messages.seq)`,
    ).run(before, chunk).changes;
    return changes;
  }
}

interface QueueRow {
  name: string;
  parallelism: number;
  paused: number;
  created_at: number;
  updated_at: number;
}

function toQueue(row: QueueRow): QueueRecord {
  return {
    name: row.name,
    parallelism: row.parallelism,
    paused: row.paused === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

interface GroupRow {
  name: string;
  created_at: number;
  updated_at: number;
  headers: string | null;
}
