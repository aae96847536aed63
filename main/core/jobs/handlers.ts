// The `jobs.*` procedures (the console's Jobs screen): the journal of every service's jobs, one job in
// full, resume, export and clear. Exports are written by main into its own exports folder under a name
// main picks (the page never names a path), 0600 and never over an existing file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JobRecord } from '../../../shared/bridge/job';
import type { jobProcedures } from '../../../shared/bridge/procedures/jobs';
import { BridgeError } from '../../../shared/bridge/errors';
import type { Handlers } from '../bridge/router';
import type { JobRunner } from './runner';

type Names = keyof typeof jobProcedures;

export function jobHandlers(
  runner: JobRunner,
  { exportDir, now = Date.now }: { exportDir: string; now?: () => number },
): Pick<Handlers, Names> {
  const journal = runner.journal;
  return {
    'jobs.list': () => journal.list().map(({ failures: _f, created: _c, ...listing }) => listing),
    'jobs.get': ({ jobId }) => {
      const record = journal.get(jobId);
      if (!record) throw new BridgeError({ code: 'NOT_FOUND', message: `No job ${jobId} in the journal.` });
      return record;
    },
    'jobs.resume': runner.resume,
    'jobs.export': ({ format }) => {
      const jobs = journal.list();
      const text = format === 'json' ? `${JSON.stringify(jobs, null, 2)}\n` : journalCsv(jobs);
      const stamp = new Date(now()).toISOString().replace(/[:.]/g, '-');
      const path = writeNewFile(exportDir, `switchyard-jobs-${stamp}`, `.${format}`, text);
      return { path, jobs: jobs.length, bytes: Buffer.byteLength(text) };
    },
    'jobs.clear': () => ({ removed: journal.clear() }),
  };
}

/** Writes `text` to a new file `<base>[-n]<ext>` in `dir` (0600): never over a file that is there. */
function writeNewFile(dir: string, base: string, ext: string, text: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (let n = 1; ; n += 1) {
    const path = join(dir, `${base}${n === 1 ? '' : `-${n}`}${ext}`);
    try {
      writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 100) throw error;
    }
  }
}

/** The journal as CSV: one row per job (created items and failures joined), RFC 4180 quoting. */
export function journalCsv(jobs: readonly JobRecord[]): string {
  const columns = [
    'id',
    'service',
    'profile',
    'action',
    'status',
    'description',
    'target',
    'options',
    'startedAt',
    'finishedAt',
    'total',
    'processed',
    'succeeded',
    'skipped',
    'failed',
    'created',
    'failures',
    'error',
  ];
  const iso = (time: number | undefined) => (time === undefined ? '' : new Date(time).toISOString());
  const rows = jobs.map((job) => [
    job.id,
    job.service,
    job.profileName,
    job.action,
    job.status,
    job.description,
    JSON.stringify(job.target),
    JSON.stringify(job.options),
    iso(job.startedAt),
    iso(job.finishedAt),
    String(job.total),
    String(job.processed),
    String(job.succeeded),
    String(job.skipped),
    String(job.failed),
    job.created.map((item) => (item.createdAt ? `${item.id}@${item.createdAt}` : item.id)).join(' '),
    job.failures
      .map((failure) => (failure.id ? `${failure.id}: ${failure.message}` : failure.message))
      .join(' | '),
    job.error ?? '',
  ]);
  return [columns, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
