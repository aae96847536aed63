import { z } from 'zod';
import { call } from '../define';

export interface AppInfo {
  version: string;
  /** Which front door carries the bridge. */
  host: 'electron' | 'browser';
  platform: string;
  /** Where secrets are kept, said plainly in the UI. */
  secretStorage: {
    kind: 'os-encryption' | 'file';
    description: string;
  };
}

export interface ClipboardStatus {
  available: boolean;
  /** e.g. "xclip", "pbcopy", "Electron". */
  method?: string;
  /** Why not, with the command that fixes it. */
  problem?: string;
}

export const appProcedures = {
  'app.info': call<AppInfo>()(z.object({})),
  /** Whether main can write to the OS clipboard here, and if not, how to fix it. */
  'app.clipboardStatus': call<ClipboardStatus>()(z.object({})),
};
