// Message logs over `GET /v2/logs` and cancelling messages. Each page is normalised for the UI: one state
// spelling (`CANCELLED`; the SDKs say `CANCELED`), one response-header field, and `events` whichever key
// the service used (`events` in the SDKs and the local stack, `logs` in the current OpenAPI).
import type { LogsPage, logProcedures } from '../../../../shared/bridge/procedures/messages/logs';
import type { LogEntry, LogsResponse } from '../../../../shared/messages/types';
import type { Handlers } from '../../bridge/router';
import type { ProfilesService } from '../../profiles/profiles-service';
import { filtersToQuery } from '../filters/query';
import { MessageApi } from '../message-api';
import { cancelMessages } from './cancel';

type Names = keyof typeof logProcedures;

export function normalizeLogEntry(entry: LogEntry): LogEntry {
  const out: LogEntry = { ...entry };
  if ((out.state as string) === 'CANCELED') out.state = 'CANCELLED';
  out.responseHeader ??= out.responseHeaders;
  delete out.responseHeaders;
  out.retryDelayExpression ??= out.retryDelayExpr;
  delete out.retryDelayExpr;
  return out;
}

export function logHandlers({
  profiles,
}: {
  profiles: Pick<ProfilesService, 'resolve'>;
}): Pick<Handlers, Names> {
  const api = (profileId: string) => new MessageApi(profiles.resolve(profileId));
  return {
    'messages.logs.list': async ({ profileId, filters, cursor, count }) => {
      const { body } = await api(profileId).json<Partial<LogsResponse> | null>({
        path: '/v2/logs',
        query: { ...filtersToQuery(filters), cursor, count },
      });
      const events = body?.events ?? body?.logs ?? [];
      const page: LogsPage = { events: events.map(normalizeLogEntry) };
      if (body?.cursor) page.cursor = String(body.cursor);
      return page;
    },
    'messages.logs.cancel': ({ profileId, target }) => cancelMessages(api(profileId), target),
  };
}
