// The message DLQ's job plan: retry (with the overrides the start carries) or delete many entries. The
// runner lists the entries and runs the chunks; this says how: the DLQ list page by page, then one bulk
// request per chunk. A bulk retry that meets a missing entry (404) retries that chunk one entry at a time,
// so each one gets its own outcome; a bulk delete only counts, so the missing ones are "already gone".
import { BridgeError } from '../../../../shared/bridge/errors';
import { JOB_CHUNK } from '../../../../shared/bridge/job';
import { DLQ_PAGE } from '../../../../shared/bridge/procedures/messages/dlq';
import type { ParsedInputOf, ParsedStartOf } from '../../../../shared/bridge/procedures';
import { overrideHeaders } from '../../../../shared/messages/overrides';
import { type ChunkContext, type ChunkOutcome, type JobPlan, oneByOne } from '../../jobs/plan';
import type { MessageClient } from './client';

type Input = ParsedInputOf<'messages.dlq.job'>;
type Start = ParsedStartOf<'messages.dlq.job'>;

export function dlqJobPlan(client: (profileId: string) => MessageClient): JobPlan<Input, Start> {
  return {
    service: 'messages',
    noun: ['DLQ entry', 'DLQ entries'],
    action: (input) => input.action,
    chunk: () => JOB_CHUNK,
    scan: async ({ profileId, target }, cursor, signal) => {
      const filters = 'filters' in target ? target.filters : {};
      const page = await client(profileId).listDlq(filters, cursor, DLQ_PAGE, signal);
      return { items: page.messages.map((message) => message.dlqId), cursor: page.cursor };
    },
    act: (chunk, { profileId, action }, { overrides }, context) =>
      action === 'retry'
        ? retry(client(profileId), chunk, overrideHeaders(overrides), context)
        : remove(client(profileId), chunk),
  };
}

async function retry(
  api: MessageClient,
  chunk: readonly string[],
  headers: Record<string, string>,
  context: ChunkContext,
): Promise<ChunkOutcome> {
  try {
    const messageIds = await api.retryDlqMany([...chunk], headers);
    return {
      succeeded: chunk.length,
      created: chunk.map((dlqId, index) => ({ id: messageIds[index]!, from: dlqId })),
    };
  } catch (error) {
    if (!(error instanceof BridgeError) || error.status !== 404 || chunk.length === 1) throw error;
  }
  // Some entries are gone (retried or deleted elsewhere, or expired): the rest one at a time.
  return oneByOne(chunk, context, async (dlqId) => {
    const { messageId } = await api.retryDlq(dlqId, headers);
    return { succeeded: 1, created: [{ id: messageId, from: dlqId }] };
  });
}

async function remove(api: MessageClient, chunk: readonly string[]): Promise<ChunkOutcome> {
  const deleted = await api.deleteDlqMany([...chunk]);
  // The service only counts; it does not say which ids were already gone.
  return { succeeded: deleted, skipped: chunk.length - deleted };
}
