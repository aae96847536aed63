// The schema of the stack's SQLite database, as an append-only list of migrations. `PRAGMA user_version`
// records how many have run. Never edit a migration that has shipped: add a new one.

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
    id TEXT NOT NULL UNIQUE,
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
    body BLOB NOT NULL
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
];
