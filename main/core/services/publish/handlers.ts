// Bridge handlers of the composer, batch builder and webhook intake. Requests are built by the same pure
// functions the renderer's live preview uses (shared/composer), so what the user saw is what is sent; the
// token is added here, on the wire or on the OS clipboard, and never returned to the renderer.
import { join } from 'node:path';
import { BridgeError } from '../../../../shared/bridge/errors';
import type { BatchItemOutcome } from '../../../../shared/bridge/procedures/messages/batch';
import type { SentMessage } from '../../../../shared/bridge/procedures/messages/publish';
import type { ParsedInputOf } from '../../../../shared/bridge/procedures';
import { toCurl } from '../../../../shared/composer/curl';
import { type ComposerModel, describeDestination } from '../../../../shared/composer/model';
import {
  buildBatchRequest,
  type BuiltRequest,
  buildPublishRequest,
  ComposerError,
  validateBatch,
  webhookUrl,
} from '../../../../shared/composer/request';
import type { BatchResultItem, PublishResponse, Queue, UrlGroup } from '../../../../shared/messages/types';
import type { CallHandler } from '../../bridge/router';
import { type Clipboard, currentClipboard } from '../../clipboard/clipboard';
import type { ProfilesService } from '../../profiles/profiles-service';
import { maskSecret } from '../../secrets/secret-store';
import { MessageApi } from '../message-api';
import { ComposerStore } from './composer-store';

export interface PublishHandlerDeps {
  profiles: Pick<ProfilesService, 'resolve'>;
  /** The console's data folder: composer.json lives there. */
  dataDir: string;
  /** Defaults to the installed clipboard (Electron) or the OS tools (browser host). */
  clipboard?: () => Clipboard;
  now?: () => number;
  /** Told when composer.json could not be read (it is moved aside, not overwritten). */
  warn?: (message: string) => void;
}

type Names =
  | 'messages.destinations'
  | 'messages.publish'
  | 'messages.batch'
  | 'app.clipboardStatus'
  | 'messages.composer.copyCurl'
  | 'messages.composer.copyWebhookUrl'
  | 'messages.composer.drafts'
  | 'messages.composer.saveDraft'
  | 'messages.composer.history'
  | 'messages.composer.clearHistory'
  | 'messages.composer.templates'
  | 'messages.composer.saveTemplate'
  | 'messages.composer.deleteTemplate';

function invalid(error: ComposerError, prefix = ''): BridgeError {
  const fields = Object.fromEntries(Object.entries(error.fields).map(([k, v]) => [`${prefix}${k}`, v]));
  return new BridgeError({ code: 'INVALID_INPUT', message: error.message, fields });
}

function build(model: ComposerModel, now: number): BuiltRequest {
  try {
    return buildPublishRequest(model, now);
  } catch (error) {
    if (error instanceof ComposerError) throw invalid(error);
    throw error;
  }
}

function isPublishResponse(value: unknown): value is PublishResponse {
  return (
    typeof value === 'object' && value !== null && typeof (value as PublishResponse).messageId === 'string'
  );
}

/** A publish answer (object for a URL, array for a URL group) as a list of sent messages. */
function sentMessages(body: unknown): { fanOut: boolean; messages: SentMessage[] } | undefined {
  if (Array.isArray(body) && body.every(isPublishResponse)) return { fanOut: true, messages: body };
  if (isPublishResponse(body)) return { fanOut: false, messages: [body] };
  return undefined;
}

function unexpected(status: number, body: unknown): BridgeError {
  return new BridgeError({
    code: 'SERVICE_ERROR',
    status,
    message: `The service answered with an unexpected body: ${JSON.stringify(body).slice(0, 300)}`,
  });
}

function serviceText(error: unknown): string {
  if (error instanceof BridgeError)
    return error.status ? `HTTP ${error.status}: ${error.message}` : error.message;
  return String(error);
}

function headersRecord(request: BuiltRequest): Record<string, string> {
  return Object.fromEntries(request.headers);
}

