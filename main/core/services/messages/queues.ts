// Queues: list with lag, create or update, pause and resume, delete. The service answers nothing to a
// change; the handlers read the queue back so the UI shows what is stored.
import type { queueProcedures } from '../../../../shared/bridge/procedures/messages/queues';
import type { Handlers } from '../../bridge/router';
import type { HandlerDeps } from '../handler-deps';
import { clientsFor } from './client';

type Names = keyof typeof queueProcedures;

export function queueHandlers({ profiles }: HandlerDeps): Pick<Handlers, Names> {
  const client = clientsFor(profiles);
  return {
    'messages.queues.list': ({ profileId }) => client(profileId).queues(),
    'messages.queues.upsert': async ({ profileId, name, parallelism, paused }) => {
      const messages = client(profileId);
      await messages.upsertQueue({ name, parallelism, paused });
      return messages.queue(name);
    },
    'messages.queues.setPaused': async ({ profileId, name, paused }) => {
      const messages = client(profileId);
      await messages.setQueuePaused(name, paused);
      return messages.queue(name);
    },
    'messages.queues.delete': async ({ profileId, name }) => {
      await client(profileId).deleteQueue(name);
      return { deleted: name };
    },
  };
}
