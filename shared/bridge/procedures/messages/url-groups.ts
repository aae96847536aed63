// URL groups (the service's "topics"): list, inspect, add and remove endpoints, default headers, delete.
import { z } from 'zod';
import { isValidHeaderName } from '../../../headers';
import { headerValueSchema } from '../../../messages/overrides';
import { isHttpUrl } from '../../../urls';
import type { UrlGroup } from '../../../messages/types';
import { call } from '../../define';
import { profileIdSchema as profileId } from '../../profile-id';
import { resourceNameSchema } from './names';

export const groupNameSchema = resourceNameSchema('URL group');

const endpointUrl = z.string().trim().max(2000).refine(isHttpUrl, 'must be an http:// or https:// URL');

const endpointName = resourceNameSchema('URL group', 'endpoint');

/** Default headers as the service stores them: canonical name → values. */
export const groupHeadersSchema = z.record(
  z.string().refine(isValidHeaderName, 'not a valid header name'),
  z.array(headerValueSchema).min(1).max(20),
);

export const urlGroupProcedures = {
  'messages.urlGroups.list': call<UrlGroup[]>()(z.object({ profileId }), 'read'),
  'messages.urlGroups.get': call<UrlGroup>()(z.object({ profileId, name: groupNameSchema }), 'read'),
  /** Adds (or updates, by URL) endpoints; creates the group when it does not exist. Answers the group. */
  'messages.urlGroups.addEndpoints': call<UrlGroup>()(
    z.object({
      profileId,
      name: groupNameSchema,
      endpoints: z
        .array(z.object({ url: endpointUrl, name: endpointName.optional() }))
        .min(1, 'add at least one endpoint')
        .max(500),
    }),
    'write',
    { invalidates: ['messages.urlGroups.list', 'messages.urlGroups.get'] },
  ),
  /** Removes endpoints by URL or name. Removing the last one deletes the group (`group` is then null). */
  'messages.urlGroups.removeEndpoints': call<{ group: UrlGroup | null }>()(
    z.object({
      profileId,
      name: groupNameSchema,
      endpoints: z
        .array(
          z
            .object({ url: z.string().trim().min(1).max(2000).optional(), name: endpointName.optional() })
            .refine((endpoint) => endpoint.url || endpoint.name, 'give an endpoint URL or name'),
        )
        .min(1, 'remove at least one endpoint')
        .max(500),
    }),
    'write',
    { invalidates: ['messages.urlGroups.list', 'messages.urlGroups.get'] },
  ),
  'messages.urlGroups.delete': call<{ deleted: string }>()(
    z.object({ profileId, name: groupNameSchema }),
    'write',
    { invalidates: ['messages.urlGroups.list'] },
  ),
  /** Replaces the group's default headers (`PATCH /v2/topics/{name}`). Answers the group. */
  'messages.urlGroups.setHeaders': call<UrlGroup>()(
    z.object({ profileId, name: groupNameSchema, headers: groupHeadersSchema }),
    'write',
    { invalidates: ['messages.urlGroups.list', 'messages.urlGroups.get'] },
  ),
};
