// The job journal: every bulk job of a profile, kept by main — what ran, on which ids or filter, with
// which overrides, which runs it created, how far it got. A job cut short by a console restart is
// "interrupted" and can be resumed from its cursor; the journal exports as JSON or CSV.
import { z } from 'zod';
import type { RestartedRun } from '../../../workflows/types';
import { call, stream } from '../../define';
import type { BulkAction, BulkEvent, BulkFailure, BulkTarget, RunOverrides } from './dlq';
import { profileIdSchema as profileId } from '../../profile-id';

export type JobStatus = 'running' | 'done' | 'cancelled' | 'failed' | 'interrupted';

export interface JobRecord {
  id: string;
  profileId: string;
  action: BulkAction;
  target: BulkTarget;
  description: string;
  overrides: RunOverrides;
  startedAt: number;
  finishedAt?: number;
  status: JobStatus;
  /** Where the job continues: the service's cursor (filter targets) or the next id's index (id targets). */
  cursor?: string;
  total: number;
  processed: number;
  succeeded: number;
  failures: BulkFailure[];
  runs: RestartedRun[];
  /** Why a failed job stopped. */
  error?: string;
}

export const jobProcedures = {
  'workflows.jobs.list': call<JobRecord[]>()(z.object({ profileId }), 'local'),
  /** Continues an interrupted or cancelled job from its cursor. */
  'workflows.jobs.resume': stream<BulkEvent>()(
    z.object({ profileId, jobId: z.string().min(1).max(100) }),
    'write',
  ),
  'workflows.jobs.export': call<{ fileName: string; mimeType: string; text: string }>()(
    z.object({ profileId, format: z.enum(['json', 'csv']) }),
    'local',
  ),
  'workflows.jobs.clear': call<{ removed: number }>()(z.object({ profileId }), 'local'),
};
