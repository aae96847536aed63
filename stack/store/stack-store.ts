// The stack's one SQLite store: every table group of every service, over one connection and one statement
// cache. The writer (stack/store/writer.ts) and its group commits are typed over StackStore, so the writes
// of all services (messages today, workflows next) commit in the same transactions.
//
// A service adds its own tables with a migration (stack/store/migrations.ts) and a table module in
// stack/store/ (a class taking Statements); it reaches it with `store.group(WorkflowRunTable)` — one
// instance per store, created on first use — without this file knowing about it.
import type { Db } from './db';
import { DedupTable } from './dedup';
import { DlqTable } from './dlq';
import { EventTable } from './events';
import { MessageTable } from './messages';
import { QueueTable } from './queues';
import { RowIds } from './row-ids';
import { SettingsTable } from './settings';
import { Statements } from './statements';
import { UrlGroupTable } from './url-groups';

/** A table module: a class over the shared statement cache. */
export type TableGroup<T> = new (sql: Statements) => T;

export class StackStore {
  readonly sql: Statements;
  readonly settings: SettingsTable;
  readonly messages: MessageTable;
  readonly events: EventTable;
  readonly dedup: DedupTable;
  readonly dlq: DlqTable;
  readonly queues: QueueTable;
  readonly urlGroups: UrlGroupTable;
  private readonly extra = new Map<TableGroup<unknown>, unknown>();
  /** The writes `last` holds back until the end of the current group transaction (undefined: none open). */
  private lastWrites: (() => void)[] | undefined;

  constructor(readonly db: Db) {
    this.sql = new Statements(db);
    this.settings = new SettingsTable(this.sql);
    this.messages = new MessageTable(this.sql);
    this.events = new EventTable(this.sql);
    this.dedup = new DedupTable(this.sql);
    this.dlq = new DlqTable(this.sql);
    this.queues = new QueueTable(this.sql);
    this.urlGroups = new UrlGroupTable(this.sql);
  }

  /** The table module of a later service (e.g. the workflow run log), one instance per store. */
  group<T>(Group: TableGroup<T>): T {
    let instance = this.extra.get(Group) as T | undefined;
    if (instance === undefined) {
      instance = new Group(this.sql);
      this.extra.set(Group, instance);
    }
    return instance;
  }

  /**
   * Runs a group transaction's operations (`work`), then the writes they asked to run last. The writer calls it
   * inside the transaction; if `work` throws, the held-back writes are dropped with the rest of it.
   */
  withLastWrites<T>(work: () => T): T {
    if (this.lastWrites) return work();
    const writes: (() => void)[] = [];
    this.lastWrites = writes;
    try {
      const result = work();
      for (const write of writes) write();
      return result;
    } finally {
      this.lastWrites = undefined;
    }
  }

  /**
   * Runs `write` at the end of the current group transaction, after every other write of it (at once when no
   * group transaction is open). For the workflow text index (FTS5): a piece inserted between the
   * transaction's other writes costs several times what it costs inserted after them (issue 26).
   */
  last(write: () => void): void {
    if (this.lastWrites) this.lastWrites.push(write);
    else write();
  }

  /**
   * Drops expired dedup keys, DLQ entries created before `dlqBefore` (a failed run's entry with them: migration
   * 9's trigger), log events older than `before`, and finished messages older than `before` that no DLQ entry or
   * log event still needs. Works oldest-first in bounded chunks (rows are in time order), so no index on time
   * is needed and one call never holds the writer for long. Returns how many rows went.
   */
  prune(now: number, before: number, dlqBefore: number, chunk = 5_000): number {
    // A stack idle for longer than the retention prunes its newest rows too: their ids must not come back.
    new RowIds(this.sql, 'events').keepFloor();
    new RowIds(this.sql, 'messages').keepFloor();
    let changes = this.sql.get('DELETE FROM dedup WHERE expires_at <= ?').run(now).changes;
    // The DLQ first, so that the messages of the entries it drops can go in this same pass.
    changes += this.sql
      .get(`DELETE FROM dlq WHERE seq IN (SELECT seq FROM dlq ORDER BY seq LIMIT ?) AND created_at < ?`)
      .run(chunk, dlqBefore).changes;
    changes += this.sql
      .get(`DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY id LIMIT ?) AND time < ?`)
      .run(chunk, before).changes;
    changes += this.sql
      .get(
        `DELETE FROM messages WHERE seq IN (
           SELECT seq FROM messages WHERE done = 1 AND finished_at < ? ORDER BY seq LIMIT ?)
          AND NOT EXISTS (SELECT 1 FROM dlq WHERE dlq.message_seq = messages.seq)
          AND NOT EXISTS (SELECT 1 FROM events WHERE events.message_seq = messages.seq)`,
      )
      .run(before, chunk).changes;
    return changes;
  }
}
