// `XREADGROUP … NOACK` without a consumer entry, as on the hosted service (the @upstash/redis suite reads with
// NOACK as a new consumer and expects `XINFO CONSUMERS` to be empty); Redis 7.0 creates the consumer. The bridge
// sends such a read as `EVALSHA <sha> <n> <the n streams> <the XREADGROUP as sent>`: the streams are the
// script's keys (so the key size limit's COMMAND GETKEYS and ACL key checks see them), and MONITOR shows the
// client's own XREADGROUP (monitor-view.ts). The script notes which streams' group lacks the consumer, runs the
// read, then deletes the consumer from those groups again: with NOACK the read added nothing to its pending
// entries, so nothing is lost. A read that is not well formed goes to Redis as sent, for Redis's own error.
import type { RespArg } from './resp';
import { sha1 } from './scripts';

export const XREADGROUP_NOACK_LUA = String.raw`
-- ARGV is the client's XREADGROUP; KEYS are its streams. Only its options (before STREAMS) are read here.
local A = ARGV
local group, consumer
local i = 2
while i <= #A do
  local word = string.lower(A[i])
  if word == 'streams' then break end
  if word == 'group' then
    group, consumer = A[i + 1], A[i + 2]
    i = i + 3
  elseif word == 'count' or word == 'block' then
    i = i + 2
  else
    i = i + 1
  end
end

--- Whether the group on 'key' has the consumer. A missing key or group (or an XINFO the user may not run)
--- counts as having it: nothing is deleted, and the read itself answers Redis's own error.
local function has_consumer(key)
  local consumers = redis.pcall('XINFO', 'CONSUMERS', key, group)
  if consumers.err then return true end
  for _, entry in ipairs(consumers) do
    for k = 1, #entry - 1, 2 do
      if entry[k] == 'name' and entry[k + 1] == consumer then return true end
    end
  end
  return false
end

local created = {}
local seen = {}
for _, key in ipairs(KEYS) do
  if not seen[key] then
    seen[key] = true
    if not has_consumer(key) then created[#created + 1] = key end
  end
end

local reply = redis.pcall(unpack(A))
if type(reply) == 'table' and reply.err then return reply end
for _, key in ipairs(created) do redis.pcall('XGROUP', 'DELCONSUMER', key, group, consumer) end
return reply
`;

export const XREADGROUP_NOACK_SHA = sha1(XREADGROUP_NOACK_LUA);

function word(arg: RespArg | undefined): string {
  if (arg === undefined) return '';
  return (typeof arg === 'string' ? arg : arg.toString('latin1')).toLowerCase();
}

/**
 * The script call to send instead of `args` (an XREADGROUP), or undefined to send it as it is: without NOACK,
 * with BLOCK (a script cannot block; the REST API refuses blocking reads anyway, policy.ts) and when the
 * command is not well formed (Redis's own error then). Options are read as Redis reads them: values skipped,
 * only words before STREAMS, so a stream, group or consumer named `NOACK` is not the option.
 */
export function noAckCall(args: readonly RespArg[]): RespArg[] | undefined {
  let noAck = false;
  let group = false;
  let i = 1;
  for (; i < args.length; i++) {
    const option = word(args[i]);
    if (option === 'streams') break;
    if (option === 'noack') noAck = true;
    else if (option === 'block') return undefined;
    else if (option === 'count') i += 1;
    else if (option === 'group') {
      if (i + 2 >= args.length) return undefined;
      group = true;
      i += 2;
    } else return undefined;
  }
  const rest = args.length - i - 1;
  if (!noAck || !group || i >= args.length || rest === 0 || rest % 2 !== 0) return undefined;
  const keys = args.slice(i + 1, i + 1 + rest / 2);
  return ['EVALSHA', XREADGROUP_NOACK_SHA, String(keys.length), ...keys, ...args];
}
