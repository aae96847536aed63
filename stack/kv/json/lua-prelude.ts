// The start of the JSON script: names, loading and saving a document, and the fast paths (JSON.GET of the
// root, JSON.SET of a whole document already in stored form, TYPE, the newer Redis commands of lua-newer.ts)
// that answer before the rest of the script is even defined. Lua source; see script.ts.
import { LUA_NEWER } from './lua-newer';

export const LUA_PRELUDE = String.raw`
-- Switchyard KV: the JSON.* commands (RedisJSON as the hosted service answers them), TYPE and SCAN … TYPE
-- for JSON keys (and Redis 8.2's XDELEX, XACKDEL and new BITOP operations for an older
-- redis-server), as one Lua script the bridge runs with EVALSHA (writes) or EVALSHA_RO (reads), so every
-- command is atomic inside redis-server. ARGV is the
-- client's command as sent: ARGV[1] the name, then its arguments (keys included; KEYS repeats the keys for
-- ACL key checks). A JSON document is a hash with the single field "ReJSON-RL" holding its compact JSON
-- text; see docs/stack-kv.md ("JSON").
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

-- Whether s is a JSON text that the parser (lua-values) accepts and that the encoder would write back byte
-- for byte: no whitespace, strings with only the escapes the encoder itself writes (\" \\ \b \f \n \r \t),
-- numbers the parser keeps, no repeated key, nesting within the parser's limit. What the SDK sends
-- (JSON.stringify's output) is such a text, so JSON.SET of a whole document can store it as it came,
-- without building the document and encoding it again. false means "not known": the full parser then
-- reads the text and words any error (a test compares both on many texts, json-whole-document.test.ts).
local function stored_as_sent(s)
  local function str(i)
    -- Most strings have no escape: one match to their closing quote.
    local _, e = find(s, '^[^%z\1-\31"\\]*"', i + 1)
    if e then return e + 1 end
    local j = i + 1
    while true do
      local k = find(s, '[%z\1-\31"\\]', j)
      if not k then return nil end
      local c = byte(s, k)
      if c == 34 then return k + 1 end
      if c ~= 92 then return nil end
      local esc = byte(s, k + 1)
      if esc ~= 34 and esc ~= 92 and esc ~= 98 and esc ~= 102 and esc ~= 110 and esc ~= 114 and esc ~= 116 then
        return nil
      end
      j = k + 2
    end
  end
  local value
  value = function(i, depth)
    local c = byte(s, i)
    if c == 34 then return str(i) end
    if c == 123 or c == 91 then
      if depth >= 128 then return nil end -- the parser's MAX_DEPTH: it words the error
      local close = c + 2 -- } or ]
      i = i + 1
      if byte(s, i) == close then return i + 1 end
      local seen = c == 123 and {} or nil
      while true do
        if seen then
          if byte(s, i) ~= 34 then return nil end
          local e = str(i)
          if not e or byte(s, e) ~= 58 then return nil end
          -- Keys with only these escapes are equal exactly when their texts are.
          local key = sub(s, i, e - 1)
          if seen[key] then return nil end
          seen[key] = true
          i = e + 1
        end
        i = value(i, depth + 1)
        if not i then return nil end
        local d = byte(s, i)
        if d == close then return i + 1 end
        if d ~= 44 then return nil end
        i = i + 1
      end
    end
    if c == 116 then return find(s, '^true', i) and i + 4 or nil end
    if c == 102 then return find(s, '^false', i) and i + 5 or nil end
    if c == 110 then return find(s, '^null', i) and i + 4 or nil end
    local _, e = find(s, '^-?%d+', i)
    if not e then return nil end
    local first = c == 45 and i + 1 or i
    if byte(s, first) == 48 and e > first then return nil end -- a leading zero: the parser's error
    local j = e + 1
    if byte(s, j) == 46 then
      _, e = find(s, '^%d+', j + 1)
      if not e then return nil end
      j = e + 1
    end
    c = byte(s, j)
    if c == 101 or c == 69 then
      _, e = find(s, '^[-+]?%d+', j + 1)
      if not e then return nil end
      j = e + 1
      local n = tonumber(sub(s, i, j - 1))
      if n == math.huge or n == -math.huge then return nil end
    elseif j - i > 300 then
      return nil -- as long as that, it may be out of range: the parser's check
    end
    return j
  end
  return value(1, 0) == #s + 1
end

${LUA_NEWER}
local function main_fast()
  local newer = newer_command()
  if newer ~= nil then return newer end
  -- The common reads need no parsing: the stored text is already compact JSON.
  if NAME == 'JSON.GET' and NARGS <= 2 then
    local p = A[3]
    if p == nil or p == '.' or p == '$' then
      local text = load(A[2])
      if not text then return false end
      if p == '$' then return '[' .. text .. ']' end
      return text
    end
  elseif NAME == 'JSON.SET' and NARGS == 3 and (A[3] == '$' or A[3] == '.') and stored_as_sent(A[4]) then
    -- The most common write: a whole document, without NX or XX, in the form it is stored in.
    load(A[2]) -- WRONGTYPE for a key that is not JSON
    save(A[2], A[4])
    return { ok = 'OK' }
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
