// The message composer's form model: what the user set, as the form holds it (strings for numbers, so a
// half-typed value is never lost). One schema serves the bridge (main validates every input with it), the
// drafts/templates/history files and the batch builder, whose items are the same model.
import { z } from 'zod';
import { MAX_BODY_BYTES, MESSAGE_METHODS, type MessageMethod } from '../messages/limits';

export const COMPOSER_METHODS = MESSAGE_METHODS;
export type ComposerMethod = MessageMethod;

/** Where the message goes: a URL, a URL group, a queue (enqueue, to a URL or a group) or the LLM API. */
export const DESTINATION_KINDS = ['url', 'group', 'queue', 'llm'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** Text with a cap; the message is what a person reads if a value ever gets past the form. */
const text = (max: number) => z.string().max(max, `at most ${max.toLocaleString('en-US')} characters`);

/**
 * Longest body a draft keeps (characters): far above the send limit, so a body pasted over the limit is
 * kept while the form says it cannot be sent, and, even at 3 UTF-8 bytes a character, below the bridge's 16 MiB frame.
 */
export const MAX_DRAFT_BODY_CHARS = 4 * 1_048_576;

export const headerRowSchema = z.object({
  name: text(200),
  value: text(8_000),
  /** Unticked rows stay in the table but are not sent. */
  enabled: z.boolean().default(true),
});
export type HeaderRow = z.infer<typeof headerRowSchema>;

/** A callback or failure callback: its URL, the headers it gets, and its own delivery settings. */
export const callbackSchema = z.object({
  url: text(2_000).default(''),
  headers: z
    .array(headerRowSchema)
    .max(100)
    .default(() => []),
  /** '' = POST (the service's default for callbacks). */
  method: z.union([z.literal(''), z.enum(COMPOSER_METHODS)]).default(''),
  /** '' = the message's own retries. */
  retries: text(10).default(''),
  retryDelay: text(1_000).default(''),
  timeout: text(50).default(''),
});
export type CallbackModel = z.infer<typeof callbackSchema>;

export const composerSchema = z.object({
  destinationKind: z.enum(DESTINATION_KINDS).default('url'),
  /** The destination URL (kind url, or a queue whose target is a URL). */
  url: text(2_000).default(''),
  /** The URL group (kind group, or a queue whose target is a group). */
  group: text(200).default(''),
  queue: text(200).default(''),
  /** For a queue: enqueue to a URL or to a URL group. */
  queueTarget: z.enum(['url', 'group']).default('url'),
  method: z.enum(COMPOSER_METHODS).default('POST'),
  contentType: text(200).default('application/json'),
  /** The send limit is in bytes (UTF-8): validateComposer checks that; this only bounds the input. */
  body: text(MAX_BODY_BYTES).default(''),
  /** Headers delivered to the destination (sent as `Upstash-Forward-<name>`). */
  headers: z
    .array(headerRowSchema)
    .max(200)
    .default(() => []),
  /** `Upstash-Header-Forward: true`: every header of the publish request is forwarded, unprefixed. */
  headerForward: z.boolean().default(false),
  /** `10s`, `5m`, `2h`, `1d`, `1h30m`; '' = none. */
  delay: text(50).default(''),
  /** Unix seconds (UTC); null = none. Wins over `delay` at the service. */
  notBefore: z.number().int().min(0).max(1e11).nullable().default(null),
  /** '' = the service's default (3). */
  retries: text(10).default(''),
  retryDelay: text(1_000).default(''),
  timeout: text(50).default(''),
  callback: callbackSchema.default(() => callbackSchema.parse({})),
  failureCallback: callbackSchema.default(() => callbackSchema.parse({})),
  dedupMode: z.enum(['none', 'id', 'content']).default('none'),
  dedupId: text(500).default(''),
  /** Comma-separated. */
  labels: text(1_000).default(''),
  flowControlKey: text(200).default(''),
  flowControlParallelism: text(10).default(''),
  flowControlRate: text(10).default(''),
  flowControlPeriod: text(20).default(''),
});
/** A saved draft: the same model, with room for a body over the send limit (see MAX_DRAFT_BODY_CHARS). */
export const draftModelSchema = composerSchema.extend({
  body: z.string().max(MAX_DRAFT_BODY_CHARS, `the body is larger than a draft can keep (4 MiB)`).default(''),
});

/** The model with every field present (what the form holds and the builders take). */
export type ComposerModel = z.output<typeof composerSchema>;
/** What callers may pass: any field may be left out and gets its default. */
export type ComposerInput = z.input<typeof composerSchema>;

export function emptyComposer(overrides: Partial<ComposerModel> = {}): ComposerModel {
  return { ...composerSchema.parse({}), ...overrides };
}

export function emptyCallback(): CallbackModel {
  return callbackSchema.parse({});
}

/** A short human name for where a model sends its message (history lists, batch rows). */
export function describeDestination(model: ComposerModel): string {
  switch (model.destinationKind) {
    case 'url':
      return model.url || '(no URL)';
    case 'group':
      return model.group ? `group ${model.group}` : '(no group)';
    case 'llm':
      return 'api/llm';
    case 'queue': {
      const target = model.queueTarget === 'group' ? `group ${model.group}` : model.url;
      return `queue ${model.queue || '(none)'} → ${target || '(no target)'}`;
    }
  }
}
