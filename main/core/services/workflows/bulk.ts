// A bulk job over the workflow DLQ — restart, resume, delete, or retry the failure function — run in main
// in chunks, with progress after each chunk and the journal updated after each chunk (so a job cut short
// by a console exit resumes from its cursor):
// - id targets (a triage group, a hand selection): chunks of DLQ_ACTION_CHUNK ids; the cursor is the
//   index of the next id.
// - filter targets: the service's own filter mode, `count` per request, following its cursor (never an
//   empty filter: the bridge schema and the client both refuse one).
// stop() takes effect before the next request; a request already sent completes.
import { BridgeError } from '../../../../shared/bridge/errors';
import type { BulkEvent, BulkFailure, BulkSummary } from '../../../../shared/bridge/procedures/workflows/dlq';
import type { JobRecord } from '../../../../shared/bridge/procedures/workflows/jobs';
import { DLQ_ACTION_CHUNK, type RestartedRun } from '../../../../shared/workflows/types';
import type { WorkflowClient } from './client';

/** Consecutive failed requests after which the job gives up (service down, token revoked…). */
export const MAX_FAILED_IN_A_ROW = 3;

export interface JobJournal {
  putJob(job: JobRecord): void;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class WorkflowBulkJob {
  private stopped = false;

  constructor(
    private readonly client: WorkflowClient,
    private readonly journal: JobJournal,
    /** The journal entry; the job updates it in place and writes it after each chunk. */
    private readonly job: JobRecord,
    private readonly emit: (event: BulkEvent) => void,
    private readonly now: () => number = Date.now,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  async run(): Promise<BulkSummary> {
    const job = this.job;
    job.status = 'running';
    delete job.error;
    delete job.finishedAt;
    this.journal.putJob(job);
    this.emit({ type: 'started', jobId: job.id, total: job.total });
    this.progress();
    try {
      if ('dlqIds' in job.target) await this.runIds(job.target.dlqIds);
      else await this.runFilters();
      // runIds / runFilters set 'failed' themselves when they give up.
      const status = job.status as JobRecord['status'];
      job.status = status === 'failed' ? 'failed' : this.stopped ? 'cancelled' : 'done';
    } catch (error) {
      job.status = 'failed';
      job.error = messageOf(error);
      throw error;
    } finally {
      job.finishedAt = this.now();
      this.journal.putJob(job);
    }
    return this.summary();
  }

  summary(): BulkSummary {
    const job = this.job;
    return {
      jobId: job.id,
      action: job.action,
      total: job.total,
      succeeded: job.succeeded,
      failures: job.failures,
      runs: job.runs,
      cancelled: job.status === 'cancelled',
    };
  }

  private progress(): void {
    const job = this.job;
    this.emit({
      type: 'progress',
      total: Math.max(job.total, job.processed),
      processed: job.processed,
      succeeded: job.succeeded,
      failed: job.failures.length,
    });
  }

  /** After each request: remember where to continue, tell the journal and the renderer. */
  private checkpoint(cursor: string | undefined): void {
    if (cursor === undefined) delete this.job.cursor;
    else this.job.cursor = cursor;
    this.journal.putJob(this.job);
    this.progress();
  }

  private async runIds(ids: readonly string[]): Promise<void> {
    const job = this.job;
    const start = Math.max(0, Number(job.cursor ?? 0) || 0);
    let failedInARow = 0;
    for (let index = start; index < ids.length; index += DLQ_ACTION_CHUNK) {
      if (this.stopped) return;
      const chunk = ids.slice(index, index + DLQ_ACTION_CHUNK);
      const ok = await this.idChunk(chunk);
      job.processed += chunk.length;
      failedInARow = ok ? 0 : failedInARow + 1;
      const next = index + chunk.length;
      this.checkpoint(next < ids.length ? String(next) : undefined);
      if (failedInARow >= MAX_FAILED_IN_A_ROW && next < ids.length) {
        job.status = 'failed';
        job.error = `stopped after ${MAX_FAILED_IN_A_ROW} failed requests in a row; resume continues at entry ${next + 1}`;
        return;
      }
    }
  }

  /** One chunk of ids; a 404 (some entries gone) falls back to one request per id. */
  private async idChunk(chunk: string[]): Promise<boolean> {
    const { action } = this.job;
    if (action === 'callback') {
      let anyOk = false;
      for (const dlqId of chunk) {
        if (await this.one(dlqId)) anyOk = true;
      }
      return anyOk;
    }
    try {
      await this.send({ dlqIds: chunk }, chunk.length);
      return true;
    } catch (error) {
      if (!(error instanceof BridgeError) || error.status !== 404 || chunk.length === 1) {
        this.fail(chunk, error);
        return false;
      }
    }
    let anyOk = false;
    for (const dlqId of chunk) {
      if (this.stopped) {
        this.job.failures.push({ dlqId, message: 'not attempted: the job was cancelled' });
        continue;
      }
      if (await this.one(dlqId)) anyOk = true;
    }
    return anyOk;
  }

  private async one(dlqId: string): Promise<boolean> {
    try {
      if (this.job.action === 'callback') {
        const result = await this.client.dlqRetryCallback(dlqId);
        if (result.error) {
          this.job.failures.push({ dlqId, message: result.error });
          return true;
        }
        this.job.runs.push({
          workflowRunId: result.workflowRunId,
          workflowCreatedAt: result.workflowCreatedAt,
        });
        this.job.succeeded += 1;
      } else {
        await this.send({ dlqIds: [dlqId] }, 1);
      }
      return true;
    } catch (error) {
      this.fail([dlqId], error);
      return false;
    }
  }

  /** Sends one restart / resume / delete request and counts what it did; returns the service's cursor. */
  private async send(
    target: Parameters<WorkflowClient['dlqDelete']>[0],
    expected: number,
  ): Promise<{ done: number; cursor?: string }> {
    const { action, overrides } = this.job;
    if (action === 'delete') {
      const result = await this.client.dlqDelete(target);
      const done = 'dlqIds' in target ? Math.min(expected, result.deleted) : result.deleted;
      this.job.succeeded += done;
      if ('dlqIds' in target && done < expected) {
        this.job.failures.push({
          message: `${expected - done} of ${expected} entries were already gone (restarted, deleted or expired)`,
        });
      }
      return { done, cursor: result.cursor };
    }
    if (action === 'callback') throw new Error('callback is sent one entry at a time');
    const result = await this.client.dlqRestartOrResume(action, target, overrides);
    this.addRuns(result.workflowRuns);
    return { done: result.workflowRuns.length, cursor: result.cursor };
  }

  private addRuns(runs: RestartedRun[]): void {
    this.job.runs.push(...runs);
    this.job.succeeded += runs.length;
  }

  private fail(ids: string[], error: unknown): void {
    const message = messageOf(error);
    this.job.failures.push(...ids.map((dlqId): BulkFailure => ({ dlqId, message })));
  }

  private async runFilters(): Promise<void> {
    const job = this.job;
    if (!('filters' in job.target)) return;
    const filters = job.target.filters;
    if (job.action === 'callback') return this.runCallbackByFilter();
    let failedInARow = 0;
    let cursor = job.cursor;
    for (;;) {
      if (this.stopped) return;
      try {
        const { done, cursor: next } = await this.send(
          { filters, cursor, count: DLQ_ACTION_CHUNK },
          DLQ_ACTION_CHUNK,
        );
        failedInARow = 0;
        job.processed += done;
        // The end: no cursor, or one that does not move, or a request that touched nothing.
        const finished = !next || next === cursor || done === 0;
        cursor = finished ? undefined : next;
        this.checkpoint(cursor);
        if (finished) return;
      } catch (error) {
        failedInARow += 1;
        job.failures.push({ message: messageOf(error) });
        this.checkpoint(cursor);
        if (failedInARow >= MAX_FAILED_IN_A_ROW) {
          job.status = 'failed';
          job.error = `stopped after ${MAX_FAILED_IN_A_ROW} failed requests in a row; resume continues from the last cursor`;
          return;
        }
      }
    }
  }

  /** The failure callback is retried one entry at a time: list the matches page by page and retry each. */
  private async runCallbackByFilter(): Promise<void> {
    const job = this.job;
    if (!('filters' in job.target)) return;
    let cursor = job.cursor;
    for (;;) {
      if (this.stopped) return;
      const page = await this.client.dlqList(job.target.filters, { cursor, count: DLQ_ACTION_CHUNK });
      for (const entry of page.messages) {
        await this.one(entry.dlqId);
        job.processed += 1;
      }
      const finished = !page.cursor || page.cursor === cursor || page.messages.length === 0;
      cursor = finished ? undefined : page.cursor;
      this.checkpoint(cursor);
      if (finished) return;
    }
  }
}
