// Redis's own hash reads asked as the caller's own commands, for an ACL user (ACL RESTTOKEN) who may run
// them but not the script (EVALSHA_RO, or TIME inside it): Redis then decides by the user's rules, as it
// would without the bridge (execute.ts). The script's bookkeeping field must still not show; expired fields
// do, until the sweeper has deleted them (docs/stack-kv.md).
import type { RedisConnection } from '../connection';
import type { RespArg, RespValue } from '../resp';
import { RespError } from '../resp';

/** The hash field in which the script keeps a hash's field times (lua.ts `META`; a test checks they agree). */
export const BOOKKEEPING_FIELD = Buffer.from('\0switchyard:field-expiry\0', 'latin1');

function isBookkeeping(value: RespValue | RespArg | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (Buffer.isBuffer(value)) return value.equals(BOOKKEEPING_FIELD);
  return typeof value === 'string' && value === BOOKKEEPING_FIELD.toString('latin1');
}

/** `[field, value, …]` without the bookkeeping pair. */
function withoutBookkeepingPairs(flat: RespValue[]): RespValue[] {
  const out: RespValue[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    if (!isBookkeeping(flat[i])) out.push(flat[i]!, flat[i + 1]!);
  }
  return out;
}

/** The reply to hash read `name` (lower case) asked as the user's own command, the bookkeeping left out. */
export async function plainHashRead(
  connection: RedisConnection,
  args: readonly RespArg[],
  name: string,
): Promise<RespValue> {
  const key = args[1];
  switch (name) {
    case 'hget':
    case 'hexists':
    case 'hstrlen':
      if (args.length === 3 && isBookkeeping(args[2])) return name === 'hget' ? null : 0;
      return connection.call(args);
    case 'hmget': {
      const reply = await connection.call(args);
      if (!Array.isArray(reply)) return reply;
      return reply.map((value, i) => (isBookkeeping(args[i + 2]) ? null : value));
    }
    case 'hgetall': {
      const reply = await connection.call(args);
      return Array.isArray(reply) ? withoutBookkeepingPairs(reply) : reply;
    }
    case 'hkeys': {
      const reply = await connection.call(args);
      return Array.isArray(reply) ? reply.filter((field) => !isBookkeeping(field)) : reply;
    }
    case 'hvals': {
      // Which value is the bookkeeping's shows only next to its field: asked as HGETALL (the user's rules
      // apply to that; refused, the values could not be told apart).
      if (args.length !== 2) return connection.call(args);
      const reply = await connection.call(['HGETALL', key!]);
      if (!Array.isArray(reply)) {
        return reply instanceof RespError
          ? new RespError("NOPERM this user has no permissions to run the 'hvals' command")
          : reply;
      }
      return withoutBookkeepingPairs(reply).filter((_, i) => i % 2 === 1);
    }
    case 'hlen': {
      const reply = await connection.call(args);
      if (typeof reply !== 'number' || reply === 0) return reply;
      const hidden = await connection.call(['HEXISTS', key!, BOOKKEEPING_FIELD]);
      return hidden === 1 ? reply - 1 : reply;
    }
    case 'hscan': {
      const reply = await connection.call(args);
      if (!Array.isArray(reply) || !Array.isArray(reply[1])) return reply;
      return [reply[0]!, withoutBookkeepingPairs(reply[1])];
    }
    case 'hrandfield': {
      const reply = await connection.call(args);
      if (!Array.isArray(reply)) return isBookkeeping(reply) ? null : reply;
      const withValues = args.length === 4;
      return withValues ? withoutBookkeepingPairs(reply) : reply.filter((field) => !isBookkeeping(field));
    }
    default:
      return connection.call(args);
  }
}
