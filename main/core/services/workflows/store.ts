// What main keeps for the Workflows area across launches, per profile: the bulk-job journal and the
// saved views of the run list. One JSON file in the console's data folder, written atomically (temp file
// + rename). A job found "running" when the file is read was cut short by a console exit: it becomes
// "interrupted", resumable from its cursor.
import { randomUUID } from 'node:crypto';
import type { JobRecord } from '../../../../shared/bridge/procedures/workflows/jobs';
import type { RunFilters } from '../../../../shared/bridge/procedures/workflows/filters';
import type { SavedView } from '../../../../shared/bridge/procedures/workflows/views';
import { readJsonFile, writeJsonFile } from '../../json-file';

/** Jobs kept per profile, newest first; older ones drop off. */
export const JOURNAL_LIMIT = 200;
/** Created runs and failures kept per job (a job over 20,000 entries keeps the first ones). */
export const JOB_DETAIL_LIMIT = 20_000;

interface WorkflowsFile {
  version: 1;
  jobs: Record<string, JobRecord[]>;
  views: Record<string, SavedView[]>;
}

function parseWorkflowsFile(raw: unknown): WorkflowsFile {
  const parsed = raw as Partial<WorkflowsFile>;
  if (parsed.version !== 1 || typeof parsed.jobs !== 'object' || typeof parsed.views !== 'object') {
    throw new Error('unknown layout');
  }
  return { version: 1, jobs: parsed.jobs ?? {}, views: parsed.views ?? {} };
}

export class WorkflowsStore {
  private data: WorkflowsFile = { version: 1, jobs: {}, views: {} };

  constructor(
    private readonly file: string,
    private readonly now: () => number = Date.now,
    onCorrupt: (message: string) => void = () => {},
  ) {
    // An unreadable file is kept for the user (it is an audit trail) rather than overwritten.
    const read = readJsonFile(file, parseWorkflowsFile, { what: 'workflows file', now, onCorrupt });
    if (!read) return;
    this.data = read;
    let changed = false;
    for (const jobs of Object.values(this.data.jobs)) {
      for (const job of jobs) {
        if (job.status === 'running') {
          job.status = 'interrupted';
          changed = true;
        }
      }
    }
    if (changed) this.save();
  }

  jobs(profileId: string): JobRecord[] {
    return this.data.jobs[profileId] ?? [];
  }

  job(profileId: string, jobId: string): JobRecord | undefined {
    return this.jobs(profileId).find((job) => job.id === jobId);
  }

  /** Adds a new job (newest first) or replaces the stored copy of one, and writes the file. */
  putJob(job: JobRecord): void {
    const rest = this.jobs(job.profileId).filter((other) => other.id !== job.id);
    const stored: JobRecord = {
      ...job,
      failures: job.failures.slice(0, JOB_DETAIL_LIMIT),
      runs: job.runs.slice(0, JOB_DETAIL_LIMIT),
    };
    const existing = this.jobs(job.profileId).findIndex((other) => other.id === job.id);
    if (existing >= 0) {
      const jobs = [...this.jobs(job.profileId)];
      jobs[existing] = stored;
      this.data.jobs[job.profileId] = jobs;
    } else {
      this.data.jobs[job.profileId] = [stored, ...rest].slice(0, JOURNAL_LIMIT);
    }
    this.save();
  }

  clearJobs(profileId: string): number {
    const running = this.jobs(profileId).filter((job) => job.status === 'running');
    const removed = this.jobs(profileId).length - running.length;
    // A running job keeps its entry: it is still writing to it.
    this.data.jobs[profileId] = running;
    this.save();
    return removed;
  }

  views(profileId: string): SavedView[] {
    return [...(this.data.views[profileId] ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Saves a view; one with the same name is replaced. */
  saveView(profileId: string, name: string, filters: RunFilters): SavedView {
    const views = this.data.views[profileId] ?? [];
    const existing = views.find((view) => view.name === name);
    const view: SavedView = { id: existing?.id ?? randomUUID(), name, filters, savedAt: this.now() };
    this.data.views[profileId] = [...views.filter((other) => other.id !== view.id), view];
    this.save();
    return view;
  }

  deleteView(profileId: string, id: string): boolean {
    const views = this.data.views[profileId] ?? [];
    this.data.views[profileId] = views.filter((view) => view.id !== id);
    this.save();
    return this.data.views[profileId].length < views.length;
  }

  private save(): void {
    writeJsonFile(this.file, this.data);
  }
}

/** The journal as CSV: one row per job (ids and created runs joined with spaces), RFC 4180 quoting. */
export function journalCsv(jobs: readonly JobRecord[]): string {
  const columns = [
    'id',
    'action',
    'status',
    'description',
    'target',
    'overrides',
    'startedAt',
    'finishedAt',
    'total',
    'processed',
    'succeeded',
    'failed',
    'cursor',
    'createdRuns',
    'failures',
  ];
  const iso = (time: number | undefined) => (time === undefined ? '' : new Date(time).toISOString());
  const rows = jobs.map((job) => [
    job.id,
    job.action,
    job.status,
    job.description,
    'dlqIds' in job.target
      ? `ids: ${job.target.dlqIds.join(' ')}`
      : `filters: ${JSON.stringify(job.target.filters)}`,
    JSON.stringify(job.overrides),
    iso(job.startedAt),
    iso(job.finishedAt),
    String(job.total),
    String(job.processed),
    String(job.succeeded),
    String(job.failures.length),
    job.cursor ?? '',
    job.runs.map((run) => `${run.workflowRunId}@${run.workflowCreatedAt}`).join(' '),
    job.failures
      .map((failure) => (failure.dlqId ? `${failure.dlqId}: ${failure.message}` : failure.message))
      .join(' | '),
  ]);
  return [columns, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
