// Command docs for the workbench's autocomplete: the server's own `COMMAND DOCS` when it answers (a
// self-hosted server with modules knows commands our table does not), the bundled table otherwise (the
// hosted service and read-only tokens refuse COMMAND). The server's docs are cached per URL.
import { BUNDLED_COMMAND_DOCS, type CommandDoc } from '../../../../shared/kv/commands';
import type { KvClient } from './client';

const cache = new Map<string, CommandDoc[]>();

export async function commandDocs(
  client: KvClient,
): Promise<{ source: 'server' | 'bundled'; docs: CommandDoc[] }> {
  const url = client.url('/');
  const cached = cache.get(url);
  if (cached) return { source: 'server', docs: cached };
  const reply = await client.command(['COMMAND', 'DOCS']).catch(() => undefined);
  if (reply?.ok && Array.isArray(reply.result) && reply.result.length > 0) {
    const docs = parseCommandDocs(reply.result);
    if (docs.length > 0) {
      cache.set(url, docs);
      return { source: 'server', docs };
    }
  }
  return { source: 'bundled', docs: [...BUNDLED_COMMAND_DOCS.values()] };
}

/** `COMMAND DOCS` in RESP2: a flat list `name, [field, value, …]`, arguments nested the same way. */
export function parseCommandDocs(result: unknown[]): CommandDoc[] {
  const docs: CommandDoc[] = [];
  for (let i = 0; i + 1 < result.length; i += 2) {
    const name = String(result[i]).toUpperCase();
    const fields = pairs(result[i + 1]);
    const bundled = BUNDLED_COMMAND_DOCS.get(name);
    const subcommands = pairs(fields.subcommands);
    // Container commands (CONFIG, XGROUP…) list their subcommands instead of arguments.
    const args = Object.keys(subcommands).length
      ? Object.keys(subcommands)
          .map((sub) => sub.split('|')[1]?.toUpperCase() ?? sub)
          .join('|')
      : syntax(fields.arguments);
    docs.push({
      name,
      args: args || bundled?.args || '',
      summary: typeof fields.summary === 'string' ? fields.summary : (bundled?.summary ?? ''),
      group: typeof fields.group === 'string' ? fields.group : (bundled?.group ?? ''),
      write: bundled?.write ?? true,
    });
  }
  return docs.sort((a, b) => a.name.localeCompare(b.name));
}

function pairs(value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Array.isArray(value)) return out;
  for (let i = 0; i + 1 < value.length; i += 2) out[String(value[i])] = value[i + 1];
  return out;
}

function syntax(argumentsList: unknown): string {
  if (!Array.isArray(argumentsList)) return '';
  return argumentsList.map((arg) => argumentSyntax(pairs(arg))).join(' ');
}

function argumentSyntax(arg: Record<string, unknown>): string {
  const flags = Array.isArray(arg.flags) ? arg.flags.map(String) : [];
  let text: string;
  if (arg.type === 'oneof') {
    text = (Array.isArray(arg.arguments) ? arg.arguments : [])
      .map((inner) => argumentSyntax(pairs(inner)))
      .join('|');
  } else if (arg.type === 'block') {
    text = syntax(arg.arguments);
  } else if (arg.type === 'pure-token') {
    text = String(arg.token ?? arg.name);
  } else {
    text = String(arg.name ?? '?');
  }
  if (arg.token && arg.type !== 'pure-token') text = `${String(arg.token)} ${text}`;
  if (flags.includes('multiple')) text = `${text} [${text} …]`;
  if (flags.includes('optional')) text = `[${text}]`;
  return text;
}
