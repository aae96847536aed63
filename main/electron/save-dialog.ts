// The desktop app's FileSaver: the user picks the file in the OS's native save dialog, opened by main; the
// page only asks, and may suggest a plain file name. This module does not import 'electron' (main.ts hands
// it `dialog.showSaveDialog`), so its paths are unit-tested in plain Node.
import { isAbsolute, join } from 'node:path';
import { BridgeError } from '../../shared/bridge/errors';
import { replacePrivateFile } from '../core/private-files';
import { savedFileName, type FileSaver } from '../core/saving/file-saver';

/** The part of Electron's `SaveDialogOptions` used here. */
export interface SaveDialogOptions {
  title: string;
  defaultPath: string;
  buttonLabel: string;
  properties: ('createDirectory' | 'showOverwriteConfirmation')[];
}

/** `dialog.showSaveDialog` bound to the app's window. */
export type ShowSaveDialog = (
  options: SaveDialogOptions,
) => Promise<{ canceled: boolean; filePath?: string }>;

export interface DialogSaverOptions {
  show: ShowSaveDialog;
  /** Where the dialog opens (the user's Downloads folder). */
  defaultFolder: string;
}

export function dialogSaver({ show, defaultFolder }: DialogSaverOptions): FileSaver {
  // One dialog at a time: a page calling in a loop must not stack modal dialogs on the user.
  let open = false;
  return {
    saving: { kind: 'dialog' },
    async save(request) {
      const { text, what } = request;
      const name = savedFileName(request);
      if (open) {
        throw new BridgeError({
          code: 'INVALID_INPUT',
          message: 'A save dialog is already open: finish it first.',
        });
      }
      open = true;
      let chosen: { canceled: boolean; filePath?: string };
      try {
        chosen = await show({
          title: `Save ${what}`,
          defaultPath: join(defaultFolder, name),
          buttonLabel: 'Save',
          properties: ['createDirectory', 'showOverwriteConfirmation'],
        });
      } finally {
        open = false;
      }
      if (chosen.canceled || !chosen.filePath) return { canceled: true };
      const path = chosen.filePath;
      if (!isAbsolute(path)) {
        throw new BridgeError({
          code: 'INTERNAL',
          message: `The save dialog returned "${path}", not a full path.`,
        });
      }
      try {
        // The user chose this file in the OS dialog, which asked before replacing one: a replacement is
        // theirs to make. Written beside it and renamed over, so the result is 0600 and never half-written.
        replacePrivateFile(path, text);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new BridgeError({
          code: 'INVALID_INPUT',
          message:
            code === 'EACCES' || code === 'EPERM'
              ? `No permission to write ${path}.`
              : code === 'EISDIR'
                ? `${path} is a folder: choose a file.`
                : `Could not write ${path}: ${(error as Error).message}`,
        });
      }
      return { path };
    },
  };
}
