// The `flow_keys` table: what the flow-control gate (stack/messages/flow-gate.ts) must not forget across a
// restart — each key's settings, whether it is paused, which settings are pinned, and its current rate
// period. The gate keeps every key in memory and writes a key's whole row whenever one of these changes.
import type { Statements } from './statements';

export interface FlowKeyRecord {
  key: string;
  parallelism?: number;
  rate?: number;
  /** Seconds. */
  period: number;
  /** The seq of the message whose settings these are (messages with a higher seq are newer). */
  settingsSeq: number;
  paused: boolean;
  pinnedParallelism: boolean;
  pinnedRate: boolean;
  /** Start of the current rate period (clock ms), if one was started. */
  periodStart?: number;
  /** Attempts started in that period. */
  periodCount: number;
  createdAt: number;
  updatedAt: number;
}

interface FlowKeyRow {
  key: string;
  parallelism: number | null;
  rate: number | null;
  period: number;
  settings_seq: number;
  paused: number;
  pinned_parallelism: number;
  pinned_rate: number;
  period_start: number | null;
  period_count: number;
  created_at: number;
  updated_at: number;
}

function toRecord(row: FlowKeyRow): FlowKeyRecord {
  return {
    key: row.key,
    parallelism: row.parallelism ?? undefined,
    rate: row.rate ?? undefined,
    period: row.period,
    settingsSeq: row.settings_seq,
    paused: row.paused === 1,
    pinnedParallelism: row.pinned_parallelism === 1,
    pinnedRate: row.pinned_rate === 1,
    periodStart: row.period_start ?? undefined,
    periodCount: row.period_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class FlowKeyTable {
  constructor(private readonly sql: Statements) {}

  list(): FlowKeyRecord[] {
    return this.sql.all('SELECT * FROM flow_keys ORDER BY key', toRecord);
  }

  get(key: string): FlowKeyRecord | undefined {
    return this.sql.one('SELECT * FROM flow_keys WHERE key = ?', toRecord, key);
  }

  /** Writes a key's whole row (the gate's state of it at one moment). */
  save(record: FlowKeyRecord): void {
    this.sql
      .get(
        `INSERT OR REPLACE INTO flow_keys (key, parallelism, rate, period, settings_seq, paused,
          pinned_parallelism, pinned_rate, period_start, period_count, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        record.key,
        record.parallelism ?? null,
        record.rate ?? null,
        record.period,
        record.settingsSeq,
        record.paused ? 1 : 0,
        record.pinnedParallelism ? 1 : 0,
        record.pinnedRate ? 1 : 0,
        record.periodStart ?? null,
        record.periodCount,
        record.createdAt,
        record.updatedAt,
      );
  }

  delete(keys: readonly string[]): number {
    const statement = this.sql.get('DELETE FROM flow_keys WHERE key = ?');
    let deleted = 0;
    for (const key of keys) deleted += statement.run(key).changes;
    return deleted;
  }
}
