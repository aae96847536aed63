// The message composer, batch builder and webhook intake: publish/enqueue/batch through main, the live
// lists of destinations, copying token-bearing text to the OS clipboard (main only), and the composer's
// own files (drafts, per-profile history, templates).
import { z } from 'zod';
import { composerSchema, type ComposerModel } from '../../composer/model';
import type { PublishResponse } from '../../messages/types';
import { call } from '../define';

const profileId = z.string().min(1).max(100);
const id = z.string().min(1).max(100);
export const MAX_BATCH_ITEMS = 100;

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

/** One batch result, aligned with the items sent: messages (several for a group), or the service's error. */
export type BatchItemOutcome =
  { ok: true; fanOut: boolean; messages: SentMessage[] } | { ok: false; error: string };

export interface BatchOutcome {
  status: number;
  items: BatchItemOutcome[];
  sentAt: number;
}

export interface ClipboardStatus {
  available: boolean;
  /** e.g. "xclip", "pbcopy", "Electron". */
  method?: string;
  /** Why not, with the command that fixes it. */
  problem?: string;
}

export interface CopyResult {
  copied: true;
  /** What was copied, with the token masked: for the confirmation message. */
  masked: string;
}

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

export interface Drafts {
  compose?: ComposerModel;
  batch?: ComposerModel[];
  webhook?: ComposerModel;
}

const batchItems = z.array(composerSchema).min(1, 'the batch is empty').max(MAX_BATCH_ITEMS);

export const publishProcedures = {
  /** The URL groups and queues of the profile's service, for the destination pickers. */
  'publish.destinations': call<DestinationLists>()(z.object({ profileId }), 'read'),
  /** Publishes (or enqueues) one message built from the model; records it in the profile's history. */
  'publish.send': call<PublishOutcome>()(z.object({ profileId, model: composerSchema }), 'write'),
  /** Sends the items as one `POST /v2/batch`; results come back aligned with the items. */
  'publish.batch': call<BatchOutcome>()(z.object({ profileId, items: batchItems }), 'write'),
  /** Whether main can write to the OS clipboard here, and if not, how to fix it. */
  'publish.clipboardStatus': call<ClipboardStatus>()(z.object({})),
  /** Writes "copy as curl" with the real token to the OS clipboard (never to the renderer). */
  'publish.copyCurl': call<CopyResult>()(
    z.union([z.object({ profileId, model: composerSchema }), z.object({ profileId, items: batchItems })]),
  ),
  /** Writes the webhook intake URL, token included, to the OS clipboard (never to the renderer). */
  'publish.copyWebhookUrl': call<CopyResult>()(z.object({ profileId, model: composerSchema })),

  'composer.drafts': call<Drafts>()(z.object({})),
  'composer.saveDraft': call<{ saved: DraftKey }>()(
    z.discriminatedUnion('key', [
      z.object({ key: z.literal('compose'), value: composerSchema.nullable() }),
      z.object({ key: z.literal('webhook'), value: composerSchema.nullable() }),
      z.object({ key: z.literal('batch'), value: z.array(composerSchema).max(MAX_BATCH_ITEMS).nullable() }),
    ]),
  ),
  'composer.history': call<HistoryEntry[]>()(z.object({ profileId })),
  'composer.clearHistory': call<{ cleared: number }>()(z.object({ profileId })),
  'composer.templates': call<Template[]>()(z.object({})),
  'composer.saveTemplate': call<Template>()(
    z.object({
      id: id.optional(),
      name: z.string().trim().min(1, 'a template needs a name').max(80),
      model: composerSchema,
    }),
  ),
  'composer.deleteTemplate': call<{ deleted: string }>()(z.object({ id })),
};
