// The Electron app's clipboard for main/core/clipboard: Electron's own module, no external tools needed.
import { clipboard } from 'electron';
import { installClipboard } from '../core/clipboard/clipboard';

export function installElectronClipboard(): void {
  installClipboard({
    status: () => ({ available: true, method: 'Electron' }),
    writeText: async (text) => clipboard.writeText(text),
  });
}
