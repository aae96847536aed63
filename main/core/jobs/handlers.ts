// The `jobs.*` procedures (the console's Jobs screen): the journal of every service's jobs, one job in
// full, resume, export and clear. Exports go where the front door's FileSaver puts files (a save dialog in
// the desktop app, the private exports folder in the browser host): the page never names a path.
import type { JobRecord } from '../../../shared/bridge/job';
import type { jobProcedures } from '../../../shared/bridge/procedures/jobs';
import { BridgeError } from '../../../shared/bridge/errors';
import type { Handlers } from '../bridge/router';
import { csvText } from '../saving/csv';
import type { FileSaver } from '../saving/file-saver';
import type { JobRunner } from './runner';

type Names = keyof typeof jobProcedures;

export function jobHandlers(
  runner: JobRunner,
  { saver, now = Date.now }: { saver: FileSaver; now?: () => number },
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
    'jobs.export': async ({ format }) => {
      const jobs = journal.list();
      const text = format === 'json' ? `${JSON.stringify(jobs, null, 2)}\n` : journalCsv(jobs);
      const stamp = new Date(now()).toISOString().replace(/[:.]/g, '-');
      const saved = await saver.save({
        text,
        defaultName: `switchyard-jobs-${stamp}.${format}`,
        what: 'the job journal',
      });
      if ('canceled' in saved) return saved;
      return { path: saved.path, jobs: jobs.length, bytes: Buffer.byteLength(text) };
    },
    'jobs.clear': () => ({ removed: journal.clear() }),
  };
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
    'unconfirmed',
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
    String(job.unconfirmed ?? 0),
    String(job.failed),
    job.created.map((item) => (item.createdAt ? `${item.id}@${item.createdAt}` : item.id)).join(' '),
    job.failures
      .map((failure) => (failure.id ? `${failure.id}: ${failure.message}` : failure.message))
      .join(' | '),
    job.error ?? '',
  ]);
  return csvText([columns, ...rows]);
}
