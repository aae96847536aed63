// The journal of every job of every service, kept by main: one append-only file per job in
// `<data dir>/jobs/` (the folder 0700, the files 0600). A file is a few JSON lines — the job with its
// items (what the preview listed) and start options; then one line per chunk done (where the next chunk
// starts and what this one did); `more` lines when a job's listing went on while it ran; a `wait` line each
// time it waited for its service (an outage, a 5xx, a 429: why a job took long, read back as the record's
// `waited`, with the items whose request may have reached the service before it; files of older versions
// have none, and older versions reading a newer file skip the line); a
// `resume` line each time it continued; an `end` line with its status. Appending one short line per chunk keeps the
// cost of a 50,000-item job flat, and a line cut short by a crash is simply left out when read.
//
// A job whose file has no `end` after its last start was cut short by a console exit: read back, it is
// "interrupted", and resumes from its last chunk line (a chunk in flight when the console died is sent
// again: its items are then already gone, and the services say so).
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
} from 'node:fs';
import { join } from 'node:path';
import type { JobCounts, JobCreated, JobFailure, JobRecord, JobStatus } from '../../../shared/bridge/job';
import type { ChunkOutcome, ChunkTally } from './plan';

/** Jobs kept; when a new one starts, the oldest finished ones beyond this are removed. */
export const JOURNAL_LIMIT = 200;
/** Failures and created items kept per job (a job over this many keeps the first ones). */
export const JOB_DETAIL_LIMIT = 20_000;

/** Everything needed to continue a job: its record, its items and where it got to. */
export interface JournaledJob {
  record: JobRecord;
  /** The procedure's parsed input, as the job was opened. */
  input: unknown;
  items: string[];
  /** Index of the next item to act on. */
  next: number;
  /** Where the listing continues past the items, for plans whose scan goes on while they run. */
  cursor?: string;
  /**
   * Items whose request, in an ask cut short by a failure that may pass, may have reached the service (as
   * of the last wait): a resume after a console exit mid-wait still counts them done when found gone.
   */
  reached?: string[];
}

type Line =
  | { kind: 'job'; record: JobRecord; input: unknown; items: string[]; cursor?: string; next?: number }
  | { kind: 'chunk'; next: number; outcome: ChunkTally }
  | { kind: 'more'; items: string[]; cursor?: string }
  | { kind: 'wait'; at: number; ms: number; reason: string; reached?: string[] }
  | { kind: 'resume'; at: number }
  | { kind: 'end'; status: JobStatus; at: number; error?: string };

interface Entry {
  record: JobRecord;
  /** Set while loaded (a job running now, or read back for a resume). */
  job?: JournaledJob;
}

export class JobJournal {
  private entries: Map<string, Entry> | undefined;

  constructor(
    private readonly dir: string,
    private readonly options: { now?: () => number; warn?: (message: string) => void } = {},
  ) {}

  /** Every job, newest first. */
  list(): JobRecord[] {
    return [...this.loaded().values()]
      .map((entry) => entry.record)
      .sort((a, b) => b.startedAt - a.startedAt || b.id.localeCompare(a.id));
  }

  get(id: string): JobRecord | undefined {
    return this.loaded().get(id)?.record;
  }

  /** The job with its items, read from its file. */
  load(id: string): JournaledJob | undefined {
    const entry = this.loaded().get(id);
    if (!entry) return undefined;
    entry.job ??= this.read(id)?.job;
    return entry.job;
  }

  /** A new job: its first line, with the items the preview listed. */
  begin(job: JournaledJob): void {
    this.prune();
    this.append(job.record.id, {
      kind: 'job',
      record: job.record,
      input: job.input,
      items: job.items,
      ...(job.cursor !== undefined ? { cursor: job.cursor } : {}),
    });
    this.loaded().set(job.record.id, { record: job.record, job });
  }

