// Message logs: one page of events, newest first, with a cursor; and cancelling messages, one, many or by
// filter — never with an empty request (the client refuses it where the request is built).
import type { logProcedures } from '../../../../shared/bridge/procedures/messages/logs';
import type { Handlers } from '../../bridge/router';
import type { HandlerDeps } from '../handler-deps';
import { clientsFor } from './client';

type Names = keyof typeof logProcedures;

export function logHandlers({ profiles }: HandlerDeps): Pick<Handlers, Names> {
  const client = clientsFor(profiles);
  return {
    'messages.logs.list': ({ profileId, filters, cursor, count }) =>
      client(profileId).logs(filters, cursor, count),
    'messages.logs.cancel': ({ profileId, target }) => client(profileId).cancel(target),
  };
}
