// The message DLQ's job plan: retry (with the overrides the start carries) or delete many entries. The
// runner lists the entries and runs the chunks; this says how: the DLQ list page by page, then one bulk
// request per chunk. A bulk retry that meets a missing entry (404) retries that chunk one entry at a time,
// so each one gets its own outcome; a bulk delete only counts, so the missing ones are "already gone".
import { DLQ_PAGE } from '../../../../shared/bridge/procedures/messages/dlq';
import type { ParsedInputOf, ParsedStartOf } from '../../../../shared/bridge/procedures';
import { overrideHeaders } from '../../../../shared/messages/overrides';
import {
  bulkOrOneByOne,
  type ChunkContext,
  type ChunkOutcome,
  countedOutcome,
  filtersOf,
  type JobPlan,
} from '../../jobs/plan';
import type { MessageClient } from './client';

type Input = ParsedInputOf<'messages.dlq.job'>;
type Start = ParsedStartOf<'messages.dlq.job'>;

export function dlqJobPlan(client: (profileId: string) => MessageClient): JobPlan<Input, Start> {
  return {
    service: 'messages',
    noun: ['DLQ entry', 'DLQ entries'],
    action: (input) => input.action,
    scan: async ({ profileId, target }, cursor, signal) => {
      const page = await client(profileId).listDlq(filtersOf(target), cursor, DLQ_PAGE, signal);
      return { items: page.messages.map((message) => message.dlqId), cursor: page.cursor };
    },
    act: (chunk, { profileId, action }, { overrides }, context) =>
      action === 'retry'
        ? retry(client(profileId), chunk, overrideHeaders(overrides), context)
        : remove(client(profileId), chunk),
  };
}

function retry(
  api: MessageClient,
  chunk: readonly string[],
  headers: Record<string, string>,
  context: ChunkContext,
): Promise<ChunkOutcome> {
  return bulkOrOneByOne(
    chunk,
    context,
    async (dlqIds) => {
      const messageIds = await api.retryDlqMany([...dlqIds], headers);
      return {
        succeeded: dlqIds.length,
        created: dlqIds.map((dlqId, index) => ({ id: messageIds[index]!, from: dlqId })),
      };
    },
    // Some entries are gone (retried or deleted elsewhere, or expired): the rest one at a time.
    async (dlqId) => {
      const { messageId } = await api.retryDlq(dlqId, headers);
      return { succeeded: 1, created: [{ id: messageId, from: dlqId }] };
    },
  );
}

async function remove(api: MessageClient, chunk: readonly string[]): Promise<ChunkOutcome> {
  // The service only counts; it does not say which ids were already gone.
  return countedOutcome(chunk, await api.deleteDlqMany([...chunk]));
}
