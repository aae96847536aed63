// The message DLQ: list, inspect, count, retry or delete one entry, and bulk jobs.
import type { dlqProcedures } from '../../../../shared/bridge/procedures/messages/dlq';
import { endStreamWithJob } from '../../bridge/job-stream';
import type { Handlers } from '../../bridge/router';
import type { HandlerDeps } from '../handler-deps';
import { overrideHeaders } from '../../../../shared/messages/overrides';
import { clientsFor } from './client';
import { collectDlqIds, DlqBulkJob } from './dlq-bulk';

type Names = keyof typeof dlqProcedures;

/** The preview counts at most this many entries (about 500 list requests). */
export const COUNT_LIMIT = 50_000;

export function dlqHandlers({ profiles, logError }: HandlerDeps): Pick<Handlers, Names> {
  const api = clientsFor(profiles);
  return {
    'messages.dlq.list': ({ profileId, filters, cursor, count }) =>
      api(profileId).dlq(filters, cursor, count),
    'messages.dlq.get': ({ profileId, dlqId }) => api(profileId).dlqEntry(dlqId),
    'messages.dlq.count': async ({ profileId, filters }) => {
      const { ids, capped } = await collectDlqIds(api(profileId), filters, { limit: COUNT_LIMIT });
      return { count: ids.length, capped };
    },
    'messages.dlq.retry': ({ profileId, dlqId, overrides }) =>
      api(profileId).retryDlq(dlqId, overrideHeaders(overrides)),
    'messages.dlq.delete': async ({ profileId, dlqId }) => {
      await api(profileId).deleteDlq(dlqId);
      return { deleted: dlqId };
    },
    'messages.dlq.bulk': ({ profileId, action, target, overrides }, sink) => {
      const job = new DlqBulkJob(api(profileId), { action, target, overrides }, (event) => sink.push(event));
      void endStreamWithJob(job.run(), sink, (error) => logError?.('messages.dlq.bulk failed', error));
      return () => job.stop();
    },
  };
}
