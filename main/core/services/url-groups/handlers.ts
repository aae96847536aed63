// URL groups over `/v2/topics…`. There is no "create group" call in the service: adding endpoints to a
// missing group creates it. Mutations answer the group as it is afterwards, read back from the service.
import { BridgeError } from '../../../../shared/bridge/errors';
import type { urlGroupProcedures } from '../../../../shared/bridge/procedures/messages/url-groups';
import type { UrlGroup } from '../../../../shared/messages/types';
import type { Handlers } from '../../bridge/router';
import type { ProfilesService } from '../../profiles/profiles-service';
import { MessageApi } from '../message-api';

type Names = keyof typeof urlGroupProcedures;

const JSON_HEADERS = { 'content-type': 'application/json' };

function topicPath(name: string, suffix = ''): string {
  return `/v2/topics/${encodeURIComponent(name)}${suffix}`;
}

export function urlGroupHandlers({
  profiles,
}: {
  profiles: Pick<ProfilesService, 'resolve'>;
}): Pick<Handlers, Names> {
  const api = (profileId: string) => new MessageApi(profiles.resolve(profileId));

  const get = async (messages: MessageApi, name: string): Promise<UrlGroup> => {
    const { body } = await messages.json<UrlGroup>({ path: topicPath(name) });
    return normalizeGroup(body);
  };

  return {
    'messages.urlGroups.list': async ({ profileId }) => {
      const { body } = await api(profileId).json<UrlGroup[] | null>({ path: '/v2/topics' });
      return (body ?? []).map(normalizeGroup);
    },
    'messages.urlGroups.get': ({ profileId, name }) => get(api(profileId), name),
    'messages.urlGroups.addEndpoints': async ({ profileId, name, endpoints }) => {
      const messages = api(profileId);
      await messages.request({
        method: 'POST',
        path: topicPath(name, '/endpoints'),
        headers: JSON_HEADERS,
        body: JSON.stringify({
          endpoints: endpoints.map((endpoint) => (endpoint.name ? endpoint : { url: endpoint.url })),
        }),
      });
      return get(messages, name);
    },
    'messages.urlGroups.removeEndpoints': async ({ profileId, name, endpoints }) => {
      const messages = api(profileId);
      await messages.request({
        method: 'DELETE',
        path: topicPath(name, '/endpoints'),
        headers: JSON_HEADERS,
        body: JSON.stringify({ endpoints }),
      });
      // Removing the last endpoint deletes the group at the service.
      try {
        return { group: await get(messages, name) };
      } catch (error) {
        if (error instanceof BridgeError && error.status === 404) return { group: null };
        throw error;
      }
    },
    'messages.urlGroups.delete': async ({ profileId, name }) => {
      await api(profileId).request({ method: 'DELETE', path: topicPath(name) });
      return { deleted: name };
    },
    'messages.urlGroups.setHeaders': async ({ profileId, name, headers }) => {
      const messages = api(profileId);
      await messages.request({
        method: 'PATCH',
        path: topicPath(name),
        headers: JSON_HEADERS,
        body: JSON.stringify({ headers }),
      });
      return get(messages, name);
    },
  };
}

/** The cloud may leave out empty fields; the UI always gets a list of endpoints. */
function normalizeGroup(group: UrlGroup): UrlGroup {
  return { ...group, endpoints: group.endpoints ?? [] };
}
