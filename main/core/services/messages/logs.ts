// Message logs: one page of events, newest first, with a cursor; and cancelling messages as a job on the
// one runner (cancel-job.ts) — never with an empty request (the client refuses it where it is built).
import type { logProcedures } from '../../../../shared/bridge/procedures/messages/logs';
import type { Handlers } from '../../bridge/router';
import type { JobHandlerDeps } from '../handler-deps';
import { cancelJobPlan } from './cancel-job';
import { clientsFor } from './client';

type Names = keyof typeof logProcedures;

export function logHandlers({ profiles, jobs }: JobHandlerDeps): Pick<Handlers, Names> {
  const client = clientsFor(profiles);
  return {
    'messages.logs.list': ({ profileId, filters, cursor, count }) =>
      client(profileId).logs(filters, cursor, count),
    'messages.logs.job': jobs.handler('messages.logs.job', cancelJobPlan(client)),
  };
}
