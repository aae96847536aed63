// The active runs that step publishes are planned against, kept in memory so that a step's publish does not
// read its run (`SELECT *`, its settings parsed from JSON) for every step (issue 26). A run is taken from
// SQLite the first time a publish needs it and dropped when it ends (runtime.finishCalls). What is kept — id,
// URL, creation time, seq, caller IP, settings — never changes while the run is active (a DLQ resume starts a
// new run); a record kept a moment too long can never let a step into a run that has ended, because the append
// checks the run's state again in its transaction (write-ops.ts).
import { LruMap } from '../lru-map';
import type { RunRecord } from '../store/workflow-store';

/** At most this many runs are kept (least recently used ones go first). */
const MAX_RUNS = 10_000;

export class ActiveRuns {
  /** By run id. */
  private readonly runs: LruMap<string, RunRecord>;

  constructor(
    /** Reads an active run from the store. */
    private readonly read: (runId: string) => RunRecord | undefined,
    limit = MAX_RUNS,
  ) {
    this.runs = new LruMap(limit);
  }

  /** The active run with this id (do not change the record: it is shared). */
  get(runId: string): RunRecord | undefined {
    const kept = this.runs.get(runId);
    if (kept) return kept;
    const run = this.read(runId);
    if (run) this.runs.set(runId, run);
    return run;
  }

  /** Forgets the run (it ended, or its settings changed); a newer run with the same id is not touched. */
  drop(run: Pick<RunRecord, 'runId' | 'seq'>): void {
    if (this.runs.peek(run.runId)?.seq === run.seq) this.runs.delete(run.runId);
  }

  /** How many runs are kept (for tests). */
  get size(): number {
    return this.runs.size;
  }
}
