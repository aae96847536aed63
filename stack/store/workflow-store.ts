// Every SQL statement of the workflow service: runs, their logs (one entry per message of a run), waiters and
// the lookback of run-scoped events. It shares the stack's connection with the message store; its writes are
// named operations (stack/workflows/write-ops.ts) that run inside the same group commits.
import type { HeaderMap } from '../../shared/messages/types';
import type { RunHistoryEvent } from '../../shared/workflows/types';
import type { FlowControlSpec, MessageRow, RedactSpec } from './messages';
import type { StackStore } from './stack-store';
import type { Statements } from './statements';

export type RunState = 'RUN_STARTED' | 'RUN_SUCCESS' | 'RUN_FAILED' | 'RUN_CANCELED';
export type StepState = 'STEP_SUCCESS' | 'STEP_RETRY' | 'STEP_FAILED' | 'STEP_PROGRESS' | 'STEP_CANCELED';
export type FailureState = 'CALLBACK_INPROGRESS' | 'CALLBACK_SUCCESS' | 'CALLBACK_FAIL' | 'CALLBACK_CANCELED';
export type CallType = 'step' | 'toCallback' | 'fromCallback';

/**
 * The trigger's settings, re-applied to every later step of the run (WF_TriggerOnConfig). Not its delay: that
 * is the trigger message's own (the SDK's keepTriggerConfig re-applies flow control, retries, retry delay and
 * the failure URL). Rows written before may still hold a `delayMs`; nothing reads it.
 */
export interface RunConfig {
  /** Headers delivered with every step: the trigger's forwarded headers and its Content-Type. */
  header: HeaderMap;
  maxRetries: number;
  retryDelay?: string;
  timeoutMs?: number;
  flowControl?: FlowControlSpec;
  labels?: string[];
  redact?: RedactSpec;
  failureCallback?: string;
  failureCallbackConfig?: Record<string, string>;
}

/** What an append changes on its run's row besides the log size (WorkflowStore.appendLog). */
export interface AppendRowChanges {
  /** The run's step state after the append; undefined leaves it as it is. */
  stepState?: StepState | null;
  /** The entry has a piece of search text: take the next number of the run's pieces for it. */
  searchPiece?: boolean;
}

/** Who invoked a run (context.invoke) and how to hand it the result. */
export interface Invoker {
  workflowRunId: string;
  workflowUrl: string;
  workflowRunCreatedAt: number;
  /** The parent's step headers, to publish the result with. */
  headers: Record<string, string[]>;
  /** The parent's Invoke step (stepId, stepName, concurrent…). */
  step: Record<string, unknown>;
}

export interface FailureInfo {
  messageId?: string;
  url: string;
  state: FailureState;
  failHeaders: HeaderMap;
  failStatus: number;
  failResponse: string;
  dlqId?: string;
  maxRetries: number;
  responseStatus?: number;
  responseBody?: string;
  responseHeaders?: HeaderMap;
  nextDeliveryTime?: number;
}

export interface NewRun {
  runId: string;
  url: string;
  createdAt: number;
  callerIp?: string;
  config: RunConfig;
  invoker?: Invoker;
  /** How the run was started: its first history event (stack/store/workflow-history.ts). */
  origin?: Extract<RunHistoryEvent, { kind: 'triggered' }>;
}

export interface RunRecord extends NewRun {
  seq: number;
  state: RunState;
  completedAt?: number;
  logSize: number;
  stepState?: StepState;
  response?: string;
  failure?: FailureInfo;
  dlqId?: string;
}

export interface LogEntry {
  pos: number;
  messageId: string;
  messageSeq?: number;
  callType: CallType;
  createdAt: number;
  body: Buffer;
  /**
   * The step the entry records (`step:<stepId>`, `plan:<targetStep>`, `call:<stepId>`): a run logs each step
   * once. Absent for entry 0 and for call results (every attempt of a call logs one).
   */
  stepKey?: string;
}

/** A message of a run and its events (the logs' rows for it), oldest first. */
export interface MessageHistory {
  done: boolean;
  retried: number;
  dueAt: number;
  maxRetries?: number;
  events: { time: number; state: string; data: string | null }[];
}

