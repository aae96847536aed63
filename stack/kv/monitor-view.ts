// MONITOR lines as the REST API shows them. Redis's own line for every command, except:
// - a command a REST caller sent names that caller — its IP and the token's user, `127.0.0.1 read-only`
//   (client-labels.ts); any other client's address is masked as the hosted service does (`0.0.0.0:0`), and
//   `lua` is kept;
// - AUTH lines are left out (they include the bridge's own logins);
// - a command the bridge ran as one of its scripts (JSON.*, TYPE, SCAN … TYPE, FCALL_RO of a function not
//   flagged no-writes) shows as the command the client sent — `"JSON.SET" "k" "$" "{}"`, not
//   `"EVALSHA" "<sha>" "1" "k" "JSON.SET" …` — and the script's own commands (the `lua` lines right after it,
//   Redis writes them after the script's line) are left out;
// - the bridge's own housekeeping (the field expiry sweeper's `SWITCHYARD.*` calls) is left out, as Redis
//   leaves out its own expiry;
// - SEARCH.*, which the bridge answers itself (search/), shows as the command the client sent — the bridge
//   runs a no-op script of its own with the command as its arguments on the caller's connection;
// - the bridge's own questions to Redis — the reads the search emulation makes to answer a SEARCH command,
//   the key size limit's `COMMAND GETKEYS` (key-size.ts) — are left out, scripts and all: they run on
//   connections `ClientLabels.hide` marked.
import type { ClientLabels } from './client-labels';
import type { BridgeScripts } from './scripts';

const MONITOR_LINE = /^(\d+\.\d+ \[\d+ )([^\]]*)(\] )([\s\S]*)$/;

/** Where the quoted argument starting at `pos` (a `"`) ends: the index after its closing quote. */
function argEnd(text: string, pos: number): number {
  for (let i = pos + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92)
      i++; // backslash: skip the escaped character (\xHH's digits are plain characters)
    else if (c === 34) return i + 1;
  }
  return -1;
}

/**
 * `"EVALSHA" "<sha>" "<n>" <n keys> <command…>` of one of the bridge's scripts → `<command…>` (the script's
 * arguments are the client's command as sent, see json/commands.ts). Undefined for any other line.
 */
export function ownScriptCommand(command: string, scripts: Pick<BridgeScripts, 'isOwn'>): string | undefined {
  const head = command.slice(0, 12).toLowerCase();
  if (!head.startsWith('"evalsha" ') && !head.startsWith('"evalsha_ro"')) return undefined;
  let pos = argEnd(command, 0) + 1;
  const shaEnd = argEnd(command, pos);
  if (shaEnd < 0 || !scripts.isOwn(command.slice(pos + 1, shaEnd - 1))) return undefined;
  pos = shaEnd + 1;
  const countEnd = argEnd(command, pos);
  const keys = Number(command.slice(pos + 1, countEnd - 1));
  if (countEnd < 0 || !Number.isInteger(keys)) return undefined;
  pos = countEnd + 1;
  for (let k = 0; k < keys; k++) {
    const end = argEnd(command, pos);
    if (end < 0) return undefined;
    pos = end + 1;
  }
  return pos < command.length ? command.slice(pos) : undefined;
}

/** Turns one MONITOR stream's raw lines into what its client sees (state: inside a bridge script). */
export class MonitorView {
  private insideOwnScript = false;

  constructor(
    private readonly scripts: Pick<BridgeScripts, 'isOwn'>,
    private readonly labels?: Pick<ClientLabels, 'of' | 'hidden'>,
  ) {}

  /** The line to send, or undefined to leave it out. */
  line(raw: string): string | undefined {
    const m = MONITOR_LINE.exec(raw);
    if (!m) return raw;
    let command = m[4]!;
    if (m[2] === 'lua') return this.insideOwnScript ? undefined : `${m[1]}lua${m[3]}${command}`;
    if (this.labels?.hidden(m[2]!)) {
      // Any `lua` lines right after it are its script's (a command that is not a script has none).
      this.insideOwnScript = true;
      return undefined;
    }
    this.insideOwnScript = false;
    if (command.length >= 6 && command.slice(0, 6).toLowerCase() === '"auth"') return undefined;
    const own = ownScriptCommand(command, this.scripts);
    if (own !== undefined) {
      this.insideOwnScript = true;
      if (own.startsWith('"SWITCHYARD.')) return undefined;
      command = own;
    }
    return `${m[1]}${this.labels?.of(m[2]!) ?? '0.0.0.0:0'}${m[3]}${command}`;
  }
}
