// A bulk retry or delete over DLQ entries. The targets are fixed when the job starts (the listed ids, or
// every entry the filters match then), so the preview count is what the job touches and new failures
// arriving meanwhile are left alone. Then one request per chunk of at most 100 ids (the API maximum),
// a progress event after each, and a summary listing every failure with the service's own text.
// stop() takes effect before the next request: a chunk already sent completes.
import { BridgeError } from '../../../../shared/bridge/errors';
import {
  DLQ_CHUNK,
  type DlqBulkEvent,
  type DlqBulkFailure,
  type DlqBulkSummary,
  type DlqTarget,
} from '../../../../shared/bridge/procedures/messages/dlq';
import { overrideHeaders, type RetryOverrides } from '../../../../shared/messages/overrides';
import type { MessageClient } from './client';

/** Consecutive failed requests after which the job gives up (the service is down, the token revoked…). */
const MAX_FAILED_IN_A_ROW = 3;

export interface DlqBulkInput {
  action: 'retry' | 'delete';
  target: DlqTarget;
  overrides?: RetryOverrides;
}

/** Every dlqId the filters match now, page by page (`onPage` gets the running count). */
export async function collectDlqIds(
  api: MessageClient,
  filters: Record<string, unknown>,
  options: { limit?: number; isStopped?: () => boolean; onPage?: (found: number) => void } = {},
): Promise<{ ids: string[]; capped: boolean }> {
  const ids: string[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  do {
    if (options.isStopped?.()) break;
    const page = await api.dlq(filters as never, cursor, DLQ_CHUNK);
    for (const message of page.messages) {
      if (seen.has(message.dlqId)) continue;
      seen.add(message.dlqId);
      ids.push(message.dlqId);
    }
    options.onPage?.(ids.length);
    if (ids.length >= limit) return { ids: ids.slice(0, limit), capped: true };
    // A cursor that does not move would loop forever; treat it as the end.
    const next = page.cursor;
    cursor = next && next !== cursor ? next : undefined;
  } while (cursor);
  return { ids, capped: false };
}

export class DlqBulkJob {
  private stopped = false;

  constructor(
    private readonly api: MessageClient,
    private readonly input: DlqBulkInput,
    private readonly emit: (event: DlqBulkEvent) => void,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  async run(): Promise<DlqBulkSummary> {
    const { action, target } = this.input;
    const ids =
      'dlqIds' in target
        ? [...new Set(target.dlqIds)]
        : (
            await collectDlqIds(this.api, target.filters ?? {}, {
              isStopped: () => this.stopped,
              onPage: (found) => this.emit({ type: 'collecting', found }),
            })
          ).ids;
    const summary: DlqBulkSummary = {
      action,
      total: ids.length,
      succeeded: 0,
      failures: [],
      notFound: 0,
      retried: [],
    };
    const progress = (processed: number) =>
      this.emit({
        type: 'progress',
        total: ids.length,
        processed,
        succeeded: summary.succeeded,
        failed: summary.failures.length,
      });
    progress(0);
    let failedInARow = 0;
    let processed = 0;
    for (let start = 0; start < ids.length; start += DLQ_CHUNK) {
      if (this.stopped) break;
      const chunk = ids.slice(start, start + DLQ_CHUNK);
      const ok =
        action === 'retry' ? await this.retryChunk(chunk, summary) : await this.deleteChunk(chunk, summary);
      failedInARow = ok ? 0 : failedInARow + 1;
      processed += chunk.length;
      progress(processed);
      if (failedInARow >= MAX_FAILED_IN_A_ROW && processed < ids.length) {
        const rest = ids.slice(processed);
        summary.failures.push(
          ...rest.map((dlqId) => ({
            dlqId,
            message: `not attempted: the last ${MAX_FAILED_IN_A_ROW} requests failed, so the job stopped`,
          })),
        );
        progress(ids.length);
        break;
      }
    }
    return summary;
  }

  /** One bulk retry request; when the service reports missing entries, retries the chunk one by one. */
  private async retryChunk(chunk: string[], summary: DlqBulkSummary): Promise<boolean> {
    const headers = overrideHeaders(this.input.overrides);
    try {
      const messageIds = await this.api.retryDlqMany(chunk, headers);
      chunk.forEach((dlqId, index) => summary.retried.push({ dlqId, messageId: messageIds[index]! }));
      summary.succeeded += chunk.length;
      return true;
    } catch (error) {
      if (!(error instanceof BridgeError) || error.status !== 404) {
        summary.failures.push(...failAll(chunk, error));
        return false;
      }
    }
    // Some ids are gone (retried or deleted elsewhere, or expired): do the rest one at a time.
    for (const dlqId of chunk) {
      if (this.stopped) {
        summary.failures.push({ dlqId, message: 'not attempted: the job was cancelled' });
        continue;
      }
      try {
        const { messageId } = await this.api.retryDlq(dlqId, headers);
        summary.retried.push({ dlqId, messageId });
        summary.succeeded += 1;
      } catch (error) {
        summary.failures.push(...failAll([dlqId], error));
      }
    }
    return true;
  }

  private async deleteChunk(chunk: string[], summary: DlqBulkSummary): Promise<boolean> {
    try {
      const deleted = await this.api.deleteDlqMany(chunk);
      summary.succeeded += deleted;
      // The service only counts; it does not say which ids were already gone.
      summary.notFound += chunk.length - deleted;
      return true;
    } catch (error) {
      summary.failures.push(...failAll(chunk, error));
      return false;
    }
  }
}

function failAll(ids: string[], error: unknown): DlqBulkFailure[] {
  const message = error instanceof Error ? error.message : String(error);
  return ids.map((dlqId) => ({ dlqId, message }));
}