export type WaiterKind = 'wait' | 'webhook';

export interface WaiterData {
  url: string;
  /** The request's headers (lowercase names), as the vendor's waiter shows them. */
  headers: Record<string, string[]>;
  timeout: string;
  timeoutUrl?: string;
  timeoutHeaders?: Record<string, string[]>;
  step: Record<string, unknown>;
}

export interface WaiterRecord extends WaiterData {
  seq: number;
  eventId: string;
  runSeq: number;
  kind: WaiterKind;
  createdAt: number;
  deadline: number;
}

/** A waiter to register (its seq is the new row's). */
export type NewWaiter = Omit<WaiterRecord, 'seq'>;

/** Filters of the run queries; every field ANDs, lists OR within. Dates are inclusive unix ms. */
export interface RunFilters {
  runSeqs?: number[];
  workflowRunId?: string;
  workflowCreatedAt?: number;
  workflowRuns?: { id: string; createdAt: number }[];
  workflowUrl?: string[];
  workflowUrlPrefix?: string;
  /** The workflow URL's host (`name:port`, or the name alone for any port), any of. */
  host?: string[];
  /** The workflow URL's path (without its query), any of. */
  path?: string[];
  runState?: RunState[];
  stepState?: StepState[];
  fromDate?: number;
  toDate?: number;
  label?: string[];
  flowControlKey?: string[];
  callerIp?: string[];
  messageId?: string;
  failureFunctionState?: FailureState[];
  /** DLQ entries whose last response had one of these statuses. */
  responseStatus?: number[];
  /** Only runs with a DLQ entry (and, when given, these DLQ ids). */
  inDlq?: boolean;
  dlqIds?: string[];
  /** Date filters apply to the run's completion (its DLQ time) instead of its creation. */
  datesOnCompletion?: boolean;
}

interface RunRow {
  seq: number;
  run_id: string;
  url: string;
  state: string;
  created_at: number;
  completed_at: number | null;
  caller_ip: string | null;
  flow_key: string | null;
  labels: string | null;
  log_size: number;
  step_state: string | null;
  config: string;
  response: string | null;
  invoker: string | null;
  failure: string | null;
  dlq_id: string | null;
}

function toRun(row: RunRow): RunRecord {
  const run: RunRecord = {
    seq: row.seq,
    runId: row.run_id,
    url: row.url,
    state: row.state as RunState,
    createdAt: row.created_at,
    logSize: row.log_size,
    config: JSON.parse(row.config) as RunConfig,
  };
  if (row.completed_at !== null) run.completedAt = row.completed_at;
  if (row.caller_ip !== null) run.callerIp = row.caller_ip;
  if (row.step_state !== null) run.stepState = row.step_state as StepState;
  if (row.response !== null) run.response = row.response;
  if (row.invoker !== null) run.invoker = JSON.parse(row.invoker) as Invoker;
  if (row.failure !== null) run.failure = JSON.parse(row.failure) as FailureInfo;
  if (row.dlq_id !== null) run.dlqId = row.dlq_id;
  return run;
}

interface WaiterRow {
  seq: number;
  event_id: string;
  run_seq: number;
  kind: string;
  created_at: number;
  deadline: number;
  data: string;
}

function toWaiter(row: WaiterRow): WaiterRecord {
  return {
    ...(JSON.parse(row.data) as WaiterData),
    seq: row.seq,
    eventId: row.event_id,
    runSeq: row.run_seq,
    kind: row.kind as WaiterKind,
    createdAt: row.created_at,
    deadline: row.deadline,
  };
}

type Params = Record<string, string | number>;

/** The workflow service's table group of the StackStore (reached with workflowStoreOf / store.group). */
export class WorkflowStore {
  constructor(private readonly sql: Statements) {}

  private stmt(sql: string) {
    return this.sql.get(sql);
  }

  // ---------------------------------------------------------------- runs

  /** The run a `SELECT * FROM workflow_runs …` finds first. */
  private oneRun(where: string, value: string | number): RunRecord | undefined {
    return this.sql.one(`SELECT * FROM workflow_runs ${where}`, toRun, value);
  }

