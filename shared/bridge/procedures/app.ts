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

/**
 * Where main puts text that carries a token: the OS clipboard, or a new file the user names (for hosts
 * without a clipboard, e.g. the browser host on a headless server). Never the renderer.
 */
export const secretTargetSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('clipboard') }),
    z.object({ kind: z.literal('file'), path: z.string().trim().min(1, 'name a file').max(4096) }),
  ])
  .default({ kind: 'clipboard' });
export type SecretTarget = z.output<typeof secretTargetSchema>;

/** What main did with token-bearing text; the text itself never comes back. */
export interface CopyResult {
  copied: true;
  /** What was written, with the token masked: for the confirmation message. */
  masked: string;
  to: SecretTarget['kind'];
  /** The file written (absolute), for file targets. */
  path?: string;
}

export const appProcedures = {
  'app.info': call<AppInfo>()(z.object({})),
  /** Whether main can write to the OS clipboard here, and if not, how to fix it. */
  'app.clipboardStatus': call<ClipboardStatus>()(z.object({})),
};
