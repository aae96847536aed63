// The workflow DLQ's jobs as an older version journaled them (in workflows.json), handed over once to the
// one journal of every service. A job on listed ids resumes from where it stopped; a job on a filter was
// continued by the service's own cursor then, which the one runner does not use: it is kept as a record,
// and an unfinished one says to start a new job for the rest.
import type { JobRecord, JobStatus } from '../../../../shared/bridge/job';
import type { RunOverrides } from '../../../../shared/bridge/procedures/workflows/dlq';
import type { WorkflowDlqFilters } from '../../../../shared/bridge/procedures/workflows/filters';
import type { JournaledJob } from '../../jobs/journal';

/** A job record of the older journal. */
export interface LegacyJob {
  id: string;
  profileId: string;
  action: 'restart' | 'resume' | 'delete' | 'callback';
  target: { dlqIds: string[] } | { filters: WorkflowDlqFilters };
  description: string;
  overrides: RunOverrides;
  startedAt: number;
  finishedAt?: number;
  status: JobStatus;
  cursor?: string;
  total: number;
  processed: number;
  succeeded: number;
  failures: { dlqId?: string; message: string }[];
  runs: { workflowRunId: string; workflowCreatedAt: number }[];
  error?: string;
}

export function fromLegacyJob(job: LegacyJob, profileName: (profileId: string) => string): JournaledJob {
  const ids = 'dlqIds' in job.target ? job.target.dlqIds : undefined;
  const unfinished = job.status !== 'done';
  const record: JobRecord = {
    id: job.id,
    procedure: 'workflows.dlq.job',
    service: 'workflows',
    profileId: job.profileId,
    profileName: profileName(job.profileId),
    action: job.action,
    description: job.description,
    target: ids ? { ids: ids.length } : { filters: (job.target as { filters: WorkflowDlqFilters }).filters },
    options: { overrides: job.overrides, ...(job.action === 'resume' ? { action: 'resume' } : {}) },
    startedAt: job.startedAt,
    status: job.status === 'running' ? 'interrupted' : job.status,
    total: job.total,
    processed: job.processed,
    succeeded: job.succeeded,
    skipped: 0,
    failed: job.failures.length,
    failures: job.failures.map((failure) => ({
      ...(failure.dlqId ? { id: failure.dlqId } : {}),
      message: failure.message,
    })),
    created: job.runs.map((run) => ({ id: run.workflowRunId, createdAt: run.workflowCreatedAt })),
  };
  if (job.finishedAt !== undefined) record.finishedAt = job.finishedAt;
  if (job.error) record.error = job.error;
  if (!ids && unfinished) {
    record.status = 'failed';
    record.finishedAt ??= job.startedAt;
    record.error =
      'kept from an older journal: a job on a filter cannot be resumed; start a new one for the rest';
  }
  const next = ids
    ? job.status === 'done'
      ? ids.length
      : Math.min(ids.length, Number(job.cursor ?? job.processed) || 0)
    : 0;
  return {
    record,
    input: {
      profileId: job.profileId,
      description: job.description,
      action: job.action,
      target: ids ? { ids } : job.target,
    },
    items: ids ?? [],
    next,
  };
}
