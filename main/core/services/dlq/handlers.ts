// The message DLQ over `/v2/dlq…`: list, inspect, count, retry or delete one entry, and bulk jobs.
import { BridgeError } from '../../../../shared/bridge/errors';
import type { DlqPage, dlqProcedures } from '../../../../shared/bridge/procedures/messages/dlq';
import type { DLQListResponse, DLQMessage } from '../../../../shared/messages/types';
import type { Handlers } from '../../bridge/router';
import type { ProfilesService } from '../../profiles/profiles-service';
import { filtersToQuery } from '../filters/query';
import { MessageApi } from '../message-api';
import { collectDlqIds, DlqBulkJob } from './bulk';
import { overrideHeaders } from '../../../../shared/messages/overrides';

type Names = keyof typeof dlqProcedures;

/** The preview counts at most this many entries (about 500 list requests). */
export const COUNT_LIMIT = 50_000;

const entryPath = (dlqId: string) => `/v2/dlq/${encodeURIComponent(dlqId)}`;

export function dlqHandlers({
  profiles,
  logError,
}: {
  profiles: Pick<ProfilesService, 'resolve'>;
  logError?: (message: string, error: unknown) => void;
}): Pick<Handlers, Names> {
  const api = (profileId: string) => new MessageApi(profiles.resolve(profileId));
  return {
    'messages.dlq.list': async ({ profileId, filters, cursor, count }) => {
      const { body } = await api(profileId).json<DLQListResponse | null>({
        path: '/v2/dlq',
        query: { ...filtersToQuery(filters), cursor, count },
      });
      const page: DlqPage = { messages: body?.messages ?? [] };
      if (body?.cursor) page.cursor = String(body.cursor);
      return page;
    },
    'messages.dlq.get': async ({ profileId, dlqId }) =>
      (await api(profileId).json<DLQMessage>({ path: entryPath(dlqId) })).body,
    'messages.dlq.count': async ({ profileId, filters }) => {
      const { ids, capped } = await collectDlqIds(api(profileId), filters, { limit: COUNT_LIMIT });
      return { count: ids.length, capped };
    },
    'messages.dlq.retry': async ({ profileId, dlqId, overrides }) => {
      const { body } = await api(profileId).json<{ messageId: string }>({
        method: 'POST',
        path: `/v2/dlq/retry/${encodeURIComponent(dlqId)}`,
        headers: overrideHeaders(overrides),
      });
      return { messageId: body.messageId };
    },
    'messages.dlq.delete': async ({ profileId, dlqId }) => {
      await api(profileId).request({ method: 'DELETE', path: entryPath(dlqId) });
      return { deleted: dlqId };
    },
    'messages.dlq.bulk': ({ profileId, action, target, overrides }, sink) => {
      const job = new DlqBulkJob(api(profileId), { action, target, overrides }, (event) => sink.push(event));
      job
        .run()
        .then((summary) => {
          sink.push({ type: 'done', summary });
          sink.end();
        })
        .catch((error: unknown) => {
          if (error instanceof BridgeError) sink.end(error.toData());
          else {
            logError?.('messages.dlq.bulk failed', error);
            sink.end({
              code: 'INTERNAL',
              message: 'The bulk job hit an unexpected error. Details are in the console log.',
            });
          }
        });
      return () => job.stop();
    },
  };
}
