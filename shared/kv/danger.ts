// Which workbench commands ask before they run: the ones that destroy data wholesale, block the server or
// change its configuration. The renderer asks (type-the-profile-name on production); main refuses a
// dangerous command that arrives without the confirmation flag, so no front door can skip the question.

/** DEL/UNLINK of more keys than this counts as a bulk delete. */
export const MANY_KEYS = 10;

/** Why a command is dangerous, or undefined when it is not. */
export function dangerOf(args: readonly string[]): string | undefined {
  const name = (args[0] ?? '').toUpperCase();
  const sub = (args[1] ?? '').toUpperCase();
  switch (name) {
    case 'FLUSHALL':
      return 'FLUSHALL deletes every key of every database.';
    case 'FLUSHDB':
      return 'FLUSHDB deletes every key of the database.';
    case 'KEYS':
      return 'KEYS walks the whole keyspace in one call and blocks the server meanwhile; the key browser scans without blocking.';
    case 'DEL':
    case 'UNLINK':
      return args.length - 1 > MANY_KEYS
        ? `${name} of ${args.length - 1} keys deletes them all at once.`
        : undefined;
    case 'CONFIG':
      return sub === 'SET' || sub === 'RESETSTAT' || sub === 'REWRITE'
        ? `CONFIG ${sub} changes the server's configuration for every client.`
        : undefined;
    case 'SCRIPT':
      return sub === 'FLUSH'
        ? 'SCRIPT FLUSH removes every cached script; clients using EVALSHA start failing.'
        : undefined;
    case 'FUNCTION':
      return sub === 'FLUSH' ? 'FUNCTION FLUSH deletes every function library.' : undefined;
    case 'SWAPDB':
      return 'SWAPDB swaps two whole databases for every client.';
    case 'EVAL': {
      // A script is Lua text: one that names a wholesale command asks as that command would. (EVALSHA and
      // FCALL name a script by its digest or name; what it calls is not in the request.)
      const called = /\b(FLUSHALL|FLUSHDB|SWAPDB)\b/i.exec(args[1] ?? '')?.[1]?.toUpperCase();
      return called ? `The script calls ${called}: ${dangerOf([called, '0', '1'])}` : undefined;
    }
    case 'SEARCH.DROP':
      // One index, not data wholesale: the documents' keys stay and SEARCH.CREATE over the same prefixes
      // builds it again from them — less than a DEL of one key, which does not ask either.
      return undefined;
    case 'SHUTDOWN':
      return 'SHUTDOWN stops the server.';
    case 'DEBUG':
      return 'DEBUG can block, crash or corrupt the server.';
    default:
      return undefined;
  }
}

/** The dangers among several commands (a script, a pipeline), one line each, in order. */
export function dangersOf(commands: readonly (readonly string[])[]): string[] {
  const out: string[] = [];
  for (const args of commands) {
    const danger = dangerOf(args);
    if (danger) out.push(danger);
  }
  return out;
}