  /**
   * A job recorded elsewhere (an older version's journal), written as it stands: its counts, where it got
   * to, and its end when it had one.
   */
  adopt(job: JournaledJob): void {
    if (this.loaded().has(job.record.id)) return;
    this.append(job.record.id, {
      kind: 'job',
      record: job.record,
      input: job.input,
      items: job.items,
      next: job.next,
    });
    const { status, finishedAt, error } = job.record;
    if (status !== 'running' && status !== 'interrupted') {
      this.append(job.record.id, {
        kind: 'end',
        status,
        at: finishedAt ?? job.record.startedAt,
        ...(error ? { error } : {}),
      });
    } else {
      job.record.status = 'interrupted';
    }
    this.loaded().set(job.record.id, { record: job.record });
  }

  resumed(job: JournaledJob): void {
    job.record.status = 'running';
    delete job.record.error;
    delete job.record.finishedAt;
    this.append(job.record.id, { kind: 'resume', at: this.now() });
  }

  /** One chunk done: `job` is updated in place, then the line is written. */
  chunk(job: JournaledJob, size: number, outcome: ChunkOutcome): void {
    const full: ChunkTally = {
      succeeded: outcome.succeeded,
      skipped: outcome.skipped ?? 0,
      failures: outcome.failures ?? [],
      created: outcome.created ?? [],
      // Only when some: chunk lines stay as older versions wrote them (which read it as plain succeeded).
      ...(outcome.unconfirmed ? { unconfirmed: outcome.unconfirmed } : {}),
    };
    job.next += size;
    applyChunk(job.record, size, full);
    this.append(job.record.id, { kind: 'chunk', next: job.next, outcome: full });
  }

  /**
   * The job waits `ms` for its service before asking again, for `reason`; `reached`: the items whose
   * request may have reached the service so far (written only when some: older versions skip the field).
   */
  waiting(job: JournaledJob, ms: number, reason: string, reached: readonly string[] = []): void {
    const line = {
      kind: 'wait',
      at: this.now(),
      ms,
      reason,
      ...(reached.length > 0 ? { reached: [...reached] } : {}),
    } as const;
    applyWait(job.record, line);
    job.reached = [...reached];
    this.append(job.record.id, line);
  }

  /** The listing went on while the job ran: more items, and where it continues. */
  more(job: JournaledJob, items: string[], cursor: string | undefined): void {
    job.items.push(...items);
    job.record.total = job.items.length;
    if (cursor === undefined) delete job.cursor;
    else job.cursor = cursor;
    this.append(job.record.id, { kind: 'more', items, ...(cursor !== undefined ? { cursor } : {}) });
  }

  end(job: JournaledJob, status: Exclude<JobStatus, 'running' | 'interrupted'>, error?: string): void {
    const at = this.now();
    job.record.status = status;
    job.record.finishedAt = at;
    if (error) job.record.error = error;
    this.append(job.record.id, { kind: 'end', status, at, ...(error ? { error } : {}) });
    // Its items are not needed in memory any more (a resume reads them back).
    const entry = this.loaded().get(job.record.id);
    if (entry) delete entry.job;
  }

  /** Removes every job that is not running; answers how many. */
  clear(): number {
    let removed = 0;
    for (const [id, entry] of this.loaded()) {
      if (entry.record.status === 'running') continue;
      rmSync(this.file(id), { force: true });
      this.loaded().delete(id);
      removed += 1;
    }
    return removed;
  }

  /** Makes room for one more job: the oldest finished ones go. */
  private prune(): void {
    const records = this.list();
    let count = records.length;
    for (const record of records.reverse()) {
      if (count < JOURNAL_LIMIT) return;
      if (record.status === 'running') continue;
      rmSync(this.file(record.id), { force: true });
      this.loaded().delete(record.id);
      count -= 1;
    }
  }

