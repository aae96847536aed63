// The `workflows.*` procedures: the run explorer (runs.ts), the workflow DLQ — list, triage groups,
// preview counts and bulk jobs — the job journal and the saved views (both kept by main in store.ts).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { BridgeError } from '../../../../shared/bridge/errors';
import {
  type BulkEvent,
  DLQ_SCAN_LIMIT,
  type workflowDlqProcedures,
  WORKFLOW_DLQ_PAGE,
} from '../../../../shared/bridge/procedures/workflows/dlq';
import type { WorkflowDlqFilters } from '../../../../shared/bridge/procedures/workflows/filters';
import type { JobRecord, jobProcedures } from '../../../../shared/bridge/procedures/workflows/jobs';
import type { viewProcedures } from '../../../../shared/bridge/procedures/workflows/views';
import type { WorkflowDlqMessage } from '../../../../shared/workflows/types';
import { endStreamWithJob } from '../../bridge/job-stream';
import type { Handlers, StreamSink } from '../../bridge/router';
import type { JobHandlerDeps, StoringHandlerDeps } from '../handler-deps';
import { ServiceApi } from '../../http/service-api';
import { messageEndpoint } from '../messages/client';
import { WorkflowBulkJob } from './bulk';
import { WorkflowClient } from './client';
import { groupFailures } from './failure-groups';
import { runCancelJobPlan } from './run-cancel-job';
import { runHandlers } from './runs';
import { journalCsv, WorkflowsStore } from './store';

type Names = keyof typeof workflowDlqProcedures | keyof typeof jobProcedures | keyof typeof viewProcedures;

/** Every DLQ entry a filter matches, page by page, up to `limit`. */
export async function scanDlq(
  client: WorkflowClient,
  filters: WorkflowDlqFilters,
  limit = DLQ_SCAN_LIMIT,
): Promise<{ entries: WorkflowDlqMessage[]; capped: boolean }> {
  const entries: WorkflowDlqMessage[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.dlqList(filters, { cursor, count: WORKFLOW_DLQ_PAGE });
    for (const entry of page.messages) {
      if (seen.has(entry.dlqId)) continue;
      seen.add(entry.dlqId);
      entries.push(entry);
    }
    if (entries.length >= limit) return { entries: entries.slice(0, limit), capped: true };
    cursor = page.cursor && page.cursor !== cursor && page.messages.length > 0 ? page.cursor : undefined;
  } while (cursor);
  return { entries, capped: false };
}

export function workflowHandlers({
  profiles,
  dataDir,
  warn,
  logError,
  now = Date.now,
  jobs,
}: StoringHandlerDeps &
  JobHandlerDeps & {
    now?: () => number;
  }): Pick<Handlers, Names | keyof ReturnType<typeof runHandlers> | 'workflows.runs.job'> {
  const client = (profileId: string) =>
    new WorkflowClient(new ServiceApi(messageEndpoint(profiles.resolve(profileId))));
  const store = new WorkflowsStore(join(dataDir, 'workflows.json'), now, warn);
  /** Jobs running now, by id: a second stream on the same job is refused. */
  const running = new Map<string, WorkflowBulkJob>();

  const startJob = (job: JobRecord, sink: StreamSink<BulkEvent>) => {
    if (running.has(job.id)) {
      throw new BridgeError({ code: 'INVALID_INPUT', message: 'This job is already running.' });
    }
    const bulk = new WorkflowBulkJob(client(job.profileId), store, job, (event) => sink.push(event), now);
    running.set(job.id, bulk);
    void endStreamWithJob(bulk.run(), sink, (error) =>
      logError?.('workflows bulk job failed', error),
    ).finally(() => running.delete(job.id));
    return () => bulk.stop();
  };

  return {
    ...runHandlers(client),
    'workflows.runs.job': jobs.handler('workflows.runs.job', runCancelJobPlan(client)),

    'workflows.dlq.list': async ({ profileId, filters, cursor }) =>
      client(profileId).dlqList(filters, { cursor, count: WORKFLOW_DLQ_PAGE }),
    'workflows.dlq.groups': async ({ profileId, filters }) => {
      const { entries, capped } = await scanDlq(client(profileId), filters);
      return { groups: groupFailures(entries), scanned: entries.length, capped };
    },
    'workflows.dlq.count': async ({ profileId, target }) => {
      if ('dlqIds' in target) return { count: new Set(target.dlqIds).size, capped: false };
      const { entries, capped } = await scanDlq(client(profileId), target.filters);
      return { count: entries.length, capped };
    },
    'workflows.dlq.bulk': async ({ profileId, action, target, overrides, description }, sink) => {
      // The preview count becomes the job's total; for ids it is exact.
      const total =
        'dlqIds' in target
          ? new Set(target.dlqIds).size
          : (await scanDlq(client(profileId), target.filters)).entries.length;
      const job: JobRecord = {
        id: randomUUID(),
        profileId,
        action,
        target: 'dlqIds' in target ? { dlqIds: [...new Set(target.dlqIds)] } : target,
        description,
        overrides: action === 'restart' || action === 'resume' ? overrides : {},
        startedAt: now(),
        status: 'running',
        total,
        processed: 0,
        succeeded: 0,
        failures: [],
        runs: [],
      };
      return startJob(job, sink);
    },

    'workflows.jobs.list': ({ profileId }) => store.jobs(profileId),
    'workflows.jobs.resume': ({ profileId, jobId }, sink) => {
      const job = store.job(profileId, jobId);
      if (!job)
        throw new BridgeError({ code: 'NOT_FOUND', message: `No job ${jobId} in this profile's journal.` });
      if (job.status === 'done') {
        throw new BridgeError({
          code: 'INVALID_INPUT',
          message: 'This job finished: there is nothing left to resume.',
        });
      }
      return startJob(job, sink);
    },
    'workflows.jobs.export': ({ profileId, format }) => {
      const jobs = store.jobs(profileId);
      const stamp = new Date(now()).toISOString().replace(/[:.]/g, '-');
      return format === 'json'
        ? {
            fileName: `workflow-jobs-${profileId}-${stamp}.json`,
            mimeType: 'application/json',
            text: `${JSON.stringify(jobs, null, 2)}\n`,
          }
        : {
            fileName: `workflow-jobs-${profileId}-${stamp}.csv`,
            mimeType: 'text/csv',
            text: journalCsv(jobs),
          };
    },
    'workflows.jobs.clear': ({ profileId }) => ({ removed: store.clearJobs(profileId) }),

    'workflows.views.list': ({ profileId }) => store.views(profileId),
    'workflows.views.save': ({ profileId, name, filters }) => store.saveView(profileId, name, filters),
    'workflows.views.delete': ({ profileId, id }) => ({ deleted: store.deleteView(profileId, id) }),
  };
}
