// Queues: list with lag, create or update (upsert), pause and resume, delete.
import { z } from 'zod';
import type { Queue } from '../../../messages/types';
import { call } from '../../define';
import { profileIdSchema as profileId } from '../../profile-id';
import { resourceNameSchema } from './names';

export const queueNameSchema = resourceNameSchema('queue');

export const queueProcedures = {
  'messages.queues.list': call<Queue[]>()(z.object({ profileId }), 'read'),
  /** Creates the queue or changes its parallelism and paused state. Answers the queue as stored. */
  'messages.queues.upsert': call<Queue>()(
    z.object({
      profileId,
      name: queueNameSchema,
      parallelism: z.number().int().min(1, 'at least 1').max(1000, 'at most 1000'),
      paused: z.boolean(),
    }),
    'write',
    { invalidates: ['messages.queues.list'] },
  ),
  'messages.queues.setPaused': call<Queue>()(
    z.object({ profileId, name: queueNameSchema, paused: z.boolean() }),
    'write',
    { invalidates: ['messages.queues.list'] },
  ),
  'messages.queues.delete': call<{ deleted: string }>()(
    z.object({ profileId, name: queueNameSchema }),
    'write',
    { invalidates: ['messages.queues.list'] },
  ),
};