  private loaded(): Map<string, Entry> {
    if (this.entries) return this.entries;
    this.entries = new Map();
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.jsonl')) continue;
      const read = this.read(name.slice(0, -'.jsonl'.length));
      // Items stay on disk until a resume asks for them.
      if (read) this.entries.set(read.job.record.id, { record: read.job.record });
    }
    return this.entries;
  }

  /** Replays a job's file; a job left running by an earlier console is interrupted. */
  private read(id: string): { job: JournaledJob } | undefined {
    const file = this.file(id);
    if (!existsSync(file)) return undefined;
    const content = readFileSync(file, 'utf8');
    // A last line cut short by a crash is dropped (from the file too, so the next line starts clean).
    const whole = content.slice(0, content.lastIndexOf('\n') + 1);
    if (whole.length < content.length) truncateSync(file, Buffer.byteLength(whole));
    let job: JournaledJob | undefined;
    try {
      for (const text of whole.split('\n')) {
        if (!text.trim()) continue;
        const line = JSON.parse(text) as Line;
        if (!job) {
          if (line.kind !== 'job') throw new Error('the first line is not a job');
          job = { record: line.record, input: line.input, items: line.items, next: line.next ?? 0 };
          if (line.cursor !== undefined) job.cursor = line.cursor;
          continue;
        }
        replay(job, line);
      }
      if (!job) throw new Error('empty');
    } catch (error) {
      const aside = `${file}.unreadable-${this.now()}`;
      renameSync(file, aside);
      this.options.warn?.(
        `job journal ${file} could not be read and was moved to ${aside}: ${String(error)}`,
      );
      return undefined;
    }
    if (job.record.status === 'running') job.record.status = 'interrupted';
    return { job };
  }

  private append(id: string, line: Line): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    appendFileSync(this.file(id), `${JSON.stringify(line)}\n`, { mode: 0o600 });
  }

  private file(id: string): string {
    return join(this.dir, `${id}.jsonl`);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

function replay(job: JournaledJob, line: Line): void {
  const record = job.record;
  switch (line.kind) {
    case 'chunk':
      applyChunk(record, line.next - job.next, line.outcome);
      job.next = line.next;
      return;
    case 'more':
      job.items.push(...line.items);
      record.total = job.items.length;
      if (line.cursor === undefined) delete job.cursor;
      else job.cursor = line.cursor;
      return;
    case 'wait':
      applyWait(record, line);
      // Items already done since are harmless here: they are never asked again.
      job.reached = line.reached ?? [];
      return;
    case 'resume':
      record.status = 'running';
      delete record.error;
      delete record.finishedAt;
      return;
    case 'end':
      record.status = line.status;
      record.finishedAt = line.at;
      if (line.error) record.error = line.error;
      return;
    case 'job':
      throw new Error('a second job line');
  }
}

/** A job's counts before its first chunk: `total` items listed, none acted on yet. */
export function startCounts(total: number): JobCounts {
  return { total, processed: 0, succeeded: 0, skipped: 0, failed: 0, failures: [], created: [] };
}

function applyChunk(record: JobCounts, size: number, outcome: ChunkTally): void {
  record.processed += size;
  record.succeeded += outcome.succeeded;
  record.skipped += outcome.skipped;
  record.failed += outcome.failures.length;
  if (outcome.unconfirmed) record.unconfirmed = (record.unconfirmed ?? 0) + outcome.unconfirmed;
  keep(record.failures, outcome.failures);
  keep(record.created, outcome.created);
}

function applyWait(record: JobRecord, { at, ms, reason }: { at: number; ms: number; reason: string }): void {
  const before = record.waited;
  record.waited = { times: (before?.times ?? 0) + 1, ms: (before?.ms ?? 0) + ms, reason, until: at + ms };
}

function keep<T extends JobFailure | JobCreated>(into: T[], more: readonly T[]): void {
  for (const item of more) {
    if (into.length >= JOB_DETAIL_LIMIT) return;
    into.push(item);
  }
}
