// The batch builder: several messages sent as one `POST /v2/batch`.
import { z } from 'zod';
import { composerSchema } from '../../../composer/model';
import { call } from '../../define';
import { profileIdSchema as profileId } from '../../profile-id';
import type { SentMessage } from './publish';

export const MAX_BATCH_ITEMS = 100;

export const batchItemsSchema = z.array(composerSchema).min(1, 'the batch is empty').max(MAX_BATCH_ITEMS);

/** One batch result, aligned with the items sent: messages (several for a group), or the service's error. */
export type BatchItemOutcome =
  { ok: true; fanOut: boolean; messages: SentMessage[] } | { ok: false; error: string };

export interface BatchOutcome {
  status: number;
  items: BatchItemOutcome[];
  sentAt: number;
}

export const batchProcedures = {
  /** Sends the items as one `POST /v2/batch`; results come back aligned with the items. */
  'messages.batch': call<BatchOutcome>()(z.object({ profileId, items: batchItemsSchema }), 'write', {
    invalidates: ['messages.composer.history', 'messages.destinations'],
  }),
};
