// Publishing one message (or enqueueing it) from the composer, and the live lists of destinations for the
// composer's pickers.
import { z } from 'zod';
import { composerSchema } from '../../../composer/model';
import type { PublishResponse } from '../../../messages/types';
import { call } from '../../define';
import { profileIdSchema as profileId } from '../../profile-id';

export interface DestinationLists {
  groups: { name: string; endpoints: number; updatedAt: number }[];
  queues: { name: string; paused: boolean; lag: number; parallelism: number }[];
}

/** One message the service accepted (one per endpoint for a URL group). */
export interface SentMessage extends PublishResponse {
  endpointName?: string;
}

export interface PublishOutcome {
  /** HTTP status of the publish call (202 when every message was a duplicate). */
  status: number;
  /** True when the destination was a URL group (one result per endpoint). */
  fanOut: boolean;
  messages: SentMessage[];
  sentAt: number;
}

export const publishProcedures = {
  /** The URL groups and queues of the profile's service, for the destination pickers. */
  'messages.destinations': call<DestinationLists>()(z.object({ profileId }), 'read'),
  /** Publishes (or enqueues) one message built from the model; records it in the profile's history. */
  'messages.publish': call<PublishOutcome>()(z.object({ profileId, model: composerSchema }), 'write', {
    invalidates: ['messages.composer.history', 'messages.destinations'],
  }),
};
