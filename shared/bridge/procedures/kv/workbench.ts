// The KV workbench: commands and multi-line scripts in a chosen reply format, pipelines and transactions,
// the per-profile history main keeps, and command docs for autocomplete.
//
// These procedures declare effect `read` although a command may write: the router's blanket refusal would
// also block GET on a read-only profile. main guards them itself instead — a read-only profile sends its
// read-only token (the server refuses writes with its own text) or, without one, main refuses commands the
// command table marks as writes. Dangerous commands need `confirmed: true`.
import { z } from 'zod';
import type { CommandDoc } from '../../../kv/commands';
import { call } from '../../define';

const profileId = z.string().min(1).max(100);

export const KV_FORMATS = ['json', 'base64', 'resp2'] as const;
export type KvReplyFormat = (typeof KV_FORMATS)[number];

/** One command: name and arguments as typed (strings; the REST API sends them as JSON strings). */
const commandArgs = z.array(z.string().max(1_000_000)).min(1, 'empty command').max(10_000);

/** Which token main sends for a profile: the standard one or the read-only one. */
export type KvAccess = 'standard' | 'readOnly';

export interface KvCommandResult {
  args: string[];
  ok: boolean;
  /** JSON value as the server sent it (strings base64 in the base64 format). */
  result?: unknown;
  error?: string;
  ms: number;
  /** resp2 format: the protocol bytes, base64. */
  raw?: string;
}

export interface KvRunResult {
  results: KvCommandResult[];
  access: KvAccess;
  /** Commands not sent because an earlier one failed the request as a whole. */
  skipped: number;
}

export type KvPipelineResult =
  | {
      mode: 'pipeline' | 'transaction';
      ms: number;
      /** One per row, in order; a failing row holds its own error. */
      entries: ({ result: unknown; error?: undefined } | { error: string; result?: undefined })[];
      /** resp2 pipelines: every reply's protocol bytes, base64. */
      raw?: string;
    }
  | { mode: 'transaction'; ms: number; discarded: string };

export interface KvHistoryEntry {
  id: string;
  at: number;
  /** What was run: a line, a script, or the rows of a pipeline as text. */
  text: string;
  kind: 'command' | 'pipeline' | 'transaction';
  ok: boolean;
}

export interface KvInfo {
  access: KvAccess;
  hasStandardToken: boolean;
  hasReadOnlyToken: boolean;
}

export const kvWorkbenchProcedures = {
  'kv.info': call<KvInfo>()(z.object({ profileId }), 'read'),
  /** Runs commands one after another (a script is one command per line), each with its own timing. */
  'kv.run': call<KvRunResult>()(
    z.object({
      profileId,
      commands: z.array(commandArgs).min(1, 'nothing to run').max(500, 'at most 500 commands per run'),
      format: z.enum(KV_FORMATS).default('json'),
      /** The text as typed, for the history. */
      text: z.string().max(200_000).optional(),
      /** The user has been asked about the dangerous commands in `commands`. */
      confirmed: z.boolean().default(false),
    }),
    'read',
  ),
  /** Rows sent as one `/pipeline` or `/multi-exec` request. */
  'kv.pipeline': call<KvPipelineResult>()(
    z.object({
      profileId,
      mode: z.enum(['pipeline', 'transaction']),
      rows: z.array(commandArgs).min(1, 'no rows').max(1000, 'at most 1000 rows'),
      format: z.enum(KV_FORMATS).default('json'),
      text: z.string().max(200_000).optional(),
      confirmed: z.boolean().default(false),
    }),
    'read',
  ),
  'kv.history.list': call<KvHistoryEntry[]>()(z.object({ profileId }), 'local'),
  'kv.history.clear': call<{ cleared: number }>()(z.object({ profileId }), 'local'),
  /** Docs for autocomplete: the server's `COMMAND DOCS` where it answers, else the bundled table. */
  'kv.commandDocs': call<{ source: 'server' | 'bundled'; docs: CommandDoc[] }>()(
    z.object({ profileId }),
    'read',
  ),
};
