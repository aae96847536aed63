// Hash-field expiry (Redis 7.4's HEXPIRE … HPERSIST, 8.0's HGETEX, HSETEX and HGETDEL) for a redis-server
// that lacks it, as one Lua script the bridge runs with EVALSHA (writes) or EVALSHA_RO (reads), so each
// command is atomic inside redis-server. ARGV is the client's command as sent (ARGV[1] its name); KEYS
// repeats the key for ACL key checks.
//
// Where the times live: inside the hash itself, in one extra field (META) holding a msgpack map field → unix
// ms. So DEL, RENAME, COPY, EXPIRE, DUMP/RESTORE and the AOF carry a hash's field times with it, and nothing
// outside the hash can go stale. The price: once a database has any field time, every hash command comes
// here (routing.ts) so that META stays hidden and an expired field is never seen. Reads (EVALSHA_RO, which
// may not write) leave expired fields in place and hide them; writes delete them first; the bridge's sweeper
// (sweeper.ts) deletes them on time, so a hash whose last field expired disappears as in Redis.
// Lua source; \96 is a backquote (this is a template literal).
export const HASH_EXPIRY_LUA = String.raw`
-- The bookkeeping field (plain-reads.ts BOOKKEEPING_FIELD names it too).
local META = '\0switchyard:field-expiry\0'
local JSON_FIELD = 'ReJSON-RL'
local WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value'
-- Redis's largest field time: 2^46 - 1 ms (HFE_MAX_ABS_TIME_MSEC in t_hash.c, its 48-bit limit shifted right
-- by 2, the two bits kept for later use).
local MAX_MS = 70368744177663
local A = ARGV
local NAME = string.upper(A[1])
local NARGS = #A - 1
local rcall, rpcall = redis.call, redis.pcall
local find, upper, lower = string.find, string.upper, string.lower
local floor = math.floor

-- Errors travel as {e = text} and become error replies at the end; anything else is a bug in this script.
local function fail(text) error({ e = text }, 0) end
local function arity() fail("ERR wrong number of arguments for '" .. lower(A[1]) .. "' command") end

--- Redis's clock in ms. An ACL user who may not run TIME gets a NOPERM, on which the bridge asks Redis's own
--- hash reads again as the user's own commands (execute.ts).
local function now_ms()
  local t = rpcall('TIME')
  if t.err then fail("NOPERM this user has no permissions to run the 'time' command") end
  return tonumber(t[1]) * 1000 + floor(tonumber(t[2]) / 1000)
end

--- A decimal integer as Redis's string2ll reads one (no spaces, no '+', no leading zero, no exponent; within
--- 64 bits), else Redis's error.
local function integer(s)
  local sign, digits = string.match(s or '', '^(%-?)([1-9]%d*)$')
  if s == '0' then return 0 end
  local limit = sign == '-' and '9223372036854775808' or '9223372036854775807'
  if not digits or #digits > 19 or (#digits == 19 and digits > limit) then
    fail('ERR value is not an integer or out of range')
  end
  return tonumber(s)
end

--- "ERR Number of <what> must be a positive integer" unless s is a decimal in 1 … 2^63 - 1.
local function positive_count(s, what)
  if not s or not find(s, '^[1-9]%d*$') or #s > 19 or (#s == 19 and s > '9223372036854775807') then
    fail('ERR Number of ' .. what .. ' must be a positive integer')
  end
  return tonumber(s)
end

-- Redis 5.1's unpack() stops at a few thousand values: long argument lists go to Redis in chunks (inside
-- one script, so still atomic).
local CHUNK = 2000

--- redis.call(head[1], head[2], items[from] … items[to]) in chunks of whole groups of size 'group';
--- each chunk's reply goes to 'each'.
local function call_chunked(head, items, group, each)
  local per = CHUNK - CHUNK % group
  for from = 1, #items, per do
    local args = { head[1], head[2] }
    for k = from, math.min(from + per - 1, #items) do args[#args + 1] = items[k] end
    each(rcall(unpack(args)))
  end
end

local function hdel_all(key, fields)
  local n = 0
  call_chunked({ 'HDEL', key }, fields, 1, function(r) n = n + r end)
  return n
end

--- Whether the key holds a hash: false when it does not exist; WRONGTYPE for any other type (a JSON
--- document is a hash underneath but not to its clients).
local function is_hash(key)
  local t = rcall('TYPE', key).ok
  if t == 'none' then return false end
  if t ~= 'hash' or rcall('HEXISTS', key, JSON_FIELD) == 1 then fail(WRONGTYPE) end
  return true
end

--- The hash's field times (field → unix ms), or nil when none has one; WRONGTYPE for a key of another type.
local function times_of(key)
  local packed = rpcall('HGET', key, META)
  if type(packed) == 'table' then fail(packed.err) end
  if not packed then return nil end
  return cmsgpack.unpack(packed)
end

--- Stores the times; with none left META goes (and with it the key, if META was all the hash had).
local function save_times(key, times)
  if next(times) == nil then
    rcall('HDEL', key, META)
  else
    rcall('HSET', key, META, cmsgpack.pack(times))
  end
end

--- Deletes the fields whose time has come (writes only). Returns the times left, nil when none are.
local function purge(key, times, now)
  if not times then return nil end
  local gone = {}
  for field, at in pairs(times) do
    if at <= now then gone[#gone + 1] = field end
  end
  if #gone == 0 then return times end
  for _, field in ipairs(gone) do times[field] = nil end
  hdel_all(key, gone)
  save_times(key, times)
  if next(times) == nil then return nil end
  return times
end

--- Whether a client may not see 'field': META itself, or a field whose time has come.
local function hidden(times, now, field)
  if field == META then return true end
  local at = times[field]
  return at ~= nil and at <= now
end

--- The 'FIELDS numfields field…' part at A[at]: the fields. 'count_error' replaces Redis's usual text for a
--- count that is not a positive integer (the HEXPIRE family words it its own way).
local function fields_at(at, count_error)
  if not A[at] or upper(A[at]) ~= 'FIELDS' then
    fail('ERR Mandatory argument FIELDS is missing or not at the right position')
  end
  local ok, n = pcall(positive_count, A[at + 1], 'fields')
  if not ok then fail(count_error or n.e) end
  if n ~= #A - at - 1 then
    fail('ERR The \96numfields\96 parameter must match the number of arguments')
  end
  local out = {}
  for k = at + 2, #A do out[#out + 1] = A[k] end
  return out
end

local function refuse_meta(fields, step)
  for k = 1, #fields, step do
    if fields[k] == META then fail('ERR this field name is reserved by the local stack') end
  end
end

local function repeat_value(n, v)
  local out = {}
  for k = 1, n do out[k] = v end
  return out
end

---------------------------------------------------------------------------------------------------------
-- Redis 7.4 and 8.0's commands.

--- An absolute time in ms from a relative or absolute time in the unit given, with Redis's checks
--- (parseExpireTime in t_hash.c): an integer, not negative, at most MAX_MS once absolute.
local function parse_time(text, unit_ms, absolute, now, command)
  local t = integer(text)
  if t < 0 then fail('ERR invalid expire time, must be >= 0') end
  local base = absolute and 0 or now
  if t > floor((MAX_MS - base) / unit_ms) then fail("ERR invalid expire time in '" .. command .. "' command") end
  return t * unit_ms + base
end

--- HEXPIRE's time. Its range is checked only for a hash that exists: the hosted service answers -2 for the
--- fields of a missing key whatever the time (the SDK's own tests give HEXPIREAT a time in ms).
local function expire_at(text, unit_ms, absolute, now, command, exists)
  if not exists then
    if integer(text) < 0 then fail('ERR invalid expire time, must be >= 0') end
    return 0
  end
  return parse_time(text, unit_ms, absolute, now, command)
end

local function hexpire(unit_ms, absolute)
  -- HEXPIRE key time [NX | XX | GT | LT] FIELDS numfields field…: per field -2 (no such field), 0 (the
  -- condition was not met), 1 (time set) or 2 (deleted: the time has passed). A field without a time
  -- counts as never expiring for GT and LT.
  if NARGS < 5 then arity() end
  local key = A[2]
  local exists = is_hash(key)
  local now = now_ms()
  local at = expire_at(A[3], unit_ms, absolute, now, lower(A[1]), exists)
  local condition = upper(A[4])
  local from = 4
  if condition == 'NX' or condition == 'XX' or condition == 'GT' or condition == 'LT' then
    from = 5
  else
    condition = nil
  end
  local fields = fields_at(from, 'ERR Parameter \96numFields\96 should be greater than 0')
  if not exists then return repeat_value(#fields, -2) end
  local times = purge(key, times_of(key), now) or {}
  local out = {}
  for k, field in ipairs(fields) do
    local current = times[field]
    if field == META or rcall('HEXISTS', key, field) == 0 then
      out[k] = -2
    elseif (condition == 'NX' and current)
      or (condition == 'XX' and not current)
      or (condition == 'GT' and (not current or at <= current))
      or (condition == 'LT' and current and at >= current) then
      out[k] = 0
    elseif at <= now then
      times[field] = nil
      rcall('HDEL', key, field)
      out[k] = 2
    else
      times[field] = at
      out[k] = 1
    end
  end
  if rcall('EXISTS', key) == 1 then save_times(key, times) end
  return out
end

local function httl(unit_ms, absolute)
  -- HTTL / HPTTL / HEXPIRETIME / HPEXPIRETIME key FIELDS numfields field…: per field -2 (no such field),
  -- -1 (no time), else the time left or the unix time (seconds rounded up).
  if NARGS < 4 then arity() end
  local key = A[2]
  local exists = is_hash(key)
  local fields = fields_at(3)
  if not exists then return repeat_value(#fields, -2) end
  local times, now = times_of(key) or {}, now_ms()
  local out = {}
  for k, field in ipairs(fields) do
    local at = times[field]
    if hidden(times, now, field) or rcall('HEXISTS', key, field) == 0 then
      out[k] = -2
    elseif not at then
      out[k] = -1
    else
      -- Seconds rounded up, the unix time (HEXPIRETIME) too: Redis's (expire + 999 - basetime) / 1000.
      out[k] = floor((at - (absolute and 0 or now) + unit_ms - 1) / unit_ms)
    end
  end
  return out
end

local function hpersist()
  -- HPERSIST key FIELDS numfields field…: per field -2 (no such field), -1 (no time), 1 (time removed).
  if NARGS < 4 then arity() end
  local key = A[2]
  local exists = is_hash(key)
  local fields = fields_at(3)
  if not exists then return repeat_value(#fields, -2) end
  local times = purge(key, times_of(key), now_ms()) or {}
  local out = {}
  for k, field in ipairs(fields) do
    if field == META or rcall('HEXISTS', key, field) == 0 then
      out[k] = -2
    elseif times[field] then
      times[field] = nil
      out[k] = 1
    else
      out[k] = -1
    end
  end
  if rcall('EXISTS', key) == 1 then save_times(key, times) end
  return out
end

-- HGETEX's and HSETEX's time options: unit in ms and whether the time is absolute.
local TIME_OPTIONS = { EX = { 1000, false }, PX = { 1, false }, EXAT = { 1000, true }, PXAT = { 1, true } }

--- HSETEX's options as Redis 8.0's hsetexParseArgs reads them, in any order up to FIELDS, before the key's
--- type is looked at: the absolute time (or 'KEEPTTL'), the condition (FNX / FXX), the field-value pairs.
--- Its texts: a second time option or condition, an unknown word, a count that is not 1 … 2^31 - 1 and a
--- count that does not match the pairs given (an arity error) each have their own.
local function hsetex_options(now)
  local when, condition
  local i = 3
  while A[i] do
    local word = upper(A[i])
    if word == 'FIELDS' then
      if i >= #A - 2 then arity() end
      local n = A[i + 1]
      if not find(n, '^[1-9]%d*$') or #n > 10 or tonumber(n) > 2147483647 then
        fail('ERR invalid number of fields')
      end
      local remaining = #A - i - 1
      if remaining % 2 ~= 0 or tonumber(n) ~= remaining / 2 then arity() end
      local pairs_ = {}
      for k = i + 2, #A do pairs_[#pairs_ + 1] = A[k] end
      return when, condition, pairs_
    elseif TIME_OPTIONS[word] or word == 'KEEPTTL' then
      if when then fail('ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified') end
      if word == 'KEEPTTL' then
        when = word
        i = i + 1
      else
        if not A[i + 1] then fail('ERR missing expire time') end
        local unit = TIME_OPTIONS[word]
        when = parse_time(A[i + 1], unit[1], unit[2], now, 'hsetex')
        i = i + 2
      end
    elseif word == 'FNX' or word == 'FXX' then
      if condition then fail('ERR Only one of FXX or FNX arguments can be specified') end
      condition = word
      i = i + 1
    else
      fail('ERR unknown argument: ' .. A[i])
    end
  end
  -- Not reached: with HSETEX's arity the options alone cannot use up the arguments.
  arity()
end

local function hgetex()
  -- HGETEX key [EX s | PX ms | EXAT t | PXAT t | PERSIST] FIELDS numfields field…: the values (nil for a
  -- missing field); the fields that exist get the time (deleted when it has passed) or lose theirs.
  if NARGS < 4 then arity() end
  local key = A[2]
  local exists = is_hash(key)
  local now = now_ms()
  -- As Redis 8.0's hgetexCommand: at most one option, right after the key, so anything else there (a second
  -- option too) leaves FIELDS "not at the right position"; a time of 0 or in the past is taken.
  local when, at = nil, 3
  local option = upper(A[3])
  if TIME_OPTIONS[option] then
    when = parse_time(A[4], TIME_OPTIONS[option][1], TIME_OPTIONS[option][2], now, 'hgetex')
    at = 5
  elseif option == 'PERSIST' then
    when, at = option, 4
  end
  local fields = fields_at(at)
  if not exists then return repeat_value(#fields, false) end
  local times = purge(key, times_of(key), now) or {}
  local out, deleted = {}, {}
  for k, field in ipairs(fields) do
    local v = field ~= META and rcall('HGET', key, field)
    out[k] = v
    if v then
      if when == 'PERSIST' then
        times[field] = nil
      elseif when and when <= now then
        times[field] = nil
        deleted[#deleted + 1] = field
      elseif when then
        times[field] = when
      end
    end
  end
  if #deleted > 0 then hdel_all(key, deleted) end
  if rcall('EXISTS', key) == 1 then save_times(key, times) end
  return out
end

local function hsetex()
  -- HSETEX key [FNX | FXX] [EX s | PX ms | EXAT t | PXAT t | KEEPTTL] FIELDS numfields field value…: 1 when
  -- the fields were set, 0 when the condition kept all of them from it (FNX: none may exist; FXX: all must).
  -- Without a time the fields lose theirs, as with HSET; KEEPTTL keeps them.
  if NARGS < 5 then arity() end
  local key = A[2]
  local now = now_ms()
  local when, condition, pairs_ = hsetex_options(now)
  local exists = is_hash(key)
  refuse_meta(pairs_, 2)
  local times = exists and purge(key, times_of(key), now) or {}
  if condition then
    for k = 1, #pairs_, 2 do
      local present = exists and rcall('HEXISTS', key, pairs_[k]) == 1
      if present == (condition == 'FNX') then return 0 end
    end
  end
  call_chunked({ 'HSET', key }, pairs_, 2, function() end)
  local fields = {}
  for k = 1, #pairs_, 2 do fields[#fields + 1] = pairs_[k] end
  if when and when ~= 'KEEPTTL' and when <= now then
    for _, field in ipairs(fields) do times[field] = nil end
    hdel_all(key, fields)
  elseif when ~= 'KEEPTTL' then
    for _, field in ipairs(fields) do times[field] = when end
  end
  if rcall('EXISTS', key) == 1 then save_times(key, times) end
  return 1
end

local function hgetdel()
  -- HGETDEL key FIELDS numfields field…: Redis 8.0's checks in its order (type, FIELDS, numfields), its
  -- texts; each field is read and then deleted, so a field named twice is nil the second time, and the key
  -- goes when its last field does.
  if NARGS < 4 then arity() end
  local key = A[2]
  local exists = is_hash(key)
  local fields = fields_at(3)
  if not exists then return repeat_value(#fields, false) end
  local times = purge(key, times_of(key), now_ms())
  local out = {}
  for k, field in ipairs(fields) do
    local v = field ~= META and rcall('HGET', key, field)
    if v then
      rcall('HDEL', key, field)
      if times then times[field] = nil end
    end
    out[k] = v
  end
  if times and rcall('EXISTS', key) == 1 then save_times(key, times) end
  return out
end

---------------------------------------------------------------------------------------------------------
-- Redis's own hash commands, on a hash that may hold field times.

--- The client's command as sent, in chunks where its argument list may be long; its reply.
local function as_sent()
  if NAME == 'HMGET' then
    if NARGS < 2 then arity() end
    local out = {}
    local fields = {}
    for k = 3, #A do fields[#fields + 1] = A[k] end
    call_chunked({ 'HMGET', A[2] }, fields, 1, function(r)
      for _, v in ipairs(r) do out[#out + 1] = v end
    end)
    return out
  end
  if (NAME == 'HSET' or NAME == 'HMSET' or NAME == 'HDEL') and #A > CHUNK then
    local items = {}
    for k = 3, #A do items[#items + 1] = A[k] end
    if NAME ~= 'HDEL' and #items % 2 == 1 then arity() end
    local n = 0
    call_chunked({ NAME, A[2] }, items, NAME == 'HDEL' and 1 or 2, function(r) n = n + (tonumber(r) or 0) end)
    if NAME == 'HMSET' then return { ok = 'OK' } end
    return n
  end
  local r = rpcall(unpack(A))
  if type(r) == 'table' and r.err then fail(r.err) end
  return r
end

--- Live field-value pairs of the hash (META and expired fields left out).
local function live_pairs(key, times, now)
  local all = rcall('HGETALL', key)
  local out = {}
  for k = 1, #all, 2 do
    if not hidden(times, now, all[k]) then
      out[#out + 1] = all[k]
      out[#out + 1] = all[k + 1]
    end
  end
  return out
end

local function every_other(list, first)
  local out = {}
  for k = first, #list, 2 do out[#out + 1] = list[k] end
  return out
end

local function hrandfield(key, times, now)
  -- HRANDFIELD key [count [WITHVALUES]] over the live fields: distinct fields for a positive count, |count|
  -- picks that may repeat for a negative one.
  if NARGS > 3 or (NARGS == 3 and upper(A[4]) ~= 'WITHVALUES') then fail('ERR syntax error') end
  local live = live_pairs(key, times, now)
  local n = #live / 2
  if NARGS == 1 then
    if n == 0 then return false end
    return live[2 * math.random(n) - 1]
  end
  local count = integer(A[3])
  local with_values = NARGS == 3
  local picks = {}
  if count >= 0 then
    local order = {}
    for k = 1, n do order[k] = k end
    for k = 1, math.min(count, n) do
      local j = math.random(k, n)
      order[k], order[j] = order[j], order[k]
      picks[k] = order[k]
    end
  elseif n > 0 then
    for k = 1, -count do picks[k] = math.random(n) end
  end
  local out = {}
  for _, k in ipairs(picks) do
    out[#out + 1] = live[2 * k - 1]
    if with_values then out[#out + 1] = live[2 * k] end
  end
  return out
end

local function hscan(key, times, now)
  local r = rpcall(unpack(A))
  if type(r) == 'table' and r.err then fail(r.err) end
  local keep = {}
  for k = 1, #r[2], 2 do
    if not hidden(times, now, r[2][k]) then
      keep[#keep + 1] = r[2][k]
      keep[#keep + 1] = r[2][k + 1]
    end
  end
  r[2] = keep
  return r
end

--- A hash command of Redis's own on a hash with field times; the field is A[3] where it names one.
local function with_times(key, times, now)
  if NAME == 'HGET' or NAME == 'HEXISTS' or NAME == 'HSTRLEN' then
    local r = as_sent()
    if not hidden(times, now, A[3]) then return r end
    if NAME == 'HGET' then return false end
    return 0
  elseif NAME == 'HMGET' then
    local out = as_sent()
    for k = 3, #A do
      if hidden(times, now, A[k]) then out[k - 2] = false end
    end
    return out
  elseif NAME == 'HGETALL' then
    return live_pairs(key, times, now)
  elseif NAME == 'HKEYS' then
    return every_other(live_pairs(key, times, now), 1)
  elseif NAME == 'HVALS' then
    return every_other(live_pairs(key, times, now), 2)
  elseif NAME == 'HLEN' then
    local n = rcall('HLEN', key) - 1
    for _, at in pairs(times) do
      if at <= now then n = n - 1 end
    end
    return n
  elseif NAME == 'HSCAN' then
    return hscan(key, times, now)
  elseif NAME == 'HRANDFIELD' then
    return hrandfield(key, times, now)
  end
  -- Writes: the expired fields are gone first (purge), so Redis's own command sees the live hash.
  local left = purge(key, times, now) or {}
  if NAME == 'HSET' or NAME == 'HMSET' then
    local r = as_sent()
    for k = 3, #A, 2 do left[A[k]] = nil end
    if rcall('EXISTS', key) == 1 then save_times(key, left) end
    return r
  elseif NAME == 'HDEL' then
    -- Never the bookkeeping itself.
    for k = #A, 3, -1 do
      if A[k] == META then table.remove(A, k) end
    end
    if NARGS >= 2 and #A == 2 then return 0 end
    local r = as_sent()
    for k = 3, #A do left[A[k]] = nil end
    if rcall('EXISTS', key) == 1 then save_times(key, left) end
    return r
  end
  -- HSETNX, HINCRBY, HINCRBYFLOAT: a field keeps its time.
  return as_sent()
end

-- Redis's arities (a negative one is a minimum): inside a script Redis words an arity error its own way.
local ARITY = {
  HGET = 3, HMGET = -3, HGETALL = 2, HKEYS = 2, HVALS = 2, HLEN = 2, HEXISTS = 3, HSTRLEN = 3, HSCAN = -3,
  HRANDFIELD = -2, HSET = -4, HMSET = -4, HSETNX = 4, HDEL = -3, HINCRBY = 4, HINCRBYFLOAT = 4,
}

local function hash_command()
  local n = ARITY[NAME]
  if not n or (n > 0 and #A ~= n) or (n < 0 and #A < -n) then arity() end
  local key = A[2]
  if NAME == 'HSET' or NAME == 'HMSET' or NAME == 'HSETNX' then
    local fields = {}
    for k = 3, #A, 2 do fields[#fields + 1] = A[k] end
    refuse_meta(fields, 1)
  end
  local times = times_of(key)
  if not times then
    if NAME == 'HGET' and A[3] == META then return false end
    return as_sent()
  end
  return with_times(key, times, now_ms())
end

---------------------------------------------------------------------------------------------------------
-- The bridge's own calls (sweeper.ts), as the admin user.

local function sweep()
  -- SWITCHYARD.SWEEP key…: deletes the fields whose time has come; per key the next field time, or -1
  -- when it has none (any more).
  local now = now_ms()
  local out = {}
  for k, key in ipairs(KEYS) do
    local ok, times = pcall(times_of, key)
    times = ok and purge(key, times, now) or nil
    local next_at = -1
    if times then
      for _, at in pairs(times) do
        if next_at < 0 or at < next_at then next_at = at end
      end
    end
    out[k] = next_at
  end
  return out
end

local function find_timed()
  -- SWITCHYARD.FIND cursor: one SCAN step over hashes; the cursor and the keys that hold field times.
  local r = rcall('SCAN', A[2], 'TYPE', 'hash', 'COUNT', 500)
  local keys = {}
  for _, key in ipairs(r[2]) do
    if rcall('HEXISTS', key, META) == 1 then keys[#keys + 1] = key end
  end
  return { r[1], keys }
end

local HANDLERS = {
  HEXPIRE = function() return hexpire(1000, false) end,
  HPEXPIRE = function() return hexpire(1, false) end,
  HEXPIREAT = function() return hexpire(1000, true) end,
  HPEXPIREAT = function() return hexpire(1, true) end,
  HTTL = function() return httl(1000, false) end,
  HPTTL = function() return httl(1, false) end,
  HEXPIRETIME = function() return httl(1000, true) end,
  HPEXPIRETIME = function() return httl(1, true) end,
  HPERSIST = hpersist,
  HGETEX = hgetex,
  HSETEX = hsetex,
  HGETDEL = hgetdel,
  ['SWITCHYARD.SWEEP'] = sweep,
  ['SWITCHYARD.FIND'] = find_timed,
}

local handler = HANDLERS[NAME] or hash_command
local ok, r = pcall(handler)
if ok then return r end
if type(r) == 'table' and r.e then return redis.error_reply(r.e) end
if type(r) == 'table' and r.err then return redis.error_reply(r.err) end
return redis.error_reply('ERR internal error in the hash-field expiry script: ' .. tostring(r))
`;
