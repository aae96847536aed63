// The composer's own files kept by main (drafts, per-profile history, templates), and copying
// token-bearing text (curl, webhook URLs) to the OS clipboard or a file — main only, never through the renderer.
import { z } from 'zod';
import { composerSchema, type ComposerModel, draftModelSchema } from '../../../composer/model';
import { call } from '../../define';
import { profileIdSchema as profileId } from '../../profile-id';
import { type CopyResult, secretTargetSchema as to } from '../app';
import { batchItemsSchema, MAX_BATCH_ITEMS } from './batch';

const id = z.string().min(1).max(100);

export type { CopyResult } from '../app';

export interface HistoryEntry {
  id: string;
  at: number;
  kind: 'single' | 'batch';
  /** For a batch, the items in order. */
  models: ComposerModel[];
  summary: string;
  /** Message ids the service returned (empty on failure). */
  messageIds: string[];
  /** The service's error text when the send failed. */
  error?: string;
}

export interface Template {
  id: string;
  name: string;
  model: ComposerModel;
  updatedAt: number;
}

export const DRAFT_KEYS = ['compose', 'batch', 'webhook'] as const;
export type DraftKey = (typeof DRAFT_KEYS)[number];

/** The drafts of one profile: a draft belongs to the profile it was written under. */
export interface Drafts {
  compose?: ComposerModel;
  batch?: ComposerModel[];
  webhook?: ComposerModel;
}

export const composerProcedures = {
  /** Writes "copy as curl" with the real token to the OS clipboard or a new file main places (never to the renderer). */
  'messages.composer.copyCurl': call<CopyResult>()(
    z.union([
      z.object({ profileId, model: composerSchema, to }),
      z.object({ profileId, items: batchItemsSchema, to }),
    ]),
  ),
  /** Writes the webhook intake URL, token included, to the OS clipboard or a new file main places (never to the renderer). */
  'messages.composer.copyWebhookUrl': call<CopyResult>()(z.object({ profileId, model: composerSchema, to })),

  'messages.composer.drafts': call<Drafts>()(z.object({ profileId })),
  /** Drafts take bodies over the send limit (the form says so), so a draft never drops what was typed. */
  'messages.composer.saveDraft': call<{ saved: DraftKey }>()(
    z.discriminatedUnion('key', [
      z.object({ profileId, key: z.literal('compose'), value: draftModelSchema.nullable() }),
      z.object({ profileId, key: z.literal('webhook'), value: draftModelSchema.nullable() }),
      z.object({
        profileId,
        key: z.literal('batch'),
        value: z.array(draftModelSchema).max(MAX_BATCH_ITEMS).nullable(),
      }),
    ]),
  ),
  'messages.composer.history': call<HistoryEntry[]>()(z.object({ profileId })),
  'messages.composer.clearHistory': call<{ cleared: number }>()(z.object({ profileId }), 'local', {
    invalidates: ['messages.composer.history'],
  }),
  'messages.composer.templates': call<Template[]>()(z.object({})),
  'messages.composer.saveTemplate': call<Template>()(
    z.object({
      id: id.optional(),
      name: z.string().trim().min(1, 'a template needs a name').max(80),
      model: composerSchema,
    }),
    'local',
    { invalidates: ['messages.composer.templates'] },
  ),
  'messages.composer.deleteTemplate': call<{ deleted: string }>()(z.object({ id }), 'local', {
    invalidates: ['messages.composer.templates'],
  }),
};
