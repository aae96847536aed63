import { z } from 'zod';
import { call } from '../define';

export interface AppInfo {
  version: string;
  /** Which front door carries the bridge. */
  host: 'electron' | 'browser';
  /** Where files the page asks for are written (the page never names the place). */
  fileSaving: FileSaving;
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
 * Where main writes a file the page asked for (token-bearing text, a monitor export). The page never
 * chooses the place: in the desktop app the user picks it in a native save dialog; in the browser host
 * main writes into its private exports folder. Said plainly in the UI.
 */
export type FileSaving =
  | { kind: 'dialog' }
  | {
      kind: 'folder';
      /** The private exports folder (absolute), shown so the user knows where to look. */
      folder: string;
    };

const FOLDER_SEPARATOR = /[/\\]/;
// Characters Windows refuses in names; `:` would also name a drive (`C:x`) or an alternate data stream.
const NOT_PORTABLE = /[<>:"|?*]/;
// Control characters (NUL included): no file name has them, and a NUL would cut a path short.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why `name` is not a plain file name (a name only, no folder, no way up), or undefined when it is. */
export function fileNameProblem(name: string): string | undefined {
  if (name === '') return 'give a file name';
  if (name.trim() !== name) return 'a file name without spaces around it';
  if (FOLDER_SEPARATOR.test(name)) return 'a file name only, without folders (no / or \\)';
  if (name === '.' || name === '..') return 'a file name, not . or ..';
  if (CONTROL.test(name)) return 'a file name without control characters';
  if (NOT_PORTABLE.test(name)) return 'a file name without < > : " | ? *';
  if (name.length > 200) return 'at most 200 characters';
  return undefined;
}

/** A file name the page may suggest for a file main writes: a name, never a path (main picks the folder). */
export const suggestedFileNameSchema = z.string().superRefine((name, context) => {
  const problem = fileNameProblem(name);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/**
 * Where main puts text that carries a token: the OS clipboard, or a new file in the place main picks (see
 * FileSaving), for hosts without a clipboard. Never the renderer. Unknown keys are refused, so a `path`
 * (what older pages sent) fails loudly instead of being ignored.
 */
export const secretTargetSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('clipboard') }),
    z.strictObject({ kind: z.literal('file'), suggestedName: suggestedFileNameSchema.optional() }),
  ])
  .default({ kind: 'clipboard' });
export type SecretTarget = z.output<typeof secretTargetSchema>;

/** What main did with token-bearing text; the text itself never comes back. */
export type CopyResult =
  | {
      to: 'clipboard';
      /** What was written, with the token masked: for the confirmation message. */
      masked: string;
    }
  | {
      to: 'file';
      masked: string;
      /** The file main wrote (absolute): the UI says where it went. */
      path: string;
    }
  | {
      to: 'file';
      /** The user closed the save dialog without choosing a file: nothing was written. */
      canceled: true;
    };

export const appProcedures = {
  'app.info': call<AppInfo>()(z.object({})),
  /** Whether main can write to the OS clipboard here, and if not, how to fix it. */
  'app.clipboardStatus': call<ClipboardStatus>()(z.object({})),
};
