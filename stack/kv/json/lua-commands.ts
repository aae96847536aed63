// The JSON.* commands (and SCAN … TYPE) in the Lua script, with RedisJSON's replies and error texts.
// Lua source; see script.ts.
export const LUA_COMMANDS = String.raw`
---------------------------------------------------------------------------------------------------- helpers
local function no_path(path) fail("ERR Path '" .. path.text .. "' does not exist") end

local function wrong_type(expected, v)
  fail('WRONGTYPE wrong type of path value - expected ' .. expected .. ' but found ' .. kind(v))
end

local function set_at(state, loc, value)
  if loc.p == nil then
    state.doc = value
  elseif loc.p.arr then
    loc.p[loc.k] = value
  else
    loc.p.map[loc.k] = value
  end
  state.changed = true
end

-- Walks the arguments from A[first]: a word of value_options (upper case) that has an argument after it is
-- an option with that value, on_option(WORD, value); any other argument goes to on_other(arg, WORD).
local function each_arg(first, value_options, on_option, on_other)
  local i = first
  while i <= #A do
    local word = upper(A[i])
    if value_options[word] and A[i + 1] then
      on_option(word, A[i + 1])
      i = i + 2
    else
      on_other(A[i], word)
      i = i + 1
    end
  end
end

local function integer_arg(s)
  if s == nil or not find(s, '^%s*-?%d+%s*$') then fail('ERR value is not an integer or out of range') end
  return tonumber(s)
end

-- Runs "each(value, loc)" over a path's matches. JSONPath: a list of the results (false → nil); legacy:
-- the first match's result, or "missing" (a function or a value) when nothing matches.
local function over_matches(doc, path, each, missing)
  local locs = find_locations(doc, path)
  if path.legacy then
    if #locs == 0 then
      if type(missing) == 'function' then return missing() end
      return missing
    end
    local r
    for idx = #locs, 1, -1 do r = each(locs[idx].v, locs[idx], true) end
    return r
  end
  local out = {}
  for idx, loc in ipairs(locs) do
    local r = each(loc.v, loc, false)
    if r == nil then r = false end
    out[idx] = r
  end
  return out
end

-- Wraps a per-match function for one kind of value: a match of another kind answers nil (JSONPath) or
-- WRONGTYPE (legacy path).
local function only(check, expected, each)
  return function(v, loc, legacy, state)
    if check(v) then return each(v, loc, legacy, state) end
    if legacy then wrong_type(expected, v) end
    return false
  end
end

local function is_string(v) return type(v) == 'string' end
local function is_boolean(v) return type(v) == 'boolean' end

local function open(key, must_exist)
  local text = load(key)
  if not text then
    if must_exist then fail(NO_KEY) end
    return nil
  end
  return { key = key, doc = parse_json(text), changed = false }
end

local function commit(state)
  if state.changed then
    if state.deleted then
      rcall('DEL', state.key)
    else
      save(state.key, encode(state.doc))
    end
  end
end

-- RFC 7396 merge patch (JSON.MERGE): null deletes, objects merge recursively, anything else replaces.
local function merge_patch(target, patch)
  if not is_object(patch) then return copy(patch) end
  if not is_object(target) then target = new_object() end
  for _, k in ipairs(patch.keys) do
    local pv = patch.map[k]
    if pv == NULL then
      obj_delete(target, k)
    else
      obj_set(target, k, merge_patch(target.map[k], pv))
    end
  end
  return target
end

-- Adds "key" to every object the path minus its last (name) segment matches: JSON.SET / JSON.MERGE of a
-- member that is not there yet. Returns how many were added.
local function add_member(state, path, make)
  local last = path.segs[#path.segs]
  if not last or last.t ~= 'key' or last.desc then return 0 end
  local parents = find_locations(state.doc, path, #path.segs - 1)
  local added = 0
  for _, loc in ipairs(parents) do
    if is_object(loc.v) and loc.v.map[last.k] == nil then
      local value = make()
      if value ~= nil then
        obj_set(loc.v, last.k, value)
        added = added + 1
      end
    end
  end
  if added > 0 then state.changed = true end
  return added
end

-- Deletes the matches; array elements from the highest index down so the others keep their places.
local function delete_locations(state, locs)
  local count = 0
  local arrays = {}
  for _, loc in ipairs(locs) do
    if loc.p == nil then
      state.deleted = true
      state.changed = true
      return 1
    end
    if loc.p.arr then
      arrays[#arrays + 1] = loc
    elseif obj_delete(loc.p, loc.k) then
      count = count + 1
    end
  end
  table.sort(arrays, function(x, y) return x.k > y.k end)
  for _, loc in ipairs(arrays) do
    tremove(loc.p, loc.k)
    loc.p.len = loc.p.len - 1
    count = count + 1
  end
  if count > 0 then state.changed = true end
  return count
end

local function to_resp(v)
  local t = type(v)
  if t == 'string' then return v end
  if t == 'boolean' then return { ok = v and 'true' or 'false' } end
  if v == NULL then return false end
  if v.num then
    if is_integer_text(v.num) and #gsub(v.num, '^-', '') <= 15 then return tonumber(v.num) end
    return v.num
  end
  local out
  if v.arr then
    out = { { ok = '[' } }
    for i = 1, v.len do out[#out + 1] = to_resp(v[i]) end
  else
    out = { { ok = '{' } }
    for _, k in ipairs(v.keys) do
      out[#out + 1] = k
      out[#out + 1] = to_resp(v.map[k])
    end
  end
  return out
end

---------------------------------------------------------------------------------------------------- commands

-- The reads "KEY [path]" (default: the root): nil for a key that does not exist, else the matches'
-- answers; a legacy path that matches nothing answers "missing", or an error when it is NO_PATH.
local NO_PATH = {}
local function read_at_path(each, missing)
  if NARGS < 1 or NARGS > 2 then arity() end
  local path = parse_path(A[3] or '.')
  local state = open(A[2], false)
  if not state then return false end
  if missing == NO_PATH then missing = function() no_path(path) end end
  return over_matches(state.doc, path, each, missing)
end

-- The edits "KEY path …" of a document that must exist: each match's answer ("each" also gets the
-- document's state), the document saved when something changed.
local function edit_at_path(path, each, missing)
  local state = open(A[2], true)
  if missing == nil then missing = function() no_path(path) end end
  local r = over_matches(state.doc, path, function(v, loc, legacy) return each(v, loc, legacy, state) end, missing)
  commit(state)
  return r
end

-- Only the handler of the command asked for is created. Every closure made at the script's top level has to
-- find its upvalues among the hundreds of locals defined above it (Lua 5.1 walks its list of open upvalues
-- for each), which costs ~0.5 µs a closure: creating all two dozen handlers on every call took ~17 µs of
-- redis-server's time, more than most commands' own work (docs/stack-kv.md, "JSON").
local handler

if NAME == 'JSON.SET' then
  handler = function()
    if NARGS < 3 then arity() end
    local key, p, value_text, cond = A[2], A[3], A[4], A[5] and upper(A[5])
    if NARGS > 4 or (cond and cond ~= 'NX' and cond ~= 'XX') then fail('ERR syntax error') end
    local value = parse_json(value_text)
    local path = parse_path(p)
    local state = open(key, false)
    if not state then
      if cond == 'XX' then return false end
      if not is_root(path) then fail('ERR new objects must be created at the root') end
      save(key, encode(value))
      return { ok = 'OK' }
    end
    local locs = find_locations(state.doc, path)
    if #locs > 0 then
      if cond == 'NX' then return false end
      for idx, loc in ipairs(locs) do set_at(state, loc, idx == 1 and value or copy(value)) end
    else
      if cond == 'XX' then return false end
      local first = true
      if add_member(state, path, function()
        local v = first and value or copy(value)
        first = false
        return v
      end) == 0 then
        return false
      end
    end
    commit(state)
    return { ok = 'OK' }
  end

elseif NAME == 'JSON.GET' then
  handler = function()
    if NARGS < 1 then arity() end
    local fmt = { indent = '', newline = '', space = '' }
    local pretty = false
    local paths = {}
    each_arg(3, { INDENT = true, NEWLINE = true, SPACE = true }, function(word, value)
      fmt[lower(word)] = value
      pretty = true
    end, function(arg, word)
      if word ~= 'NOESCAPE' then paths[#paths + 1] = arg end
    end)
    local out = function(v) return pretty and encode_pretty(v, fmt) or encode(v) end
    local parsed = {}
    for k, p in ipairs(paths) do parsed[k] = parse_path(p) end
    local state = open(A[2], false)
    if not state then return false end
    if #parsed == 0 then parsed[1] = parse_path('.') end
    local function matches(path)
      local locs = find_locations(state.doc, path)
      if path.legacy then
        if #locs == 0 then no_path(path) end
        return locs[1].v
      end
      local arr = new_array()
      for k, loc in ipairs(locs) do arr[k] = loc.v end
      arr.len = #locs
      return arr
    end
    if #parsed == 1 then return out(matches(parsed[1])) end
    -- Several paths: an object keyed by path; legacy values when every path is legacy, else arrays.
    local all_legacy = true
    for _, path in ipairs(parsed) do
      if not path.legacy then all_legacy = false end
    end
    local o = new_object()
    for _, path in ipairs(parsed) do
      if not all_legacy then path.legacy = false end
      obj_set(o, path.given, matches(path))
    end
    return out(o)
  end

elseif NAME == 'JSON.MGET' then
  handler = function()
    if NARGS < 2 then arity() end
    local path = parse_path(A[#A])
    local out = {}
    for i = 2, #A - 1 do
      local ok, text = pcall(load, A[i])
      local r = false
      if ok and text then
        local doc = parse_json(text)
        local locs = find_locations(doc, path)
        if path.legacy then
          if #locs > 0 then r = encode(locs[1].v) end
        else
          local arr = new_array()
          for k, loc in ipairs(locs) do arr[k] = loc.v end
          arr.len = #locs
          r = encode(arr)
        end
      end
      out[#out + 1] = r
    end
    return out
  end

elseif NAME == 'JSON.DEL' or NAME == 'JSON.FORGET' then
  handler = function()
    if NARGS < 1 or NARGS > 2 then arity() end
    local path = parse_path(A[3] or '.')
    local state = open(A[2], false)
    if not state then return 0 end
    local count = delete_locations(state, find_locations(state.doc, path))
    commit(state)
    return count
  end

elseif NAME == 'JSON.TYPE' then
  handler = function()
    return read_at_path(function(v, _, legacy)
      if legacy then return { ok = kind(v) } end
      return kind(v)
    end, false)
  end

elseif NAME == 'JSON.STRLEN' then
  handler = function()
    return read_at_path(only(is_string, 'string', function(v) return #v end), NO_PATH)
  end

elseif NAME == 'JSON.STRAPPEND' then
  handler = function()
    if NARGS < 2 or NARGS > 3 then arity() end
    local p, value_text = A[3], A[4]
    if NARGS == 2 then p, value_text = '.', A[3] end
    local value = parse_json(value_text)
    if type(value) ~= 'string' then fail('ERR wrong type of value - expected string but found ' .. kind(value)) end
    local path = parse_path(p)
    return edit_at_path(path, only(is_string, 'string', function(v, loc, _, state)
      local s = v .. value
      set_at(state, loc, s)
      return #s
    end))
  end

elseif NAME == 'JSON.NUMINCRBY' or NAME == 'JSON.NUMMULTBY' then
  handler = function()
    local multiply = NAME == 'JSON.NUMMULTBY'
    if NARGS ~= 3 then arity() end
    local path = parse_path(A[3])
    local by = parse_json(A[4])
    if not is_number(by) then fail('ERR expected a number but found ' .. kind(by)) end
    local state = open(A[2], true)
    local results = new_array()
    local last
    local r = over_matches(state.doc, path, function(v, loc, legacy)
      if not is_number(v) then
        if legacy then wrong_type('a number', v) end
        return NULL
      end
      local nv = { num = arithmetic(v.num, by.num, multiply) }
      set_at(state, loc, nv)
      last = nv
      return nv
    end, function() no_path(path) end)
    commit(state)
    if path.legacy then return encode(last) end
    for k, v in ipairs(r) do results[k] = v end
    results.len = #r
    return encode(results)
  end

elseif NAME == 'JSON.TOGGLE' then
  handler = function()
    if NARGS < 1 or NARGS > 2 then arity() end
    local path = parse_path(A[3] or '.')
    return edit_at_path(path, only(is_boolean, 'boolean', function(v, loc, legacy, state)
      set_at(state, loc, not v)
      if legacy then return (not v) and 'true' or 'false' end
      return (not v) and 1 or 0
    end))
  end

elseif NAME == 'JSON.CLEAR' then
  handler = function()
    if NARGS < 1 or NARGS > 2 then arity() end
    local path = parse_path(A[3] or '.')
    local state = open(A[2], false)
    if not state then return 0 end
    local count = 0
    for _, loc in ipairs(find_locations(state.doc, path)) do
      local v = loc.v
      if is_array(v) then
        set_at(state, loc, new_array())
        count = count + 1
      elseif is_object(v) then
        set_at(state, loc, new_object())
        count = count + 1
      elseif is_number(v) then
        set_at(state, loc, { num = '0' })
        count = count + 1
      end
    end
    commit(state)
    return count
  end

elseif NAME == 'JSON.ARRAPPEND' then
  handler = function()
    if NARGS < 2 then arity() end
    local p, first = A[3], 4
    if NARGS == 2 then p, first = '.', 3 end
    local values = {}
    for i = first, #A do values[#values + 1] = parse_json(A[i]) end
    local path = parse_path(p)
    return edit_at_path(path, only(is_array, 'array', function(v, _, _, state)
      for k, value in ipairs(values) do
        v.len = v.len + 1
        v[v.len] = k == 1 and value or copy(value)
      end
      state.changed = true
      return v.len
    end))
  end

elseif NAME == 'JSON.ARRINSERT' then
  handler = function()
    if NARGS < 4 then arity() end
    local path = parse_path(A[3])
    local index = integer_arg(A[4])
    local values = {}
    for i = 5, #A do values[#values + 1] = parse_json(A[i]) end
    return edit_at_path(path, only(is_array, 'array', function(v, _, _, state)
      local at = index < 0 and v.len + index or index
      if at < 0 or at > v.len then fail('ERR index out of bounds') end
      for k, value in ipairs(values) do
        tinsert(v, at + k, copy(value))
        v.len = v.len + 1
      end
      state.changed = true
      return v.len
    end))
  end

elseif NAME == 'JSON.ARRINDEX' then
  handler = function()
    if NARGS < 3 or NARGS > 5 then arity() end
    local path = parse_path(A[3])
    local needle = parse_json(A[4])
    local start = A[5] and integer_arg(A[5]) or 0
    local stop = A[6] and integer_arg(A[6]) or 0
    local state = open(A[2], true)
    return over_matches(state.doc, path, only(is_array, 'array', function(v)
      local len = v.len
      local a = start < 0 and math.max(len + start, 0) or math.min(start, len)
      local b = stop
      if b <= 0 then b = len + b end
      if stop == 0 or b > len then b = len end
      for j = a, b - 1 do
        if equal(v[j + 1], needle) then return j end
      end
      return -1
    end), function() no_path(path) end)
  end

elseif NAME == 'JSON.ARRLEN' then
  handler = function()
    return read_at_path(only(is_array, 'array', function(v) return v.len end), NO_PATH)
  end

elseif NAME == 'JSON.ARRPOP' then
  handler = function()
    if NARGS < 1 or NARGS > 3 then arity() end
    local path = parse_path(A[3] or '.')
    local index = A[4] and integer_arg(A[4]) or -1
    local state = open(A[2], false)
    if not state then return false end
    local r = over_matches(state.doc, path, only(is_array, 'array', function(v)
      if v.len == 0 then return false end
      local at = index < 0 and v.len + index or index
      if at < 0 then at = 0 end
      if at >= v.len then at = v.len - 1 end
      local popped = tremove(v, at + 1)
      v.len = v.len - 1
      state.changed = true
      return encode(popped)
    end), false)
    commit(state)
    return r
  end

elseif NAME == 'JSON.ARRTRIM' then
  handler = function()
    if NARGS ~= 4 then arity() end
    local path = parse_path(A[3])
    local start, stop = integer_arg(A[4]), integer_arg(A[5])
    return edit_at_path(path, only(is_array, 'array', function(v, loc, _, state)
      local len = v.len
      local a, b = start, stop
      if a < 0 then a = math.max(len + a, 0) end
      if b < 0 then b = len + b end
      if b >= len then b = len - 1 end
      local trimmed = new_array()
      if a < len and a <= b then
        for j = a, b do
          trimmed.len = trimmed.len + 1
          trimmed[trimmed.len] = v[j + 1]
        end
      end
      set_at(state, loc, trimmed)
      return trimmed.len
    end))
  end

elseif NAME == 'JSON.OBJKEYS' then
  handler = function()
    return read_at_path(only(is_object, 'object', function(v)
      local keys = {}
      for k, name in ipairs(v.keys) do keys[k] = name end
      return keys
    end), false)
  end

elseif NAME == 'JSON.OBJLEN' then
  handler = function()
    return read_at_path(only(is_object, 'object', function(v) return #v.keys end), false)
  end

elseif NAME == 'JSON.MERGE' then
  handler = function()
    if NARGS ~= 3 then arity() end
    local path = parse_path(A[3])
    local patch = parse_json(A[4])
    local state = open(A[2], false)
    if not state then
      if not is_root(path) then fail('ERR new objects must be created at the root') end
      save(A[2], encode(merge_patch(NULL, patch)))
      return { ok = 'OK' }
    end
    local locs = find_locations(state.doc, path)
    if #locs > 0 then
      for _, loc in ipairs(locs) do
        if patch == NULL and loc.p ~= nil then
          delete_locations(state, { loc })
        else
          set_at(state, loc, merge_patch(loc.v, patch))
        end
      end
    else
      add_member(state, path, function()
        if patch == NULL then return nil end
        return merge_patch(NULL, patch)
      end)
    end
    commit(state)
    return { ok = 'OK' }
  end

elseif NAME == 'JSON.MSET' then
  handler = function()
    if NARGS < 3 or NARGS % 3 ~= 0 then arity() end
    -- Everything is parsed and checked before anything is written: all or nothing.
    local triples = {}
    local states = {}
    for i = 2, #A, 3 do
      local key = A[i]
      local t = { key = key, path = parse_path(A[i + 1]), value = parse_json(A[i + 2]) }
      triples[#triples + 1] = t
      if states[key] == nil then states[key] = open(key, false) or false end
      if not states[key] and not is_root(t.path) then fail('ERR new objects must be created at the root') end
    end
    for _, t in ipairs(triples) do
      local state = states[t.key]
      if not state then
        state = { key = t.key, doc = copy(t.value), changed = true }
        states[t.key] = state
      else
        local locs = find_locations(state.doc, t.path)
        if #locs > 0 then
          for _, loc in ipairs(locs) do set_at(state, loc, copy(t.value)) end
        else
          add_member(state, t.path, function() return copy(t.value) end)
        end
      end
    end
    for _, t in ipairs(triples) do
      local state = states[t.key]
      if state.changed then
        commit(state)
        state.changed = false
      end
    end
    return { ok = 'OK' }
  end

elseif NAME == 'JSON.RESP' then
  handler = function()
    return read_at_path(function(v) return to_resp(v) end, NO_PATH)
  end

elseif NAME == 'JSON.DEBUG' then
  handler = function()
    local sub_name = A[2] and upper(A[2])
    if sub_name == 'HELP' then
      return {
        'MEMORY <key> [path] - reports the size in bytes of the JSON value at path (default: the root)',
        'HELP - this message',
      }
    elseif sub_name == 'MEMORY' then
      if NARGS < 2 or NARGS > 3 then arity() end
      local path = parse_path(A[4] or '.')
      local state = open(A[3], false)
      if not state then return 0 end
      return over_matches(state.doc, path, function(v) return #encode(v) end, 0)
    end
    fail("ERR unknown subcommand '" .. tostring(A[2]) .. "'. Try JSON.DEBUG HELP.")
  end

elseif NAME == 'SCAN' then
  -- SCAN … TYPE ReJSON-RL / TYPE hash: Redis sees JSON documents as hashes; this tells them apart.
  handler = function()
    local send = { 'SCAN', A[2] }
    local want
    each_arg(3, { TYPE = true }, function(_, value)
      local t = lower(value)
      if t == 'rejson-rl' then
        want = 'json'
        t = 'hash'
      elseif t == 'hash' then
        want = 'hash'
      end
      send[#send + 1] = 'TYPE'
      send[#send + 1] = t
    end, function(arg) send[#send + 1] = arg end)
    -- Redis's refusal of a command inside a script does not name it; say what the client was refused.
    if not redis.acl_check_cmd(unpack(send)) then fail("NOPERM this user has no permissions to run the 'scan' command") end
    local r = rpcall(unpack(send))
    if r.err then fail(r.err) end
    if want then
      local keep = {}
      for _, k in ipairs(r[2]) do
        local is_json = rcall('HEXISTS', k, FIELD) == 1
        if is_json == (want == 'json') then keep[#keep + 1] = k end
      end
      r[2] = keep
    end
    return r
  end
end

if not handler then
  return redis.error_reply("ERR unknown command '" .. A[1] .. "'")
end
local ok, r = pcall(handler)
if not ok then return reply_error(r) end
return r
`;
