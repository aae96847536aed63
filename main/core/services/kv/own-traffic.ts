// Recognising the console's own commands in a MONITOR stream.
//
// The REST API gives no way to mark a request: the hosted service masks client addresses (`0.0.0.0:0`),
// the local stack names only the caller's IP and token user (the console and an app on this computer look
// the same), CLIENT SETNAME is refused, and a marker command (say an ECHO before
// each request) would be billed and could be interleaved with other clients' commands anyway. But main
// knows exactly what it sends. So while a monitor is open on a KV URL, every command main's KvClient sends
// there is noted as the text MONITOR will show for it (`"SET" "k" "v"`, quoted as Redis quotes), and each
// monitor line whose command part matches a noted entry consumes it and is tagged as own. Nothing changes
// on the wire, it works the same against the cloud, and a line is tagged at most once per command sent —
// an identical command from another client at the same moment is the only way to mis-tag, and then only
// one of the two lines. Entries older than a minute are forgotten (a line that never came, e.g. a request
// refused before it reached Redis), and at most 100,000 are kept per URL.
import { quoteCommand } from '../../../../shared/kv/monitor';

type Args = readonly (string | number | Uint8Array)[];

const TTL_MS = 60_000;
const MAX_ENTRIES = 100_000;

interface Entry {
  count: number;
  /** Most recent note: an entry is forgotten TTL_MS after it was last noted. */
  at: number;
}

class Watched {
  watchers = 0;
  readonly entries = new Map<string, Entry>();
  size = 0;
}

export class OwnTraffic {
  private readonly byUrl = new Map<string, Watched>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Notes commands about to be sent to `url` (a no-op unless a monitor is watching that URL). */
  note(url: string, commands: readonly Args[]): void {
    const watched = this.byUrl.get(normalize(url));
    if (!watched) return;
    const at = this.now();
    for (const args of commands) {
      const key = quoteCommand(args);
      const entry = watched.entries.get(key);
      if (entry) {
        entry.count++;
        entry.at = at;
        // Keep insertion order = age order, so the oldest entries are the first ones.
        watched.entries.delete(key);
        watched.entries.set(key, entry);
      } else watched.entries.set(key, { count: 1, at });
      watched.size++;
    }
    this.prune(watched, at);
  }

  /** Whether a monitor is watching `url` (callers skip working out what they send when none is). */
  watching(url: string): boolean {
    return this.byUrl.has(normalize(url));
  }

  /** Starts watching `url`; the returned matcher tags lines, `close()` stops watching. */
  watch(url: string): { isOwn(command: string): boolean; close(): void } {
    const key = normalize(url);
    let watched = this.byUrl.get(key);
    if (!watched) {
      watched = new Watched();
      this.byUrl.set(key, watched);
    }
    watched.watchers++;
    const w = watched;
    let closed = false;
    return {
      isOwn: (command) => {
        const entry = w.entries.get(command);
        if (!entry) return false;
        w.size--;
        if (--entry.count === 0) w.entries.delete(command);
        return true;
      },
      close: () => {
        if (closed) return;
        closed = true;
        if (--w.watchers === 0) this.byUrl.delete(key);
      },
    };
  }

  private prune(watched: Watched, now: number): void {
    for (const [key, entry] of watched.entries) {
      if (watched.size <= MAX_ENTRIES && now - entry.at <= TTL_MS) break;
      watched.entries.delete(key);
      watched.size -= entry.count;
    }
  }
}

/**
 * The commands a KV REST request runs, from its path and JSON body, in the order MONITOR shows them:
 * `/` one command, `/pipeline` its rows, `/multi-exec` its rows between the MULTI and EXEC the service
 * sends, `/subscribe/<channel>` and `/psubscribe/<pattern>` the SUBSCRIBE the service sends.
 */
export function commandsOf(path: string, body?: string): Args[] {
  const stream = /^\/(p?subscribe)\/(.+)$/.exec(path);
  if (stream) return [[stream[1]!.toUpperCase(), safeDecode(stream[2]!)]];
  if (body === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  if (path === '/' || path === '') return [parsed.map(String)];
  const rows = parsed.filter(Array.isArray).map((row: unknown[]) => row.map(String));
  if (path === '/multi-exec') return [['MULTI'], ...rows, ['EXEC']];
  if (path === '/pipeline') return rows;
  return [];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function normalize(url: string): string {
  return url.replace(/\/+$/, '').toLowerCase();
}

/**
 * The one registry for the process: every KvClient notes into it and every monitor watches it, whatever
 * profile or handler created them (two profiles on the same URL share what they send).
 */
export const ownTraffic = new OwnTraffic();
