// Queues over `/v2/queues…`. Upsert, pause and resume answer nothing at the service; the handlers read
// the queue back so the UI shows what is stored.
import type { queueProcedures } from '../../../../shared/bridge/procedures/messages/queues';
import type { Queue } from '../../../../shared/messages/types';
import type { Handlers } from '../../bridge/router';
import type { ProfilesService } from '../../profiles/profiles-service';
import { MessageApi } from '../message-api';

type Names = keyof typeof queueProcedures;

const queuePath = (name: string, suffix = '') => `/v2/queues/${encodeURIComponent(name)}${suffix}`;

export function queueHandlers({
  profiles,
}: {
  profiles: Pick<ProfilesService, 'resolve'>;
}): Pick<Handlers, Names> {
  const api = (profileId: string) => new MessageApi(profiles.resolve(profileId));
  const get = async (messages: MessageApi, name: string) =>
    (await messages.json<Queue>({ path: queuePath(name) })).body;

  return {
    'messages.queues.list': async ({ profileId }) => {
      const { body } = await api(profileId).json<Queue[] | null>({ path: '/v2/queues' });
      return body ?? [];
    },
    'messages.queues.upsert': async ({ profileId, name, parallelism, paused }) => {
      const messages = api(profileId);
      await messages.request({
        method: 'POST',
        path: '/v2/queues',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ queueName: name, parallelism, paused }),
      });
      return get(messages, name);
    },
    'messages.queues.setPaused': async ({ profileId, name, paused }) => {
      const messages = api(profileId);
      await messages.request({ method: 'POST', path: queuePath(name, paused ? '/pause' : '/resume') });
      return get(messages, name);
    },
    'messages.queues.delete': async ({ profileId, name }) => {
      await api(profileId).request({ method: 'DELETE', path: queuePath(name) });
      return { deleted: name };
    },
  };
}
