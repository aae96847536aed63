import { z } from 'zod';
import {
  type ProfileExport,
  type ProfileView,
  profileSettingsSchema,
  secretChangesSchema,
} from '../../profiles';
import { call } from '../define';
import { type CopyResult, secretTargetSchema } from './app';
import { profileIdSchema } from '../profile-id';

export interface ProfilesList {
  profiles: ProfileView[];
  activeId: string;
}

export interface ConnectionTestResult {
  service: 'messages' | 'kv';
  /** A response came back (any status). */
  reachable: boolean;
  /** 'ok' on 2xx, 'failed' on 401/403, 'unknown' when unreachable or another status. */
  auth: 'ok' | 'failed' | 'unknown';
  status?: number;
  /** What to show: the service's own error text when it gave one. */
  message: string;
  latencyMs?: number;
  url: string;
}

const id = profileIdSchema;

export const profileProcedures = {
  'profiles.list': call<ProfilesList>()(z.object({})),
  'profiles.create': call<ProfileView>()(
    z.object({ settings: profileSettingsSchema, secrets: secretChangesSchema.default({}) }),
    'local',
    { invalidates: ['profiles.list'] },
  ),
  'profiles.update': call<ProfileView>()(
    z.object({ id, settings: profileSettingsSchema.partial(), secrets: secretChangesSchema.default({}) }),
    'local',
    { invalidates: ['profiles.list'] },
  ),
  'profiles.duplicate': call<ProfileView>()(z.object({ id }), 'local', { invalidates: ['profiles.list'] }),
  'profiles.delete': call<{ deleted: string }>()(z.object({ id }), 'local', {
    invalidates: ['profiles.list'],
  }),
  'profiles.activate': call<ProfilesList>()(z.object({ id }), 'local', { invalidates: ['profiles.list'] }),
  'profiles.testConnection': call<ConnectionTestResult>()(
    z.object({ id, service: z.enum(['messages', 'kv']) }),
    'read',
  ),
  /** Settings only, never secrets. */
  'profiles.export': call<ProfileExport>()(z.object({ ids: z.array(id).optional() })),
  /**
   * The Local profile as a .env file (QSTASH_URL, QSTASH_TOKEN, signing keys, UPSTASH_REDIS_REST_URL and
   * token), written by main to the clipboard or a new file in the place main picks: the stack's own local
   * secrets, for pointing one's own app at it.
   */
  'profiles.copyLocalEnv': call<CopyResult>()(z.object({ to: secretTargetSchema })),
  'profiles.import': call<{ imported: ProfileView[] }>()(z.object({ data: z.unknown() }), 'local', {
    invalidates: ['profiles.list'],
  }),
};