  activeRun(runId: string): RunRecord | undefined {
    return this.oneRun(`WHERE run_id = ? AND state = 'RUN_STARTED'`, runId);
  }

  run(seq: number): RunRecord | undefined {
    return this.oneRun('WHERE seq = ?', seq);
  }

  /** A run's state alone: what an append checks in its transaction (cheaper than reading the whole run). */
  runState(seq: number): RunState | undefined {
    const row = this.stmt('SELECT state FROM workflow_runs WHERE seq = ?').get(seq) as
      { state: RunState } | undefined;
    return row?.state;
  }

  /** The newest run with this id (ids may be reused once a run has ended). */
  latestRun(runId: string): RunRecord | undefined {
    return this.oneRun('WHERE run_id = ? ORDER BY seq DESC LIMIT 1', runId);
  }

  runByDlqId(dlqId: string): RunRecord | undefined {
    return this.oneRun('WHERE dlq_id = ?', dlqId);
  }

  insertRun(run: NewRun): number {
    const labels = run.config.labels && run.config.labels.length > 0 ? run.config.labels : undefined;
    const seq = Number(
      this.stmt(
        `INSERT INTO workflow_runs (run_id, url, state, created_at, caller_ip, flow_key, labels, config, invoker,
          invoker_run_id)
         VALUES (?, ?, 'RUN_STARTED', ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        run.runId,
        run.url,
        run.createdAt,
        run.callerIp ?? null,
        run.config.flowControl?.key ?? null,
        labels ? JSON.stringify(labels) : null,
        JSON.stringify(run.config),
        run.invoker ? JSON.stringify(run.invoker) : null,
        run.invoker?.workflowRunId ?? null,
      ).lastInsertRowid,
    );
    for (const label of new Set(labels ?? [])) {
      this.stmt('INSERT OR IGNORE INTO workflow_run_labels (label, run_seq) VALUES (?, ?)').run(label, seq);
    }
    return seq;
  }

  /** Ends an active run; false when it was not active any more. */
  finishRun(seq: number, state: RunState, time: number, response: string | null): boolean {
    return (
      this.stmt(
        `UPDATE workflow_runs SET state = ?, completed_at = ?, response = ?,
          step_state = CASE WHEN ? = 'RUN_CANCELED' AND step_state IS NOT NULL THEN 'STEP_CANCELED' ELSE step_state END
         WHERE seq = ? AND state = 'RUN_STARTED'`,
      ).run(state, time, response, state, seq).changes > 0
    );
  }

  setStepState(seq: number, state: StepState | null): void {
    this.stmt('UPDATE workflow_runs SET step_state = ? WHERE seq = ?').run(state, seq);
  }

  setDlqId(seq: number, dlqId: string | null): void {
    this.stmt('UPDATE workflow_runs SET dlq_id = ? WHERE seq = ?').run(dlqId, seq);
  }

  setFailure(seq: number, failure: FailureInfo): void {
    this.stmt('UPDATE workflow_runs SET failure = ?, failure_state = ? WHERE seq = ?').run(
      JSON.stringify(failure),
      failure.state,
      seq,
    );
  }

  /**
   * Appends a log entry at the end of the run's log. Everything the append changes on the run's row — its log
   * size, its step state, the number of its search pieces — is one `UPDATE` (issue 26: it was three per step).
   * Returns the entry's position and, when `changes.searchPiece`, the number the new search piece takes
   * (workflow-search.ts `insert`).
   */
  appendLog(
    runSeq: number,
    entry: Omit<LogEntry, 'pos'>,
    changes: AppendRowChanges = {},
  ): { pos: number; searchN: number } {
    const pieces = changes.searchPiece ? 1 : 0;
    const row = (
      changes.stepState === undefined
        ? this.stmt(
            `UPDATE workflow_runs SET log_size = log_size + 1, search_size = search_size + ?
             WHERE seq = ? RETURNING log_size - 1 AS pos, search_size - ? AS search_n`,
          ).get(pieces, runSeq, pieces)
        : this.stmt(
            `UPDATE workflow_runs SET log_size = log_size + 1, search_size = search_size + ?, step_state = ?
             WHERE seq = ? RETURNING log_size - 1 AS pos, search_size - ? AS search_n`,
          ).get(pieces, changes.stepState, runSeq, pieces)
    ) as { pos: number; search_n: number };
    this.stmt(
      `INSERT INTO workflow_log (run_seq, pos, message_id, message_seq, call_type, created_at, body, step_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      runSeq,
      row.pos,
      entry.messageId,
      entry.messageSeq ?? null,
      entry.callType,
      entry.createdAt,
      entry.body,
      entry.stepKey ?? null,
    );
    return { pos: row.pos, searchN: row.search_n };
  }

  /**
   * The message id of the entry that already records this step of the run (see LogEntry.stepKey). INDEXED BY:
   * left to itself SQLite walks the run's entries on the primary key (it avoids the step index's extra lookup
   * of message_id), which is O(steps) per step and quadratic over a long run.
   */
  loggedStep(runSeq: number, stepKey: string): string | undefined {
    const row = this.stmt(
      `SELECT message_id FROM workflow_log INDEXED BY workflow_log_step
       WHERE run_seq = ? AND step_key = ? ORDER BY pos LIMIT 1`,
    ).get(runSeq, stepKey) as { message_id: string } | undefined;
    return row?.message_id;
  }

  /** The message id of a run's entry 0 (its trigger). */
  triggerMessageId(runSeq: number): string | undefined {
    const row = this.stmt('SELECT message_id FROM workflow_log WHERE run_seq = ? AND pos = 0').get(runSeq) as
      { message_id: string } | undefined;
    return row?.message_id;
  }

  // ---------------------------------------------------------------- the log

  /** A run's whole log, step keys included (what a resume copies into the new run). */
  log(runSeq: number): LogEntry[] {
    return this.sql.all(
      'SELECT pos, message_id, message_seq, call_type, created_at, body, step_key FROM workflow_log WHERE run_seq = ? ORDER BY pos',
      toEntry,
      runSeq,
    );
  }

  /** Entry 0 of a run's log: the trigger, whose body is the initial payload. */
  firstEntry(runSeq: number): LogEntry | undefined {
    return this.sql.one(
      'SELECT pos, message_id, message_seq, call_type, created_at, body FROM workflow_log WHERE run_seq = ? AND pos = 0',
      toEntry,
      runSeq,
    );
  }

  /** Entry 0 of each of these runs, by run seq. */
  firstEntries(runSeqs: number[]): Map<number, Buffer> {
    const out = new Map<number, Buffer>();
    for (const chunk of chunks(runSeqs)) {
      const rows = this.stmt(
        `SELECT run_seq, body FROM workflow_log WHERE pos = 0 AND run_seq IN (${marks(chunk)})`,
      ).all(...chunk) as { run_seq: number; body: Buffer }[];
      for (const row of rows) out.set(row.run_seq, row.body);
    }
    return out;
  }

  /** The run's log up to and including the entry of `messageId` (what its delivery carries). */
  logPrefix(messageId: string): LogEntry[] {
    return (
      this.stmt(
        `SELECT l.pos, l.message_id, l.message_seq, l.call_type, l.created_at, l.body
         FROM workflow_log m JOIN workflow_log l ON l.run_seq = m.run_seq AND l.pos <= m.pos
         WHERE m.message_id = ? ORDER BY l.pos`,
      ).all(messageId) as LogRow[]
    ).map(toEntry);
  }

  /** Messages of the run not finished yet (to cancel them when the run ends). */
  pendingMessageIds(runSeq: number): string[] {
    return (
      this.stmt(
        `SELECT m.id FROM workflow_log l JOIN messages m ON m.seq = l.message_seq
         WHERE l.run_seq = ? AND m.done = 0`,
      ).all(runSeq) as { id: string }[]
    ).map((row) => row.id);
  }

  /** The row number of a message (the failure callback's, which is not in the log). */
  messageSeq(id: string): number | undefined {
    const row = this.stmt('SELECT seq FROM messages WHERE id = ?').get(id) as { seq: number } | undefined;
    return row?.seq;
  }

  /** The run a parent's Invoke step started. */
  invokedRun(parentRunId: string, parentCreatedAt: number, stepId: number): RunRecord | undefined {
    const rows = this.stmt(
      'SELECT * FROM workflow_runs WHERE invoker_run_id = ? AND created_at >= ? ORDER BY seq',
    ).all(parentRunId, parentCreatedAt) as RunRow[];
    return rows.map(toRun).find((run) => run.invoker?.step.stepId === stepId);
  }

  // ---------------------------------------------------------------- waiters and lookback events

  waitersOfRun(runSeq: number): WaiterRecord[] {
    return (
      this.stmt('SELECT * FROM workflow_waiters WHERE run_seq = ? ORDER BY seq').all(runSeq) as WaiterRow[]
    ).map(toWaiter);
  }

  insertWaiter(waiter: NewWaiter): number {
    const { eventId, runSeq, kind, createdAt, deadline, ...data } = waiter;
    return Number(
      this.stmt(
        `INSERT INTO workflow_waiters (event_id, run_seq, kind, created_at, deadline, data) VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(eventId, runSeq, kind, createdAt, deadline, JSON.stringify(data satisfies WaiterData))
        .lastInsertRowid,
    );
  }

  deleteWaiter(seq: number): boolean {
    return this.stmt('DELETE FROM workflow_waiters WHERE seq = ?').run(seq).changes > 0;
  }

  deleteWaitersOfRun(runSeq: number): number {
    return this.stmt('DELETE FROM workflow_waiters WHERE run_seq = ?').run(runSeq).changes;
  }

  waiter(seq: number): WaiterRecord | undefined {
    return this.sql.one('SELECT * FROM workflow_waiters WHERE seq = ?', toWaiter, seq);
  }

  waitersFor(eventId: string, kind: WaiterKind, runSeq?: number): WaiterRecord[] {
    const rows =
      runSeq === undefined
        ? this.stmt('SELECT * FROM workflow_waiters WHERE event_id = ? AND kind = ? ORDER BY seq').all(
            eventId,
            kind,
          )
        : this.stmt(
            'SELECT * FROM workflow_waiters WHERE event_id = ? AND kind = ? AND run_seq = ? ORDER BY seq',
          ).all(eventId, kind, runSeq);
    return (rows as WaiterRow[]).map(toWaiter);
  }

  /** The waiter whose timeout falls due first (the stack clock's next due item, stack/local/). */
  nextWaiter(): WaiterRecord | undefined {
    return this.sql.one('SELECT * FROM workflow_waiters ORDER BY deadline, seq LIMIT 1', toWaiter);
  }

  allWaiters(): WaiterRecord[] {
    return this.sql.all('SELECT * FROM workflow_waiters ORDER BY deadline', toWaiter);
  }

  storeEvent(runSeq: number, eventId: string, now: number, body: Buffer): void {
    this.stmt(
      `INSERT INTO workflow_events (run_seq, event_id, created_at, body) VALUES (?, ?, ?, ?)
       ON CONFLICT (run_seq, event_id) DO UPDATE SET created_at = excluded.created_at, body = excluded.body`,
    ).run(runSeq, eventId, now, body);
  }

  lookbackEvent(runSeq: number, eventId: string): Buffer | undefined {
    const row = this.stmt('SELECT body FROM workflow_events WHERE run_seq = ? AND event_id = ?').get(
      runSeq,
      eventId,
    ) as { body: Buffer } | undefined;
    return row?.body;
  }

  deleteEvent(runSeq: number, eventId: string): boolean {
    return (
      this.stmt('DELETE FROM workflow_events WHERE run_seq = ? AND event_id = ?').run(runSeq, eventId)
        .changes > 0
    );
  }

  // ---------------------------------------------------------------- queries

  /** Runs matching the filters, newest first; `before` is a run seq (the cursor). */
  listRuns(
    filters: RunFilters,
    before: number | undefined,
    count: number,
  ): { runs: RunRecord[]; next?: number } {
    const params: Params = { limit: count + 1 };
    const clauses = runWhere(filters, params);
    // One label (the common case): walk that label's runs newest first on its index and stop at the page's
    // end, instead of collecting every run with the label (tens of thousands at 100,000 runs).
    const label = filters.label?.length === 1 && !filters.workflowRuns ? filters.label[0] : undefined;
    const order = label !== undefined ? 'l.run_seq' : 'r.seq';
    let from = 'workflow_runs r';
    if (label !== undefined) {
      params.label = label;
      from = 'workflow_run_labels l JOIN workflow_runs r ON r.seq = l.run_seq';
      clauses.push('l.label = @label');
    }
    if (before !== undefined) {
      params.before = before;
      clauses.push(`${order} < @before`);
    }
    const rows = this.stmt(
      `SELECT r.* FROM ${from} ${clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : ''}
       ORDER BY ${order} DESC LIMIT @limit`,
    ).all(params) as RunRow[];
    const page = rows.slice(0, count).map(toRun);
    return { runs: page, next: rows.length > count ? page[page.length - 1]?.seq : undefined };
  }

  /** Message rows and their events, for building run records. */
  messageEvents(seqs: number[]): Map<number, MessageHistory> {
    const out = new Map<number, MessageHistory>();
    for (const chunk of chunks(seqs)) {
      const rows = this.stmt(
        `SELECT seq, done, retried, due_at, json_extract(spec, '$.maxRetries') AS max_retries
         FROM messages WHERE seq IN (${marks(chunk)})`,
      ).all(...chunk) as {
        seq: number;
        done: number;
        retried: number;
        due_at: number;
        max_retries: number | null;
      }[];
      for (const row of rows)
        out.set(row.seq, {
          done: row.done === 1,
          retried: row.retried,
          dueAt: row.due_at,
          ...(row.max_retries !== null ? { maxRetries: row.max_retries } : {}),
          events: [],
        });
      const events = this.stmt(
        `SELECT message_seq, time, state, data FROM events WHERE message_seq IN (${marks(chunk)}) ORDER BY id`,
      ).all(...chunk) as { message_seq: number; time: number; state: string; data: string | null }[];
      for (const event of events) out.get(event.message_seq)?.events.push(event);
    }
    return out;
  }
}

/** Lists of ids in chunks small enough for one `IN (…)` (and few distinct statements to cache). */
function chunks(values: number[], size = 200): number[][] {
  const out: number[][] = [];
  for (let start = 0; start < values.length; start += size) out.push(values.slice(start, start + size));
  return out;
}

const marks = (values: readonly unknown[]): string => values.map(() => '?').join(', ');

function runWhere(filters: RunFilters, params: Params): string[] {
  const clauses: string[] = [];
  let n = 0;
  const bind = (value: string | number): string => {
    const name = `w${n++}`;
    params[name] = value;
    return `@${name}`;
  };
  const list = (column: string, values: readonly (string | number)[] | undefined): void => {
    if (!values || values.length === 0) return;
    clauses.push(`${column} IN (${values.map(bind).join(', ')})`);
  };
  if (filters.workflowRuns && filters.workflowRuns.length > 0) {
    clauses.push(
      `(${filters.workflowRuns.map((run) => `(r.run_id = ${bind(run.id)} AND r.created_at = ${bind(run.createdAt)})`).join(' OR ')})`,
    );
    return clauses;
  }
  list('r.seq', filters.runSeqs);
  if (filters.workflowRunId !== undefined) clauses.push(`r.run_id = ${bind(filters.workflowRunId)}`);
  if (filters.workflowCreatedAt !== undefined)
    clauses.push(`r.created_at = ${bind(filters.workflowCreatedAt)}`);
  list('r.url', filters.workflowUrl);
  if (filters.workflowUrlPrefix !== undefined) {
    // A range on the url index instead of LIKE (which would also treat % and _ as wildcards).
    const prefix = filters.workflowUrlPrefix;
    clauses.push(`r.url >= ${bind(prefix)} AND r.url < ${bind(prefix + '\uffff')}`);
  }
  if (filters.host && filters.host.length > 0) {
    // GLOB, not LIKE: host names hold no GLOB wildcards (* ? [), but may hold LIKE's `_`.
    const forms = filters.host.flatMap((host) =>
      ['http', 'https'].flatMap((scheme) =>
        [
          `${scheme}://${host}`,
          `${scheme}://${host}/*`,
          `${scheme}://${host}?*`,
          `${scheme}://${host}:*`,
        ].map((pattern) => `r.url GLOB ${bind(pattern)}`),
      ),
    );
    clauses.push(`(${forms.join(' OR ')})`);
  }
  if (filters.path && filters.path.length > 0) {
    // The URL from the first '/' after the scheme's '://' (or '/' when there is none), up to a '?'.
    const rest = `substr(r.url, instr(r.url, '://') + 3)`;
    const fromSlash = `CASE WHEN instr(${rest}, '/') = 0 THEN '/' ELSE substr(${rest}, instr(${rest}, '/')) END`;
    const path = `CASE WHEN instr(${fromSlash}, '?') = 0 THEN ${fromSlash} ELSE substr(${fromSlash}, 1, instr(${fromSlash}, '?') - 1) END`;
    clauses.push(`${path} IN (${filters.path.map(bind).join(', ')})`);
  }
  const states: string[] = [];
  if (filters.runState && filters.runState.length > 0)
    states.push(`r.state IN (${filters.runState.map(bind).join(', ')})`);
  if (filters.stepState && filters.stepState.length > 0) {
    const stepStates = filters.stepState.filter((state) => state !== 'STEP_SUCCESS');
    if (stepStates.length > 0) states.push(`r.step_state IN (${stepStates.map(bind).join(', ')})`);
    // Every run past its first step has a successful step.
    if (stepStates.length < filters.stepState.length) states.push('r.log_size > 1');
  }
  if (states.length > 0) clauses.push(`(${states.join(' OR ')})`);
  const dateColumn = filters.datesOnCompletion ? 'r.completed_at' : 'r.created_at';
  if (filters.fromDate !== undefined) clauses.push(`${dateColumn} >= ${bind(filters.fromDate)}`);
  if (filters.toDate !== undefined) clauses.push(`${dateColumn} <= ${bind(filters.toDate)}`);
  if (filters.label && filters.label.length > 1) {
    clauses.push(
      `r.seq IN (SELECT run_seq FROM workflow_run_labels WHERE label IN (${filters.label.map(bind).join(', ')}))`,
    );
  }
  list('r.flow_key', filters.flowControlKey);
  list('r.caller_ip', filters.callerIp);
  list('r.failure_state', filters.failureFunctionState);
  if (filters.responseStatus && filters.responseStatus.length > 0) {
    clauses.push(
      `r.dlq_id IN (SELECT dlq_id FROM dlq WHERE response_status IN (${filters.responseStatus.map(bind).join(', ')}))`,
    );
  }
  if (filters.messageId !== undefined) {
    clauses.push(`r.seq IN (SELECT run_seq FROM workflow_log WHERE message_id = ${bind(filters.messageId)})`);
  }
  if (filters.inDlq) clauses.push('r.dlq_id IS NOT NULL');
  list('r.dlq_id', filters.dlqIds);
  return clauses;
}

interface LogRow {
  pos: number;
  message_id: string;
  message_seq: number | null;
  call_type: string;
  created_at: number;
  body: Buffer;
  step_key?: string | null;
}

function toEntry(row: LogRow): LogEntry {
  const entry: LogEntry = {
    pos: row.pos,
    messageId: row.message_id,
    callType: row.call_type as CallType,
    createdAt: row.created_at,
    body: row.body,
  };
  if (row.message_seq !== null) entry.messageSeq = row.message_seq;
  if (row.step_key) entry.stepKey = row.step_key;
  return entry;
}

/** The workflow tables of the stack's store (write operations receive the StackStore). */
export function workflowStoreOf(store: StackStore): WorkflowStore {
  return store.group(WorkflowStore);
}

export type { MessageRow };
