// The journal of every job of every service (console level, `jobs.*`): the list, one job in full, resume
// of a job cut short (by Cancel, by giving up, or by a console restart), export as JSON or CSV — written by
// main where main picks (a save dialog in the desktop app, the private exports folder in the browser host),
// never to a path the page names —, and clearing the finished ones.
import { z } from 'zod';
import { call, job } from '../define';
import type { JobRecord, JobSummary } from '../job';
import { profileIdSchema as profileId } from '../profile-id';

const jobId = z.string().trim().min(1).max(100);

/** A job as the list shows it: its failures are counted, not carried (`jobs.get` has them). */
export type JobListing = Omit<JobRecord, 'failures' | 'created'>;

export const jobProcedures = {
  /** Every job of every profile, newest first. */
  'jobs.list': call<JobListing[]>()(z.object({}), 'local'),
  'jobs.get': call<JobRecord>()(z.object({ jobId }), 'local'),
  /**
   * Continues a job that did not finish from the item where it stopped: its preview is what is left. The
   * profile is the job's own (main refuses another), so a read-only profile refuses it like any write.
   */
  'jobs.resume': job<JobSummary>()(z.object({ profileId, jobId }), 'write', {
    invalidates: [
      'jobs.list',
      'jobs.get',
      'messages.dlq.list',
      'messages.logs.list',
      'workflows.dlq.list',
      'workflows.dlq.groups',
      'workflows.runs.list',
    ],
  }),
  'jobs.export': call<{ path: string; jobs: number; bytes: number } | { canceled: true }>()(
    z.strictObject({ format: z.enum(['json', 'csv']) }),
    'local',
  ),
  /** Removes every finished job (a running one keeps its entry). */
  'jobs.clear': call<{ removed: number }>()(z.object({}), 'local'),
};
