// Commands of Redis 8.2 that the hosted service has and Debian's redis-server 7.0 lacks, emulated inside the
// bridge's script so that each stays atomic: XDELEX, XACKDEL and BITOP DIFF / DIFF1 / ANDOR / ONE (the hash
// commands of 7.4 and 8.0 have a script of their own, hash-expiry/lua.ts). The bridge sends them here only
// when the running Redis is older (json/commands.ts, versions.ts). Lua source, spliced into the prelude (lua-prelude.ts) before its fast paths, so it may use
// the prelude's names (A, NAME, NARGS, fail, arity, rcall, WRONGTYPE, …). Error texts follow Redis 8.x's
// where it documents them; docs/stack-kv.md lists the ones that are ours.
export const LUA_NEWER = String.raw`
-- "ERR Number of <what> must be a positive integer" unless n is a decimal in 1 … 2^63 - 1.
local function positive_count(n, what)
  if not find(n, '^[1-9]%d*$') or #n > 19 or (#n == 19 and n > '9223372036854775807') then
    fail('ERR Number of ' .. what .. ' must be a positive integer')
  end
  return tonumber(n)
end

-- Stream ids are compared as text: their two parts are unsigned 64-bit numbers, beyond a Lua number's 2^53.
local U64_MAX = '18446744073709551615'

local function u64(s)
  if not s or not find(s, '^%d+$') then return nil end
  s = gsub(s, '^0+(%d)', '%1')
  if #s > 20 or (#s == 20 and s > U64_MAX) then return nil end
  return s
end

--- 'ms-seq' of an id as the delete commands take it (strict: 'ms-seq' or 'ms', which is 'ms-0').
local function stream_id(text)
  local ms, seq = string.match(text, '^(%d+)%-(%d+)$')
  if not ms then ms, seq = text, '0' end
  ms, seq = u64(ms), u64(seq)
  if not ms or not seq then fail('ERR Invalid stream ID specified as stream command argument') end
  return ms .. '-' .. seq
end

local function number_cmp(a, b)
  if #a ~= #b then return #a < #b and -1 or 1 end
  if a == b then return 0 end
  return a < b and -1 or 1
end

local function id_cmp(a, b)
  local am, as = string.match(a, '^(%d+)%-(%d+)$')
  local bm, bs = string.match(b, '^(%d+)%-(%d+)$')
  local c = number_cmp(am, bm)
  if c ~= 0 then return c end
  return number_cmp(as, bs)
end

--- [KEEPREF | DELREF | ACKED] IDS numids id… from A[from] on, in any order: the policy and the ids.
local function delete_args(from)
  local policy, ids
  local i = from
  while i <= #A do
    local word = upper(A[i])
    if word == 'IDS' and i < #A and not ids then
      local n = positive_count(A[i + 1], 'IDs')
      if n > #A - i - 1 then fail('ERR The \96numids\96 parameter must match the number of arguments') end
      ids = {}
      for k = 1, n do ids[k] = stream_id(A[i + 1 + k]) end
      i = i + 2 + n
    elseif (word == 'KEEPREF' or word == 'DELREF' or word == 'ACKED') and not policy then
      policy = word
      i = i + 1
    else
      fail('ERR syntax error')
    end
  end
  if not ids then fail('ERR syntax error') end
  return policy or 'KEEPREF', ids
end

--- The stream's consumer groups: their names and last delivered ids.
local function stream_groups(key)
  local groups = {}
  for _, info in ipairs(rcall('XINFO', 'GROUPS', key)) do
    local group = {}
    for k = 1, #info, 2 do
      if info[k] == 'name' then group.name = info[k + 1] end
      if info[k] == 'last-delivered-id' then group.last = info[k + 1] end
    end
    groups[#groups + 1] = group
  end
  return groups
end

local function is_pending(key, group, id)
  return #rcall('XPENDING', key, group, id, id, 1) > 0
end

--- Whether a group still needs the entry: pending in a group, or not yet delivered to one (ACKED keeps it).
local function referenced(key, groups, id)
  for _, group in ipairs(groups) do
    if id_cmp(group.last, id) < 0 or is_pending(key, group.name, id) then return true end
  end
  return false
end

local function exists(key, id)
  return #rcall('XRANGE', key, id, id) > 0
end

--- The stream at A[2] ('none' when it does not exist); WRONGTYPE for another type.
local function stream_type()
  local t = rcall('TYPE', A[2]).ok
  if t ~= 'stream' and t ~= 'none' then fail(WRONGTYPE) end
  return t
end

local function all_not_found(ids)
  local out = {}
  for k = 1, #ids do out[k] = -1 end
  return out
end

local function xdelex()
  -- XDELEX key [KEEPREF | DELREF | ACKED] IDS numids id…: per id -1 (not in the stream), 1 (deleted) or
  -- 2 (ACKED: kept, a group still needs it). DELREF also takes the id out of every group's pending list.
  if NARGS < 4 then arity() end
  local policy, ids = delete_args(3)
  local key = A[2]
  if stream_type() == 'none' then return all_not_found(ids) end
  local groups = policy == 'KEEPREF' and {} or stream_groups(key)
  local out = {}
  for k, id in ipairs(ids) do
    if policy == 'ACKED' and exists(key, id) and referenced(key, groups, id) then
      out[k] = 2
    else
      if policy == 'DELREF' then
        for _, group in ipairs(groups) do rcall('XACK', key, group.name, id) end
      end
      out[k] = rcall('XDEL', key, id) == 1 and 1 or -1
    end
  end
  return out
end

local function xackdel()
  -- XACKDEL key group [KEEPREF | DELREF | ACKED] IDS numids id…: per id -1 (not pending in the group), 1
  -- (acknowledged and deleted) or 2 (ACKED: acknowledged, kept because another group still needs it).
  if NARGS < 5 then arity() end
  local policy, ids = delete_args(4)
  local key, name = A[2], A[3]
  if stream_type() == 'none' then return all_not_found(ids) end
  local groups, found = stream_groups(key), false
  for _, group in ipairs(groups) do
    if group.name == name then found = true end
  end
  if not found then return all_not_found(ids) end
  local out = {}
  for k, id in ipairs(ids) do
    if not is_pending(key, name, id) then
      out[k] = -1
    else
      rcall('XACK', key, name, id)
      if policy == 'ACKED' and referenced(key, groups, id) then
        out[k] = 2
      else
        if policy == 'DELREF' then
          for _, group in ipairs(groups) do rcall('XACK', key, group.name, id) end
        end
        rcall('XDEL', key, id)
        out[k] = 1
      end
    end
  end
  return out
end

local BITOP_NEWER = { DIFF = true, DIFF1 = true, ANDOR = true, ONE = true }

local function bitop()
  -- BITOP DIFF | DIFF1 | ANDOR | ONE destkey key…, missing keys and bytes as zeros; the destination's length
  -- is the longest source's (an empty result deletes it). DIFF: X and not any Y; DIFF1: not X and any Y;
  -- ANDOR: X and any Y; ONE: set in exactly one key. Byte by byte in Lua: fine for the bitmaps of a local
  -- stack, slow (and blocking Redis meanwhile) for ones of many megabytes.
  local op = upper(A[2])
  if NARGS < 3 then arity() end
  local sources = NARGS - 2
  if op ~= 'ONE' and sources < 2 then
    fail('ERR BITOP DIFF, DIFF1 and ANDOR must be called with at least two source keys.')
  end
  local values, longest = {}, 0
  for i = 4, #A do
    local t = rcall('TYPE', A[i]).ok
    if t ~= 'string' and t ~= 'none' then fail(WRONGTYPE) end
    local v = t == 'string' and rcall('GET', A[i]) or ''
    values[#values + 1] = v
    if #v > longest then longest = #v end
  end
  if longest == 0 then
    rcall('DEL', A[3])
    return 0
  end
  local band, bor, bnot = bit.band, bit.bor, bit.bnot
  local out = {}
  for j = 1, longest do
    local r
    if op == 'ONE' then
      local seen, twice = 0, 0
      for k = 1, #values do
        local v = byte(values[k], j) or 0
        twice = bor(twice, band(seen, v))
        seen = bor(seen, v)
      end
      r = band(seen, bnot(twice))
    else
      local x, y = byte(values[1], j) or 0, 0
      for k = 2, #values do y = bor(y, byte(values[k], j) or 0) end
      if op == 'DIFF' then
        r = band(x, bnot(y))
      elseif op == 'DIFF1' then
        r = band(bnot(x), y)
      else
        r = band(x, y)
      end
    end
    out[j] = char(band(r, 255))
  end
  rcall('SET', A[3], concat(out))
  return longest
end

--- The reply of a newer command, or nil when NAME is not one.
local function newer_command()
  if NAME == 'XDELEX' then return xdelex() end
  if NAME == 'XACKDEL' then return xackdel() end
  if NAME == 'BITOP' and BITOP_NEWER[upper(A[2] or '')] then return bitop() end
  return nil
end
`;
