// The job plan of cancelling messages. The service keeps no list of pending messages, so the listing reads
// the logs (newest first, with the job's filters) page by page: a message's first event met is its latest,
// and the message is listed when that state is still pending (created, active, retrying, in error) — the
// same messages the service's own filtered cancel would take. Finished messages and ones whose cancel is
// already requested are not listed. Each chunk is one `DELETE /v2/messages` with the chunk's ids; a message
// that finished meanwhile is not cancelled, and the service counts only what it cancelled, so the rest are
// "already gone".
//
// The logs' date filters are on event times, the service's cancel filters on creation times: a listing by
// dates takes the messages with events in the range (the job still cancels exactly the ones it listed).
import { LOGS_MAX_COUNT } from '../../../../shared/bridge/procedures/messages/logs';
import type { ParsedInputOf } from '../../../../shared/bridge/procedures';
import type { MessageState } from '../../../../shared/messages/types';
import { countedOutcome, filtersOf, type JobPlan } from '../../jobs/plan';
import type { MessageClient } from './client';

type Input = ParsedInputOf<'messages.logs.job'>;

/** Latest states of a message the service's cancel still takes. */
export const CANCELLABLE_STATES: ReadonlySet<MessageState> = new Set(['CREATED', 'ACTIVE', 'RETRY', 'ERROR']);

export function cancelJobPlan(
  client: (profileId: string) => MessageClient,
  /** Events per logs request (the service's maximum; tests make it small to cross pages). */
  pageSize = LOGS_MAX_COUNT,
): JobPlan<Input> {
  // The messages a listing has met, by job input: a message's older events on later pages must not list
  // a message already found finished. A listing starts afresh on its first page.
  const met = new WeakMap<Input, Set<string>>();
  return {
    service: 'messages',
    noun: ['pending message', 'pending messages'],
    action: () => 'cancel',
    scan: async (input, cursor, signal) => {
      const { profileId, target } = input;
      if (cursor === undefined || !met.has(input)) met.set(input, new Set());
      const seen = met.get(input)!;
      const page = await client(profileId).logs(filtersOf(target), cursor, pageSize, signal);
      const items: string[] = [];
      for (const event of page.events) {
        if (seen.has(event.messageId)) continue;
        seen.add(event.messageId);
        if (CANCELLABLE_STATES.has(event.state)) items.push(event.messageId);
      }
      return { items, cursor: page.cursor };
    },
    act: async (chunk, { profileId }) => {
      return countedOutcome(chunk, await client(profileId).cancelMany(chunk));
    },
  };
}
