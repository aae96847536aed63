// The schema of the stack's SQLite database, as an append-only list of migrations. `PRAGMA user_version`
// records how many have run. Never edit a migration that has shipped: add a new one.

/**
 * The columns of `messages` after its `seq`, as migration 1 created them. Migration 8 rebuilds the table with the
 * same columns (only `seq` loses AUTOINCREMENT), so both interpolate this text; it is part of migration 1 and so
 * must never change (a new column is a new migration's ALTER TABLE).
 */
const MESSAGE_COLUMNS_AFTER_SEQ = `    id TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    due_at INTEGER NOT NULL,
    retried INTEGER NOT NULL DEFAULT 0,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    done INTEGER NOT NULL DEFAULT 0,
    outcome TEXT,
    finished_at INTEGER,
    url TEXT NOT NULL,
    host TEXT NOT NULL,
    path TEXT NOT NULL,
    topic_name TEXT,
    endpoint_name TEXT,
    queue_name TEXT,
    flow_key TEXT,
    schedule_id TEXT,
    caller_ip TEXT,
    labels TEXT,
    spec TEXT NOT NULL,
    body BLOB NOT NULL`;

export const MIGRATIONS: readonly string[] = [
  // 1: the message delivery service.
  `
  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );

  -- One row per message. Pending rows (done = 0) are the engine's persisted schedule; finished rows are
  -- kept for the logs and the DLQ until pruned.
  CREATE TABLE messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
${MESSAGE_COLUMNS_AFTER_SEQ}
  );
  CREATE INDEX messages_pending ON messages (seq) WHERE done = 0;
  CREATE INDEX messages_finished ON messages (finished_at) WHERE done = 1;

  -- The logs: one row per state change.
  CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time INTEGER NOT NULL,
    message_seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    data TEXT
  );
  CREATE INDEX events_message ON events (message_seq);
  CREATE INDEX events_time ON events (time);

  CREATE TABLE dlq (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    dlq_id TEXT NOT NULL UNIQUE,
    message_seq INTEGER NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    response_status INTEGER NOT NULL,
    response_header TEXT,
    response_body BLOB
  );

  CREATE TABLE dedup (
    key TEXT PRIMARY KEY,
    message_id TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX dedup_expiry ON dedup (expires_at);

  CREATE TABLE queues (
    name TEXT PRIMARY KEY,
    parallelism INTEGER NOT NULL,
    paused INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );

  CREATE TABLE url_groups (
    name TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    headers TEXT
  );

  CREATE TABLE url_group_endpoints (
    group_name TEXT NOT NULL REFERENCES url_groups (name) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT,
    url TEXT NOT NULL,
    PRIMARY KEY (group_name, url)
  );
  `,
  // 2: fewer indexes to maintain on the hot path; pruning walks rows oldest-first instead.
  `
  DROP INDEX events_time;
  DROP INDEX messages_finished;
  `,
  // 3: the workflow service (stack/store/workflow-store.ts).
  `
  -- One row per run. A run id may be reused once its run has ended, so rows are keyed by seq.
  CREATE TABLE workflow_runs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL,
    url TEXT NOT NULL,
    state TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    completed_at INTEGER,
    caller_ip TEXT,
    flow_key TEXT,
    labels TEXT,
    log_size INTEGER NOT NULL DEFAULT 0,
    -- The state of the step being delivered (STEP_PROGRESS, STEP_RETRY, STEP_FAILED, STEP_CANCELED).
    step_state TEXT,
    config TEXT NOT NULL,
    response TEXT,
    invoker TEXT,
    invoker_run_id TEXT,
    failure TEXT,
    failure_state TEXT,
    dlq_id TEXT
  );
  CREATE UNIQUE INDEX workflow_runs_active ON workflow_runs (run_id) WHERE state = 'RUN_STARTED';
  CREATE INDEX workflow_runs_id ON workflow_runs (run_id);
  CREATE INDEX workflow_runs_created ON workflow_runs (created_at);
  CREATE INDEX workflow_runs_url ON workflow_runs (url);
  CREATE INDEX workflow_runs_state ON workflow_runs (state);
  CREATE INDEX workflow_runs_step_state ON workflow_runs (step_state) WHERE step_state IS NOT NULL;
  CREATE INDEX workflow_runs_flow ON workflow_runs (flow_key) WHERE flow_key IS NOT NULL;
  CREATE INDEX workflow_runs_caller ON workflow_runs (caller_ip) WHERE caller_ip IS NOT NULL;
  CREATE INDEX workflow_runs_invoker ON workflow_runs (invoker_run_id) WHERE invoker_run_id IS NOT NULL;
  CREATE UNIQUE INDEX workflow_runs_dlq ON workflow_runs (dlq_id) WHERE dlq_id IS NOT NULL;

  CREATE TABLE workflow_run_labels (
    label TEXT NOT NULL,
    run_seq INTEGER NOT NULL,
    PRIMARY KEY (label, run_seq)
  ) WITHOUT ROWID;

  -- The run log: one entry per message of the run, in accept order. Entry 0 is the trigger.
  CREATE TABLE workflow_log (
    run_seq INTEGER NOT NULL,
    pos INTEGER NOT NULL,
    message_id TEXT NOT NULL,
    message_seq INTEGER,
    call_type TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (run_seq, pos)
  ) WITHOUT ROWID;
  CREATE UNIQUE INDEX workflow_log_message ON workflow_log (message_id);

  -- Runs waiting for an event (context.waitForEvent, context.waitForWebhook).
  CREATE TABLE workflow_waiters (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL,
    run_seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    deadline INTEGER NOT NULL,
    data TEXT NOT NULL
  );
  CREATE INDEX workflow_waiters_event ON workflow_waiters (event_id);
  CREATE INDEX workflow_waiters_run ON workflow_waiters (run_seq);

  -- Run-scoped notifications and webhook calls that arrived before their wait (the lookback).
  CREATE TABLE workflow_events (
    run_seq INTEGER NOT NULL,
    event_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (run_seq, event_id)
  ) WITHOUT ROWID;
  `,
  // 4: schedules (stack/store/schedules.ts).
  `
  -- One row per schedule: the publish it repeats (the creating request's configuration headers and body),
  -- its cron expression, and where it stands. next_tick is the next tick to fire (NULL while paused); it
  -- moves forward in the same transaction that inserts a tick's messages, so no tick fires twice.
  CREATE TABLE schedules (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    cron TEXT NOT NULL,
    destination TEXT NOT NULL,
    paused INTEGER NOT NULL DEFAULT 0,
    headers TEXT NOT NULL,
    body BLOB NOT NULL,
    caller_ip TEXT,
    next_tick INTEGER,
    last_tick INTEGER,
    last_states TEXT,
    error TEXT
  );
  `,
  // 5: one log entry per step of a run. The workflow SDK may publish a step twice (its HTTP client retries
  // after a connection reset; a delivery that was in flight at a crash runs again); the second publish is
  // answered "deduplicated" instead of forking the run. `step_key` names the step an entry records:
  // `step:<stepId>` for a result, `plan:<targetStep>` for a parallel plan, `call:<stepId>` for a
  // context.call request. Entries logged before this migration get their key from their body; where the
  // bug had already logged a step twice, the lookup takes the first (lowest pos), as the SDK does.
  `
  ALTER TABLE workflow_log ADD COLUMN step_key TEXT;
  UPDATE workflow_log SET step_key = CASE
      WHEN call_type = 'step' AND json_extract(CAST(body AS TEXT), '$.stepId') = 0
        THEN 'plan:' || json_extract(CAST(body AS TEXT), '$.targetStep')
      WHEN call_type = 'step' THEN 'step:' || json_extract(CAST(body AS TEXT), '$.stepId')
      ELSE 'call:' || json_extract(CAST(body AS TEXT), '$.stepId')
    END
    WHERE pos > 0 AND call_type IN ('step', 'toCallback') AND json_valid(CAST(body AS TEXT))
      AND json_type(CAST(body AS TEXT), '$.stepId') = 'integer'
      AND (call_type <> 'step' OR json_extract(CAST(body AS TEXT), '$.stepId') <> 0
        OR json_type(CAST(body AS TEXT), '$.targetStep') = 'integer');
  CREATE INDEX workflow_log_step ON workflow_log (run_seq, step_key, pos) WHERE step_key IS NOT NULL;
  `,
  // 6: flow-control keys (stack/store/flow-keys.ts): each key's settings, pause and pins, and its current
  // rate period, so that all of them survive a restart. The waitlist itself is not stored: it is the key's
  // pending messages, rebuilt from `messages` at start-up.
  `
  CREATE TABLE flow_keys (
    key TEXT PRIMARY KEY,
    parallelism INTEGER,
    rate INTEGER,
    period INTEGER NOT NULL,
    -- The message whose settings these are: at start-up only newer pending messages may change them.
    settings_seq INTEGER NOT NULL,
    paused INTEGER NOT NULL,
    pinned_parallelism INTEGER NOT NULL,
    pinned_rate INTEGER NOT NULL,
    period_start INTEGER,
    period_count INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // 7: what a run's record alone does not keep (stack/store/workflow-history.ts) and the text search over
  // runs (stack/store/workflow-search.ts).
  `
  -- Things that happened to a run that its log and its messages' events do not show: how it was started, who
  -- cancelled it, restarts and resumes, waits and the notifications that ended them.
  CREATE TABLE workflow_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_seq INTEGER NOT NULL,
    time INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT
  );
  CREATE INDEX workflow_history_run ON workflow_history (run_seq, id);

  -- Text of a run's payload, step outputs, call bodies, errors and response. One row per piece; the rowid is
  -- run_seq * 2^24 + n, so that matches come out in run order (newest first) straight from the index.
  CREATE VIRTUAL TABLE workflow_search USING fts5 (text, content = '', contentless_delete = 1);
  ALTER TABLE workflow_runs ADD COLUMN search_size INTEGER NOT NULL DEFAULT 0;
  INSERT INTO workflow_search (rowid, text)
    SELECT run_seq * 16777216 + pos, CAST(body AS TEXT) FROM workflow_log WHERE pos < 16777216;
  UPDATE workflow_runs SET search_size = log_size;
  `,
  // 8: \`messages\` and \`events\` without AUTOINCREMENT, which rewrote their \`sqlite_sequence\` row on every insert
  // (issue 26). Their ids are now handed out by the store and still never reused (stack/store/row-ids.ts): the
  // largest id AUTOINCREMENT had handed out becomes the table's floor in \`settings\`. The tables are rebuilt
  // with the same columns in the same order, every row copied as it is, and their indexes made again.
  `
  INSERT INTO settings (key, value)
    SELECT 'row_id_floor:' || name, CAST(seq AS TEXT) FROM sqlite_sequence WHERE name IN ('messages', 'events')
    ON CONFLICT (key) DO UPDATE SET value = excluded.value;

  ALTER TABLE messages RENAME TO messages_before_8;
  CREATE TABLE messages (
    seq INTEGER PRIMARY KEY,
${MESSAGE_COLUMNS_AFTER_SEQ}
  );
  INSERT INTO messages (seq, id, created_at, due_at, retried, cancel_requested, done, outcome, finished_at, url, host, path,
    topic_name, endpoint_name, queue_name, flow_key, schedule_id, caller_ip, labels, spec, body)
    SELECT seq, id, created_at, due_at, retried, cancel_requested, done, outcome, finished_at, url, host, path,
    topic_name, endpoint_name, queue_name, flow_key, schedule_id, caller_ip, labels, spec, body FROM messages_before_8 ORDER BY seq;
  DROP TABLE messages_before_8;
  CREATE INDEX messages_pending ON messages (seq) WHERE done = 0;

  ALTER TABLE events RENAME TO events_before_8;
  CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    time INTEGER NOT NULL,
    message_seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    data TEXT
  );
  INSERT INTO events (id, time, message_seq, state, data)
    SELECT id, time, message_seq, state, data FROM events_before_8 ORDER BY id;
  DROP TABLE events_before_8;
  CREATE INDEX events_message ON events (message_seq);
  `,
  // 9: a failed run's DLQ id follows its entry in \`dlq\`. However the entry goes (taken by a workflow DLQ action,
  // deleted or retried through the message DLQ API, or dropped by the DLQ retention), the run forgets it in the
  // same transaction, so the run page and the workflow DLQ never offer an entry that is gone. Runs that already
  // point at a missing entry (through the message DLQ API before this migration) forget it now.
  `
  UPDATE workflow_runs SET dlq_id = NULL WHERE dlq_id IS NOT NULL AND dlq_id NOT IN (SELECT dlq_id FROM dlq);
  CREATE TRIGGER dlq_entry_gone AFTER DELETE ON dlq BEGIN
    UPDATE workflow_runs SET dlq_id = NULL WHERE dlq_id = OLD.dlq_id;
  END;
  `,
];
