// The `workflow_history` table: what happened to a run that neither its log nor its messages' events keep —
// how it was started, who cancelled it, restarts and resumes, when a wait began and which notify ended it.
// Rows are written by named operations (stack/workflows/history-writes.ts) in the same transaction as the
// action they describe; the run record carries them as its local-only `history` field.
import type { RunHistoryEvent } from '../../shared/workflows/types';
import type { Statements } from './statements';

/** An event as stored: its kind and time are columns, the rest is JSON. */
type Stored = Omit<RunHistoryEvent, 'kind' | 'time'>;

export class WorkflowHistoryTable {
  constructor(private readonly sql: Statements) {}

  record(runSeq: number, event: RunHistoryEvent): void {
    const { kind, time, ...data } = event;
    this.sql
      .get('INSERT INTO workflow_history (run_seq, time, kind, data) VALUES (?, ?, ?, ?)')
      .run(runSeq, time, kind, Object.keys(data).length > 0 ? JSON.stringify(data satisfies Stored) : null);
  }

  /** The run's events in the order they were recorded. */
  ofRun(runSeq: number): RunHistoryEvent[] {
    const rows = this.sql
      .get('SELECT time, kind, data FROM workflow_history WHERE run_seq = ? ORDER BY id')
      .all(runSeq) as { time: number; kind: string; data: string | null }[];
    return rows.map(
      (row) =>
        ({
          kind: row.kind,
          time: row.time,
          ...(row.data ? (JSON.parse(row.data) as Stored) : {}),
        }) as RunHistoryEvent,
    );
  }
}
