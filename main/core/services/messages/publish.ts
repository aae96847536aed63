// Publish, batch and the destination lists of the composer. Requests are built by the same pure functions
// the renderer's live preview uses (shared/composer), so what the user saw is what is sent; the client
// adds the token on the wire. Every send is recorded in the profile's composer history.
import { join } from 'node:path';
import { BridgeError } from '../../../../shared/bridge/errors';
import { describeDestination } from '../../../../shared/composer/model';
import { buildBatchRequest, validateBatch } from '../../../../shared/composer/request';
import type { CallHandler } from '../../bridge/router';
import type { Clipboard } from '../../clipboard/clipboard';
import type { ProfilesService } from '../../profiles/profiles-service';
import type { FileSaver } from '../../saving/file-saver';
import { build } from './build-request';
import { clientsFor } from './client';
import { composerHandlers, type ComposerNames } from './composer';
import { ComposerStore } from './composer-store';

export interface PublishHandlerDeps {
  profiles: Pick<ProfilesService, 'resolve'>;
  /** The console's data folder: composer.json lives there. */
  dataDir: string;
  /** Defaults to the installed clipboard (Electron) or the OS tools (browser host). */
  clipboard?: () => Clipboard;
  /** Where main writes token-bearing text when the page asks for a file (it never names the place). */
  saver: FileSaver;
  now?: () => number;
  /** Told when composer.json could not be read (it is moved aside, not overwritten). */
  warn?: (message: string) => void;
}

type Names = 'messages.destinations' | 'messages.publish' | 'messages.batch' | ComposerNames;

function serviceText(error: unknown): string {
  if (error instanceof BridgeError)
    return error.status ? `HTTP ${error.status}: ${error.message}` : error.message;
  return String(error);
}

/** Publish, batch and destinations, plus the composer's own procedures (they share its history file). */
export function publishHandlers(deps: PublishHandlerDeps): { [N in Names]: CallHandler<N> } {
  const now = deps.now ?? Date.now;
  let store: ComposerStore | undefined;
  // Opened on first use: a console that never composes never reads the file.
  const composer = () => (store ??= new ComposerStore(join(deps.dataDir, 'composer.json'), now, deps.warn));
  const client = clientsFor(deps.profiles);

  return {
    'messages.destinations': async ({ profileId }) => {
      const messages = client(profileId);
      const [groups, queues] = await Promise.all([messages.urlGroups(), messages.queues()]);
      return {
        groups: groups
          .map((group) => ({
            name: group.name,
            endpoints: group.endpoints.length,
            updatedAt: group.updatedAt,
          }))
          .sort((a, b) => a.name.localeCompare(b.name)),
        queues: queues
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
      const entry = { kind: 'single' as const, models: [model], summary: describeDestination(model) };
      try {
        const sent = await client(profileId).publish(request);
        composer().addHistory(profileId, { ...entry, messageIds: sent.messages.map((m) => m.messageId) });
        return { ...sent, sentAt: now() };
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
        const { status, items: outcomes } = await client(profileId).batch(request, items.length);
        composer().addHistory(profileId, {
          ...entry,
          messageIds: outcomes.flatMap((o) => (o.ok ? o.messages.map((m) => m.messageId) : [])),
          ...(outcomes.some((o) => !o.ok)
            ? { error: `${outcomes.filter((o) => !o.ok).length} of ${items.length} items refused` }
            : {}),
        });
        return { status, items: outcomes, sentAt: now() };
      } catch (error) {
        composer().addHistory(profileId, { ...entry, messageIds: [], error: serviceText(error) });
        throw error;
      }
    },

    ...composerHandlers({ client, composer, now, clipboard: deps.clipboard, saver: deps.saver }),
  };
}
