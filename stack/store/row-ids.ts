// Row ids of the two tables every message writes to — `messages.seq` and `events.id` — handed out by the store
// instead of SQLite, so that those tables need no AUTOINCREMENT.
//
// Why not AUTOINCREMENT: with it every INSERT also reads and rewrites the table's row in `sqlite_sequence`, one
// more page in each group commit's WAL (≈ 200 bytes a message; issue 26).
// Why not SQLite's default (largest id + 1): deleting the newest rows would free their ids for the next insert,
// and these ids are seen after their rows are gone. An event id is the logs' paging cursor (an older page is
// the events with smaller ids): a cursor handed out before would page newer events as older ones. A message
// seq stays in `workflow_log.message_seq` after the message is pruned (a reused seq would show another
// message's events in an old run), and `flow_keys` compares seqs to tell newer messages from older. The newest rows are deleted by a schedule tick's withdraw
// (stack/store/messages.ts) and by pruning a stack that sat idle longer than the retention.
//
// So ids only ever grow, as with AUTOINCREMENT: the next id is one more than the largest ever handed out. In
// memory that is a counter; across restarts it is the larger of the table's largest id and a floor kept in
// `settings`, written (in the same transaction) before anything deletes rows of the table. A transaction that
// rolls back leaves a gap, never a reuse.
//
// One counter per connection (all StackStores over one Db share it): only the connection that runs the
// writer's group commits inserts into these tables (stack/store/writer.ts: the main connection, or the writer
// thread's own with `--durability full`), and its transactions are the only writes to them.
import type { Db } from './db';
import { SettingsTable } from './settings';
import type { Statements } from './statements';

export type RowIdTable = 'messages' | 'events';

const ID_COLUMN: Record<RowIdTable, string> = { messages: 'seq', events: 'id' };

/** The settings key of a table's floor: the largest id handed out before rows of it were last deleted. */
export function rowIdFloorKey(table: RowIdTable): string {
  return `row_id_floor:${table}`;
}

interface Counter {
  /** The next id to hand out. */
  next: number;
  /** The floor last written to settings (no need to write it again while nothing new was handed out). */
  persisted: number;
}

const countersByDb = new WeakMap<Db, Map<RowIdTable, Counter>>();

export class RowIds {
  constructor(
    private readonly sql: Statements,
    private readonly table: RowIdTable,
  ) {}

  /** The id of the row about to be inserted. */
  take(): number {
    return this.counter().next++;
  }

  /**
   * Call before deleting rows of the table (inside the deleting transaction): keeps the ids handed out so far
   * from being handed out again after a restart, even if the rows holding the largest go.
   */
  keepFloor(): void {
    const counter = this.counter();
    const floor = counter.next - 1;
    if (floor <= counter.persisted) return;
    new SettingsTable(this.sql).set(rowIdFloorKey(this.table), String(floor));
    counter.persisted = floor;
  }

  private counter(): Counter {
    let counters = countersByDb.get(this.sql.db);
    if (!counters) countersByDb.set(this.sql.db, (counters = new Map()));
    let counter = counters.get(this.table);
    if (!counter) {
      const row = this.sql
        .get(
          `SELECT coalesce((SELECT max(${ID_COLUMN[this.table]}) FROM ${this.table}), 0) AS largest,
             coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE key = ?), 0) AS floor`,
        )
        .get(rowIdFloorKey(this.table)) as { largest: number; floor: number };
      counter = { next: Math.max(row.largest, row.floor) + 1, persisted: row.floor };
      counters.set(this.table, counter);
    }
    return counter;
  }
}
