// The start of the JSON script: names, loading and saving a document, and the fast paths (JSON.GET of the
// root, TYPE) that answer before the rest of the script is even defined. Lua source; see script.ts.
export const LUA_PRELUDE = String.raw`
-- Switchyard KV: the JSON.* commands (RedisJSON as the hosted service answers them), TYPE and SCAN … TYPE
-- for JSON keys, as one Lua script the bridge runs with EVALSHA (writes) or EVALSHA_RO (reads), so every
-- command is atomic inside redis-server. ARGV is the client's command as sent: ARGV[1] the name, then its
-- arguments (keys included; KEYS repeats the keys for ACL key checks). A JSON document is a hash with the
-- single field "ReJSON-RL" holding its compact JSON text; see docs/stack-kv.md ("JSON").
local FIELD = 'ReJSON-RL'
local WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value'
local NO_KEY = "ERR could not perform this operation on a key that doesn't exist"
local A = ARGV
local NAME = string.upper(A[1])
local NARGS = #A - 1
local rcall, rpcall = redis.call, redis.pcall
local byte, sub, find, format, gsub, rep, lower, upper, char =
  string.byte, string.sub, string.find, string.format, string.gsub, string.rep, string.lower, string.upper, string.char
local concat, tinsert, tremove = table.concat, table.insert, table.remove

-- Errors travel as {e = text} and become error replies at the end; anything else is a bug in this script.
local function fail(text) error({ e = text }, 0) end

local function arity() fail("ERR wrong number of arguments for '" .. lower(A[1]) .. "' command") end

--- The document's text, nil when the key does not exist; WRONGTYPE for a key that is not JSON.
local function load(key)
  local v = rpcall('HGET', key, FIELD)
  if type(v) == 'table' then fail(v.err) end
  if v then return v end
  if rcall('EXISTS', key) == 1 then fail(WRONGTYPE) end
  return nil
end

local function save(key, text) rcall('HSET', key, FIELD, text) end

local function main_fast()
  -- The common reads need no parsing: the stored text is already compact JSON.
  if NAME == 'JSON.GET' and NARGS <= 2 then
    local p = A[3]
    if p == nil or p == '.' or p == '$' then
      local text = load(A[2])
      if not text then return false end
      if p == '$' then return '[' .. text .. ']' end
      return text
    end
  elseif NAME == 'TYPE' then
    local t = rpcall('TYPE', A[2])
    if t.err then return t end
    if t.ok == 'hash' and rcall('HEXISTS', A[2], FIELD) == 1 then return { ok = 'ReJSON-RL' } end
    return t
  end
  return nil
end

local function reply_error(err)
  if type(err) == 'table' and err.e then return redis.error_reply(err.e) end
  if type(err) == 'table' and err.err then return redis.error_reply(err.err) end
  return redis.error_reply('ERR internal error in the JSON script: ' .. tostring(err))
end

do
  local ok, r = pcall(main_fast)
  if not ok then return reply_error(r) end
  if r ~= nil then return r end
end
`;
