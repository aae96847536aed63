// FCALL_RO as the hosted service answers it: a function that only reads may be called read-only even when
// its library does not flag it `no-writes`; a write inside fails ("Write commands are not allowed from
// read-only scripts"). Redis 7.0 refuses every such call up front ("Can not execute a script with write
// flag using *_ro command"). On that answer the bridge runs the function's library code once more as a
// read-only script (EVALSHA_RO, as the caller's user): a wrapper catches `redis.register_function` and calls
// the function with the keys and arguments, so Redis itself enforces "reads only" — with its own error.
import type { RedisConnection } from './connection';
import type { BridgeScripts } from './scripts';
import type { RespArg, RespValue } from './resp';
import { encodeCommands, RespError } from './resp';

export const WRITE_FLAG_ERROR = 'ERR Can not execute a script with write flag using *_ro command.';

function text(arg: RespArg | RespValue | undefined): string {
  if (Buffer.isBuffer(arg)) return arg.toString('utf8');
  return typeof arg === 'string' ? arg : '';
}

/** The library code of the function `name` (FUNCTION LIST WITHCODE, as the admin user), or undefined. */
async function libraryCode(admin: RedisConnection, name: string): Promise<string | undefined> {
  const list = await admin.call(['FUNCTION', 'LIST', 'WITHCODE']);
  if (!Array.isArray(list)) return undefined;
  for (const library of list) {
    if (!Array.isArray(library)) continue;
    const fields = new Map<string, RespValue>();
    for (let i = 0; i + 1 < library.length; i += 2) fields.set(text(library[i]), library[i + 1]!);
    const functions = fields.get('functions');
    if (!Array.isArray(functions)) continue;
    const has = functions.some((f) => {
      if (!Array.isArray(f)) return false;
      for (let i = 0; i + 1 < f.length; i += 2)
        if (text(f[i]) === 'name' && text(f[i + 1]) === name) return true;
      return false;
    });
    if (has) return text(fields.get('library_code'));
  }
  return undefined;
}

/**
 * The library as a read-only script. ARGV is the client's FCALL_RO command (name, function, numkeys, keys,
 * arguments), so MONITOR can show it as sent. The library's first line (`#!lua name=…`) is dropped.
 */
function wrapper(code: string): string {
  const body = code.replace(/^#![^\n]*\n?/, '');
  return [
    '-- Switchyard: FCALL_RO of a function its library does not flag no-writes, run read-only.',
    'local __functions = {}',
    'local redis = setmetatable({',
    '  register_function = function(a, b)',
    "    if type(a) == 'table' then __functions[a.function_name] = a.callback else __functions[a] = b end",
    '  end,',
    '}, { __index = redis })',
    'do',
    body,
    'end',
    'local __f = __functions[ARGV[2]]',
    "if not __f then return redis.error_reply('ERR Function not found') end",
    'local __args = {}',
    'for i = 4 + tonumber(ARGV[3]), #ARGV do __args[#__args + 1] = ARGV[i] end',
    'return __f(KEYS, __args)',
  ].join('\n');
}

/**
 * Runs `FCALL_RO name numkeys keys… args…` read-only on `connection` (the caller's). Returns the reply, or
 * the original refusal when the function cannot be found.
 */
export async function fcallReadOnly(
  connection: RedisConnection,
  admin: () => Promise<RedisConnection>,
  scripts: BridgeScripts,
  args: readonly RespArg[],
  refusal: RespValue,
): Promise<RespValue> {
  const numkeys = Number(text(args[2]));
  if (!Number.isInteger(numkeys) || numkeys < 0 || args.length < 3 + numkeys) return refusal;
  const code = await libraryCode(await admin(), text(args[1]));
  if (code === undefined) return refusal;
  const sha = scripts.register(wrapper(code));
  const call = (): Promise<RespValue> =>
    connection
      .send(encodeCommands([['EVALSHA_RO', sha, String(numkeys), ...args.slice(3, 3 + numkeys), ...args]]), 1)
      .then((r) => r.values[0]!);
  let reply = await call();
  if (reply instanceof RespError && reply.message.startsWith('NOSCRIPT')) {
    await scripts.load(sha);
    reply = await call();
  }
  return reply;
}
