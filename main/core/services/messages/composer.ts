// The composer's own procedures: "copy as curl" and the webhook intake URL with the real token, written to
// the OS clipboard or a new file in the place main picks, and never returned to the renderer; and its files
// in main (drafts, per-profile history, templates). The clipboard status is the console's (`app.clipboardStatus`), asked here because
// copying is what needs it.
import { BridgeError } from '../../../../shared/bridge/errors';
import type { ParsedInputOf } from '../../../../shared/bridge/procedures';
import { toCurl } from '../../../../shared/composer/curl';
import {
  buildBatchRequest,
  type BuiltRequest,
  validateBatch,
  webhookUrl,
} from '../../../../shared/composer/request';
import type { CopyResult, SecretTarget } from '../../../../shared/bridge/procedures/app';
import type { CallHandler } from '../../bridge/router';
import { type Clipboard, currentClipboard } from '../../clipboard/clipboard';
import { deliverSecret, type SecretText } from '../../clipboard/secret-output';
import type { FileSaver } from '../../saving/file-saver';
import { maskSecret } from '../../secrets/secret-store';
import type { MessageClient } from './client';
import type { ComposerStore } from './composer-store';
import { build } from './build-request';

export type ComposerNames =
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

export function composerHandlers(deps: {
  client: (profileId: string) => MessageClient;
  composer: () => ComposerStore;
  now: () => number;
  /** Defaults to the installed clipboard (Electron) or the OS tools (browser host). */
  clipboard?: () => Clipboard;
  /** Where a file goes when the page asks for one instead of the clipboard. */
  saver: FileSaver;
}): { [N in ComposerNames]: CallHandler<N> } {
  const { client, composer, now, saver } = deps;
  const clipboard = deps.clipboard ?? currentClipboard;

  function copy(secret: SecretText, to: SecretTarget): Promise<CopyResult> {
    return deliverSecret(secret, to, { clipboard, saver });
  }

  return {
    'app.clipboardStatus': () => clipboard().status(),

    'messages.composer.copyCurl': async (input: ParsedInputOf<'messages.composer.copyCurl'>) => {
      const { api } = client(input.profileId);
      let request: BuiltRequest;
      if ('model' in input) request = build(input.model, now());
      else {
        const problems = validateBatch(input.items, now());
        if (Object.keys(problems).length > 0) {
          throw new BridgeError({ code: 'INVALID_INPUT', message: 'Fix the batch items before copying.' });
        }
        request = buildBatchRequest(input.items);
      }
      const url = api.url(request.path);
      const token = api.token();
      return copy(
        {
          text: toCurl(request, url, { kind: 'token', token }),
          masked: toCurl(request, url, { kind: 'token', token: maskSecret(token) }),
          what: 'the curl command',
          defaultName: 'switchyard-curl.sh',
        },
        input.to,
      );
    },

    'messages.composer.copyWebhookUrl': async ({ profileId, model, to }) => {
      build(model, now());
      const { api } = client(profileId);
      const base = api.url('');
      const token = api.token();
      const placeholder = 'SWITCHYARD_TOKEN_PLACEHOLDER';
      const masked = webhookUrl(model, base, placeholder).replace(placeholder, maskSecret(token));
      return copy(
        {
          text: webhookUrl(model, base, token),
          masked,
          what: 'the webhook intake URL',
          defaultName: 'switchyard-intake-url.txt',
        },
        to,
      );
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
