// Where main puts text that carries a token (webhook URLs, curl commands, the Local profile as .env): the
// OS clipboard, or — where there is none, e.g. the browser host on a headless server — a new file in the
// place main picks (a save dialog in the desktop app, the private exports folder in the browser host; see
// saving/file-saver.ts). Either way the text is written by main and never returned to the renderer, and
// the renderer never names where it goes.
import { BridgeError } from '../../../shared/bridge/errors';
import type { CopyResult, SecretTarget } from '../../../shared/bridge/procedures/app';
import type { FileSaver } from '../saving/file-saver';
import type { Clipboard } from './clipboard';

export interface SecretText {
  text: string;
  /** The same text with the token masked, for the confirmation message. */
  masked: string;
  /** What it is, for a save dialog's title: "the webhook intake URL". */
  what: string;
  /** The file name when the page suggests none. */
  defaultName: string;
}

export interface SecretOutputs {
  clipboard: () => Clipboard;
  saver: FileSaver;
}

export async function deliverSecret(
  secret: SecretText,
  target: SecretTarget,
  { clipboard, saver }: SecretOutputs,
): Promise<CopyResult> {
  if (target.kind === 'clipboard') {
    try {
      await clipboard().writeText(secret.text);
    } catch (error) {
      throw new BridgeError({
        code: 'NOT_CONFIGURED',
        message: error instanceof Error ? error.message : String(error),
      });
    }
    return { to: 'clipboard', masked: secret.masked };
  }
  const saved = await saver.save({
    text: secret.text.endsWith('\n') ? secret.text : `${secret.text}\n`,
    suggestedName: target.suggestedName,
    defaultName: secret.defaultName,
    what: secret.what,
  });
  return 'canceled' in saved
    ? { to: 'file', canceled: true }
    : { to: 'file', masked: secret.masked, path: saved.path };
}
