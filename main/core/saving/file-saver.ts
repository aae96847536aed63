// Files main writes because the page asked (token-bearing text without a clipboard, monitor exports). The
// page is untrusted: it never names the place. A FileSaver is how each front door picks it — the desktop
// app asks the user in a native save dialog (main/electron/save-dialog.ts), the browser host writes into
// its private exports folder (exports-folder.ts). The page may at most suggest a plain file name.
import { BridgeError } from '../../../shared/bridge/errors';
import { fileNameProblem, type FileSaving } from '../../../shared/bridge/procedures/app';

export interface SaveRequest {
  text: string;
  /** The page's suggestion, a plain file name (checked by the procedure's schema and again here). */
  suggestedName?: string;
  /** The name when the page suggests none, e.g. `switchyard-intake-url.txt`. */
  defaultName: string;
  /** What is saved, for the dialog's title: "the webhook intake URL". */
  what: string;
}

export type SaveResult =
  | {
      /** The file written, absolute: the UI tells the user where it went. */
      path: string;
    }
  | { canceled: true };

export interface FileSaver {
  /** For the UI (app.info): a save dialog, or the folder files go to. */
  readonly saving: FileSaving;
  save(request: SaveRequest): Promise<SaveResult>;
}

/**
 * The name a saver writes under: the page's suggestion or the default, refused unless it is a plain file
 * name. Every saver checks it here again, whatever the procedure's schema let through.
 */
export function savedFileName({ suggestedName, defaultName }: SaveRequest): string {
  const name = suggestedName ?? defaultName;
  const problem = fileNameProblem(name);
  if (problem) {
    throw new BridgeError({
      code: 'INVALID_INPUT',
      message: `Not a file name: ${problem}.`,
      fields: { suggestedName: problem },
    });
  }
  return name;
}
