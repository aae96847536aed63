// The message DLQ: list, inspect, retry or delete one entry, and the job over many (dlq-job.ts).
import type { dlqProcedures } from '../../../../shared/bridge/procedures/messages/dlq';
import type { Handlers } from '../../bridge/router';
import type { JobHandlerDeps } from '../handler-deps';
import { overrideHeaders } from '../../../../shared/messages/overrides';
import { clientsFor } from './client';
import { dlqJobPlan } from './dlq-job';

type Names = keyof typeof dlqProcedures;

export function dlqHandlers({ profiles, jobs }: JobHandlerDeps): Pick<Handlers, Names> {
  const api = clientsFor(profiles);
  return {
    'messages.dlq.list': ({ profileId, filters, cursor, count }) =>
      api(profileId).listDlq(filters, cursor, count),
    'messages.dlq.get': ({ profileId, dlqId }) => api(profileId).getDlqEntry(dlqId),
    'messages.dlq.retry': ({ profileId, dlqId, overrides }) =>
      api(profileId).retryDlq(dlqId, overrideHeaders(overrides)),
    'messages.dlq.delete': async ({ profileId, dlqId }) => {
      await api(profileId).deleteDlq(dlqId);
      return { deleted: dlqId };
    },
    'messages.dlq.job': jobs.handler('messages.dlq.job', dlqJobPlan(api)),
  };
}
