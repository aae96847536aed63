// The encoded log of each active run, kept in memory so that a step's delivery does not read the run's log
// from SQLite and encode it again for every step (issue 26: that was ~100 µs a step at 10 steps a run, and
// grows with the run's length). A delivery's body is the JSON array of the log's entries up to its own
// (`[{messageId, body: base64, callType}]`, records.ts rawStep); the cache keeps each entry's JSON text, so a
// body is the texts of entries 0..pos joined — byte for byte what encoding the rows read from SQLite gives.
//
// Why it cannot go stale: a log entry never changes once committed (workflow_log rows are only inserted; a
// DLQ resume copies entries into a new run), so a cached entry is always right. What
// the cache must get right is completeness, and it only answers when it holds every entry up to the one
// asked for; otherwise the caller reads SQLite, as before, and fills the cache from what it read.
//
// When entries come and go: an entry is added when the append that wrote it has committed (runtime.appendCall);
// a run's entries are dropped when the run ends (finished, failed or cancelled: runtime.finishCalls). Runs
// that never end (an app that stopped answering) are bounded by evicting the least recently used runs.
import { LruMap } from '../lru-map';
import type { LogEntry } from '../store/workflow-store';
import { rawStep } from './records';

/** At most this many runs are kept (runs beyond it are evicted, least recently used first)… */
const MAX_RUNS = 10_000;
/** …and at most this many characters of encoded entries in all. */
const MAX_CHARS = 64 * 1024 * 1024;

interface RunLog {
  runSeq: number;
  /** Each entry's JSON text, by log position (a gap: not cached, e.g. written before the stack started). */
  texts: (string | undefined)[];
  /** The messages of its cached entries (to forget them with the run). */
  messageIds: string[];
  chars: number;
}

export class RunLogCache {
  /** By run seq; a run evicted for the limits is forgotten like a dropped one. */
  private readonly runs: LruMap<number, RunLog>;
  /** Where each cached entry's message is: its run and position. */
  private readonly messages = new Map<string, { run: RunLog; pos: number }>();
  private chars = 0;

  constructor(private readonly limits = { runs: MAX_RUNS, chars: MAX_CHARS }) {
    this.runs = new LruMap(limits.runs, (_runSeq, run) => this.forget(run));
  }

  /** An entry the run's log now has (its append has committed). */
  add(runSeq: number, pos: number, entry: Pick<LogEntry, 'messageId' | 'callType' | 'body'>): void {
    const run = this.runs.get(runSeq) ?? this.create(runSeq);
    if (run.texts[pos] !== undefined) return;
    const text = JSON.stringify(rawStep(entry));
    run.texts[pos] = text;
    run.chars += text.length;
    this.chars += text.length;
    if (!this.messages.has(entry.messageId)) {
      this.messages.set(entry.messageId, { run, pos });
      run.messageIds.push(entry.messageId);
    }
    // Beyond the characters' limit, whole runs go, least recently used first (the runs' limit is the map's).
    while (this.chars > this.limits.chars && this.runs.evictOldest());
  }

  /** Adds a run's entries read from SQLite (a prefix the cache could not answer), in log order. */
  fill(runSeq: number, entries: LogEntry[]): void {
    for (const entry of entries) this.add(runSeq, entry.pos, entry);
  }

  /**
   * The delivery body of a message's step — the run's log up to and including its entry, as JSON — or
   * undefined when the cache does not hold every entry of it.
   */
  prefix(messageId: string): Buffer | undefined {
    const at = this.messages.get(messageId);
    if (!at) return undefined;
    const texts = at.run.texts.slice(0, at.pos + 1);
    if (texts.includes(undefined)) return undefined;
    this.runs.get(at.run.runSeq); // a use
    return Buffer.from(`[${texts.join(',')}]`);
  }

  /** Forgets a run (it has ended: nothing of it is delivered as a step any more). */
  drop(runSeq: number): void {
    const run = this.runs.peek(runSeq);
    if (!run) return;
    this.runs.delete(runSeq);
    this.forget(run);
  }

  /** How many runs are cached (for tests). */
  get size(): number {
    return this.runs.size;
  }

  private create(runSeq: number): RunLog {
    const run: RunLog = { runSeq, texts: [], messageIds: [], chars: 0 };
    this.runs.set(runSeq, run);
    return run;
  }

  /** Forgets what a run that has left `runs` accounted for. */
  private forget(run: RunLog): void {
    this.chars -= run.chars;
    for (const messageId of run.messageIds) this.messages.delete(messageId);
  }
}
