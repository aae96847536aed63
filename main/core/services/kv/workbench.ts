// Workbench handlers: commands and scripts in the chosen reply format, pipelines and transactions, the
// per-profile history and command docs. Every request goes through KvClient; the safety checks in
// guard.ts run first.
import type {
  KvPipelineResult,
  KvCommandResult,
  kvWorkbenchProcedures,
} from '../../../../shared/bridge/procedures/kv/workbench';
import { parseResp2, resp2ToPlain } from '../../../../shared/kv/resp2';
import { BridgeError } from '../../../../shared/bridge/errors';
import type { Handlers } from '../../bridge/router';
import type { ProfilesService } from '../../profiles/profiles-service';
import { KvClient } from './client';
import { commandDocs } from './command-docs';
import { guardCommands } from './guard';
import type { KvHistoryStore } from './history-store';

type Names = keyof typeof kvWorkbenchProcedures;
type KvPipelineEntry = Extract<KvPipelineResult, { entries: unknown }>['entries'][number];

export function kvWorkbenchHandlers({
  profiles,
  history,
}: {
  profiles: Pick<ProfilesService, 'resolve'>;
  history: KvHistoryStore;
}): Pick<Handlers, Names> {
  const textOf = (commands: string[][], text?: string) =>
    text ?? commands.map((args) => args.join(' ')).join('\n');

  return {
    'kv.info': ({ profileId }) => {
      const profile = profiles.resolve(profileId);
      const client = new KvClient(profile);
      return {
        access: client.access,
        hasStandardToken: Boolean(profile.secret('kvToken')),
        hasReadOnlyToken: Boolean(profile.secret('kvReadOnlyToken')),
      };
    },

    'kv.run': async ({ profileId, commands, format, text, confirmed }) => {
      const profile = profiles.resolve(profileId);
      const client = new KvClient(profile);
      guardCommands(profile, client.access, commands, confirmed);
      const results: KvCommandResult[] = [];
      let skipped = 0;
      for (let i = 0; i < commands.length; i += 1) {
        const args = commands[i]!;
        try {
          if (format === 'resp2') {
            const raw = await client.commandRaw(args);
            const error =
              raw.error ?? (raw.bytes[0] === 0x2d ? raw.bytes.toString('utf8', 1).trim() : undefined);
            results.push({ args, ok: !error, error, ms: raw.ms, raw: raw.bytes.toString('base64') });
          } else {
            const reply = await client.command(args, format);
            results.push(
              reply.ok
                ? { args, ok: true, result: reply.result, ms: reply.ms }
                : { args, ok: false, error: reply.error, ms: reply.ms },
            );
          }
        } catch (error) {
          // The request failed as a whole (bad token, unreachable): later commands would fail the same way.
          if (!(error instanceof BridgeError)) throw error;
          results.push({ args, ok: false, error: error.message, ms: 0 });
          skipped = commands.length - i - 1;
          break;
        }
      }
      history.add(profileId, {
        text: textOf(commands, text),
        kind: 'command',
        ok: results.every((r) => r.ok) && skipped === 0,
      });
      return { results, access: client.access, skipped };
    },

    'kv.pipeline': async ({ profileId, mode, rows, format, text, confirmed }) => {
      const profile = profiles.resolve(profileId);
      const client = new KvClient(profile);
      guardCommands(profile, client.access, rows, confirmed);
      const record = (ok: boolean) => history.add(profileId, { text: textOf(rows, text), kind: mode, ok });
      if (mode === 'transaction') {
        // Transactions always answer JSON; resp2 falls back to JSON rather than failing.
        const reply = await client.multiExec(rows, format === 'base64' ? 'base64' : 'json');
        if ('discarded' in reply) {
          record(false);
          return { mode, ms: reply.ms, discarded: reply.discarded };
        }
        record(reply.entries.every((entry) => entry.error === undefined));
        return { mode, ms: reply.ms, entries: reply.entries };
      }
      if (format === 'resp2') {
        const raw = await client.pipelineRaw(rows);
        if (raw.error)
          throw new BridgeError({ code: 'SERVICE_ERROR', status: raw.status, message: raw.error });
        const entries = rawEntries(raw.bytes);
        record(entries.every((entry) => entry.error === undefined));
        return { mode, ms: raw.ms, entries, raw: raw.bytes.toString('base64') };
      }
      const reply = await client.pipeline(rows, format);
      record(reply.entries.every((entry) => entry.error === undefined));
      return { mode, ms: reply.ms, entries: reply.entries };
    },

    'kv.history.list': ({ profileId }) => history.list(profileId),
    'kv.history.clear': ({ profileId }) => ({ cleared: history.clear(profileId) }),
    'kv.commandDocs': ({ profileId }) => commandDocs(new KvClient(profiles.resolve(profileId))),
  };
}

/** Per-row results of a RESP2 pipeline, read with the same parser the renderer's raw view uses. */
function rawEntries(bytes: Buffer): KvPipelineEntry[] {
  return parseResp2(bytes).map(({ value }) =>
    value.kind === 'error' ? { error: value.text } : { result: resp2ToPlain(value) },
  );
}
