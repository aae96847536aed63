// URL groups: list, inspect, add and remove endpoints, default headers, delete. Mutations answer the
// group as it is afterwards, read back from the service.
import { BridgeError } from '../../../../shared/bridge/errors';
import type { urlGroupProcedures } from '../../../../shared/bridge/procedures/messages/url-groups';
import type { Handlers } from '../../bridge/router';
import type { HandlerDeps } from '../handler-deps';
import { clientsFor } from './client';

type Names = keyof typeof urlGroupProcedures;

export function urlGroupHandlers({ profiles }: HandlerDeps): Pick<Handlers, Names> {
  const client = clientsFor(profiles);
  return {
    'messages.urlGroups.list': ({ profileId }) => client(profileId).urlGroups(),
    'messages.urlGroups.get': ({ profileId, name }) => client(profileId).urlGroup(name),
    'messages.urlGroups.addEndpoints': async ({ profileId, name, endpoints }) => {
      const messages = client(profileId);
      await messages.addEndpoints(name, endpoints);
      return messages.urlGroup(name);
    },
    'messages.urlGroups.removeEndpoints': async ({ profileId, name, endpoints }) => {
      const messages = client(profileId);
      await messages.removeEndpoints(name, endpoints);
      // Removing the last endpoint deletes the group at the service.
      try {
        return { group: await messages.urlGroup(name) };
      } catch (error) {
        if (error instanceof BridgeError && error.status === 404) return { group: null };
        throw error;
      }
    },
    'messages.urlGroups.delete': async ({ profileId, name }) => {
      await client(profileId).deleteUrlGroup(name);
      return { deleted: name };
    },
    'messages.urlGroups.setHeaders': async ({ profileId, name, headers }) => {
      const messages = client(profileId);
      await messages.setUrlGroupHeaders(name, headers);
      return messages.urlGroup(name);
    },
  };
}