export function publishHandlers(deps: PublishHandlerDeps): { [N in Names]: CallHandler<N> } {
  const now = deps.now ?? Date.now;
  const clipboard = deps.clipboard ?? currentClipboard;
  let store: ComposerStore | undefined;
  // Opened on first use: a console that never composes never reads the file.
  const composer = () => (store ??= new ComposerStore(join(deps.dataDir, 'composer.json'), now, deps.warn));
  const api = (profileId: string) => new MessageApi(deps.profiles.resolve(profileId));

  async function copy(text: string, masked: string) {
    try {
      await clipboard().writeText(text);
    } catch (error) {
      throw new BridgeError({
        code: 'NOT_CONFIGURED',
        message: error instanceof Error ? error.message : String(error),
      });
    }
    return { copied: true as const, masked };
  }

  return {
    'messages.destinations': async ({ profileId }) => {
      const client = api(profileId);
      const [groups, queues] = await Promise.all([
        client.json<UrlGroup[] | null>({ path: '/v2/topics' }),
        client.json<Queue[] | null>({ path: '/v2/queues' }),
      ]);
      return {
        groups: (groups.body ?? [])
          .map((group) => ({
            name: group.name,
            endpoints: group.endpoints?.length ?? 0,
            updatedAt: group.updatedAt,
          }))
          .sort((a, b) => a.name.localeCompare(b.name)),
        queues: (queues.body ?? [])
          .map((queue) => ({
            name: queue.name,
            paused: queue.paused,
            lag: queue.lag,
            parallelism: queue.parallelism,
          }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      };
    },

    'messages.publish': async ({ profileId, model }) => {
      const request = build(model, now());
      const client = api(profileId);
      const entry = { kind: 'single' as const, models: [model], summary: describeDestination(model) };
      try {
        const response = await client.json<unknown>({
          method: 'POST',
          path: request.path,
          headers: headersRecord(request),
          body: request.body,
        });
        const sent = sentMessages(response.body);
        if (!sent) throw unexpected(response.status, response.body);
        composer().addHistory(profileId, { ...entry, messageIds: sent.messages.map((m) => m.messageId) });
        return { status: response.status, ...sent, sentAt: now() };
      } catch (error) {
        composer().addHistory(profileId, { ...entry, messageIds: [], error: serviceText(error) });
        throw error;
      }
    },

    'messages.batch': async ({ profileId, items }) => {
      const problems = validateBatch(items, now());
      const indexes = Object.keys(problems);
      if (indexes.length > 0) {
        const fields: Record<string, string> = {};
        for (const [index, errors] of Object.entries(problems)) {
          for (const [field, message] of Object.entries(errors)) fields[`items.${index}.${field}`] = message;
        }
        throw new BridgeError({
          code: 'INVALID_INPUT',
          message: `Item${indexes.length > 1 ? 's' : ''} ${indexes.map((i) => Number(i) + 1).join(', ')} of the batch need${indexes.length > 1 ? '' : 's'} fixing before anything is sent.`,
          fields,
        });
      }
      const request = buildBatchRequest(items);
      const entry = {
        kind: 'batch' as const,
        models: items,
        summary: `batch of ${items.length}: ${items.map(describeDestination).join(', ')}`.slice(0, 300),
      };
      try {
        const response = await api(profileId).json<BatchResultItem[]>({
          method: 'POST',
          path: request.path,
          headers: headersRecord(request),
          body: request.body,
        });
        if (!Array.isArray(response.body) || response.body.length !== items.length) {
          throw unexpected(response.status, response.body);
        }
        const outcomes: BatchItemOutcome[] = response.body.map((result) => {
          const sent = sentMessages(result);
          if (sent) return { ok: true, ...sent };
          const error = (result as { error?: unknown }).error;
          return { ok: false, error: typeof error === 'string' ? error : JSON.stringify(result) };
        });
        composer().addHistory(profileId, {
          ...entry,
          messageIds: outcomes.flatMap((o) => (o.ok ? o.messages.map((m) => m.messageId) : [])),
          ...(outcomes.some((o) => !o.ok)
            ? { error: `${outcomes.filter((o) => !o.ok).length} of ${items.length} items refused` }
            : {}),
        });
        return { status: response.status, items: outcomes, sentAt: now() };
      } catch (error) {
        composer().addHistory(profileId, { ...entry, messageIds: [], error: serviceText(error) });
        throw error;
      }
    },

    'app.clipboardStatus': () => clipboard().status(),

    'messages.composer.copyCurl': async (input: ParsedInputOf<'messages.composer.copyCurl'>) => {
      const client = api(input.profileId);
      let request: BuiltRequest;
      if ('model' in input) request = build(input.model, now());
      else {
        const problems = validateBatch(input.items, now());
        if (Object.keys(problems).length > 0) {
          throw new BridgeError({ code: 'INVALID_INPUT', message: 'Fix the batch items before copying.' });
        }
        request = buildBatchRequest(input.items);
      }
      const url = client.url(request.path);
      const token = client.token();
      return copy(
        toCurl(request, url, { kind: 'token', token }),
        toCurl(request, url, { kind: 'token', token: maskSecret(token) }),
      );
    },

    'messages.composer.copyWebhookUrl': async ({ profileId, model }) => {
      build(model, now());
      const client = api(profileId);
      const base = client.url('');
      const token = client.token();
      const placeholder = 'SWITCHYARD_TOKEN_PLACEHOLDER';
      const masked = webhookUrl(model, base, placeholder).replace(placeholder, maskSecret(token));
      return copy(webhookUrl(model, base, token), masked);
    },

    'messages.composer.drafts': ({ profileId }) => composer().drafts(profileId),
    'messages.composer.saveDraft': (input) => {
      composer().saveDraft(input.profileId, input.key, input.value);
      return { saved: input.key };
    },
    'messages.composer.history': ({ profileId }) => composer().history(profileId),
    'messages.composer.clearHistory': ({ profileId }) => ({ cleared: composer().clearHistory(profileId) }),
    'messages.composer.templates': () => composer().templates(),
    'messages.composer.saveTemplate': (input) => composer().saveTemplate(input),
    'messages.composer.deleteTemplate': ({ id }) => {
      if (!composer().deleteTemplate(id)) {
        throw new BridgeError({ code: 'NOT_FOUND', message: 'That template no longer exists.' });
      }
      return { deleted: id };
    },
  };
}
