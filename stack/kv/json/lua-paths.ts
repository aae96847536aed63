// JSONPath and legacy paths for the Lua script: parsing, evaluation (with the hosted service's order for
// ".."), filter expressions. Lua source; see script.ts.
export const LUA_PATHS = String.raw`
---------------------------------------------------------------------------------------------------- paths
-- JSONPath ("$…") and legacy paths (".a.b", "a[0]", "."). A legacy path is read as "$" plus the path, as
-- RedisJSON does, but keeps legacy semantics: one value, errors for paths that do not exist.
-- Segments: {t='key', k}, {t='idx', i}, {t='all'}, {t='union', items = {{k=…}|{i=…}}}, {t='slice', a, b, step},
-- {t='filter', e}; "desc" marks ".." (applied to the node and all its descendants).
local parse_filter

-- Both parsers' errors, as RedisJSON words them: what is wrong, at which position of which path.
local function path_fail(msg, at, path)
  fail('ERR JSON Path error: path error: ' .. msg .. ' at position ' .. at .. ' in ' .. quote(path))
end

-- The position of the first byte after any white space at i.
local function after_space(s, i)
  local _, e = find(s, '^%s*', i)
  return e + 1
end

-- The quoted string at s[i] (' or "): its text and the position after its closing quote. A backslash takes the
-- next character as it is, or what escapes maps it to; fail reports a string that does not end.
local function read_quoted(s, i, escapes, fail)
  local q = sub(s, i, i)
  local j = i + 1
  local parts = {}
  while true do
    local c = sub(s, j, j)
    if c == '' then fail('unterminated string') end
    if c == q then break end
    if c == '\\' then
      local e = sub(s, j + 1, j + 1)
      parts[#parts + 1] = escapes[e] or e
      j = j + 2
    else
      parts[#parts + 1] = c
      j = j + 1
    end
  end
  return concat(parts), j + 1
end

-- Escapes in a path's quoted keys (filter strings keep the character after a backslash as it is).
local KEY_ESCAPES = { n = '\n', t = '\t', r = '\r', b = '\b', f = '\f' }

local function parse_path(p)
  local legacy = byte(p, 1) ~= 36
  local s
  if not legacy then
    s = p
  elseif p == '.' or p == '' then
    s = '$'
  elseif byte(p, 1) == 46 or byte(p, 1) == 91 then
    s = '$' .. p
  else
    s = '$.' .. p
  end
  local n = #s
  local i = 2
  local function perr(msg) path_fail(msg, i - 1, p) end
  local function skip_ws() i = after_space(s, i) end
  local function quoted()
    local text
    text, i = read_quoted(s, i, KEY_ESCAPES, perr)
    return text
  end
  local function integer()
    local a, e = s:match('^(-?%d+)()', i)
    if not a then return nil end
    i = e
    return tonumber(a)
  end
  local function bracket()
    -- at '['
    i = i + 1
    skip_ws()
    local c = sub(s, i, i)
    local seg
    if c == '*' then
      i = i + 1
      seg = { t = 'all' }
    elseif c == '?' then
      i = i + 1
      skip_ws()
      local paren = sub(s, i, i) == '('
      if paren then i = i + 1 end
      local e
      e, i = parse_filter(s, i, p)
      skip_ws()
      if paren then
        if sub(s, i, i) ~= ')' then perr('expected )') end
        i = i + 1
      end
      seg = { t = 'filter', e = e }
    elseif c == "'" or c == '"' then
      local items = {}
      while true do
        skip_ws()
        local q = sub(s, i, i)
        if q ~= "'" and q ~= '"' then perr('expected a quoted name') end
        items[#items + 1] = { k = quoted() }
        skip_ws()
        if sub(s, i, i) ~= ',' then break end
        i = i + 1
      end
      seg = #items == 1 and { t = 'key', k = items[1].k } or { t = 'union', items = items }
    else
      local a = integer()
      skip_ws()
      if sub(s, i, i) == ':' then
        i = i + 1
        skip_ws()
        local b = integer()
        local step
        skip_ws()
        if sub(s, i, i) == ':' then
          i = i + 1
          skip_ws()
          step = integer()
        end
        if step and step <= 0 then perr('a slice step must be positive') end
        seg = { t = 'slice', a = a, b = b, step = step or 1 }
      else
        if not a then perr('expected an index, a name, * or a filter') end
        local items = { { i = a } }
        while sub(s, i, i) == ',' do
          i = i + 1
          skip_ws()
          local q = sub(s, i, i)
          if q == "'" or q == '"' then
            items[#items + 1] = { k = quoted() }
          else
            local b = integer()
            if not b then perr('expected an index') end
            items[#items + 1] = { i = b }
          end
          skip_ws()
        end
        seg = #items == 1 and { t = 'idx', i = a } or { t = 'union', items = items }
      end
    end
    skip_ws()
    if sub(s, i, i) ~= ']' then perr('expected ]') end
    i = i + 1
    return seg
  end
  local segs = {}
  while i <= n do
    local c = sub(s, i, i)
    local desc = false
    local seg
    if c == '.' then
      if sub(s, i + 1, i + 1) == '.' then
        desc = true
        i = i + 2
      else
        i = i + 1
      end
      local d = sub(s, i, i)
      if d == '[' then
        if not desc then perr('unexpected [ after .') end
        seg = bracket()
      elseif d == '*' then
        i = i + 1
        seg = { t = 'all' }
      else
        local name, e = s:match('^([^%.%[%]%s]+)()', i)
        if not name then perr('expected a name') end
        i = e
        seg = { t = 'key', k = name }
      end
    elseif c == '[' then
      seg = bracket()
    else
      perr('unexpected ' .. quote(c))
    end
    seg.desc = desc
    segs[#segs + 1] = seg
  end
  return { legacy = legacy, segs = segs, text = s, given = p }
end

local function is_root(path) return #path.segs == 0 end

-- A location: {v = value, p = parent container (nil for the root), k = key or 1-based index}.
local function child_locations(loc, out)
  local v = loc.v
  if is_array(v) then
    for i = 1, v.len do out[#out + 1] = { v = v[i], p = v, k = i } end
  elseif is_object(v) then
    for _, k in ipairs(v.keys) do out[#out + 1] = { v = v.map[k], p = v, k = k } end
  end
end

-- "..": the hosted service lists descendants before the node that holds them (children subtrees first,
-- then the node): "$..a" on {"a":2,"n":{"a":4}} is [4,2] (the SDK's tests expect this order).
local function postorder(loc, out)
  local kids = {}
  child_locations(loc, kids)
  for _, kid in ipairs(kids) do postorder(kid, out) end
  out[#out + 1] = loc
end

local function index_of(i, len)
  if i < 0 then i = len + i end
  if i < 0 or i >= len then return nil end
  return i + 1
end

local eval_segments

local function apply_segment(seg, loc, out, root)
  local v = loc.v
  local t = seg.t
  if t == 'key' then
    if is_object(v) and v.map[seg.k] ~= nil then out[#out + 1] = { v = v.map[seg.k], p = v, k = seg.k } end
  elseif t == 'all' then
    child_locations(loc, out)
  elseif t == 'idx' then
    if is_array(v) then
      local j = index_of(seg.i, v.len)
      if j then out[#out + 1] = { v = v[j], p = v, k = j } end
    end
  elseif t == 'union' then
    for _, item in ipairs(seg.items) do
      if item.k ~= nil then
        if is_object(v) and v.map[item.k] ~= nil then out[#out + 1] = { v = v.map[item.k], p = v, k = item.k } end
      elseif is_array(v) then
        local j = index_of(item.i, v.len)
        if j then out[#out + 1] = { v = v[j], p = v, k = j } end
      end
    end
  elseif t == 'slice' then
    if is_array(v) then
      local len = v.len
      local a = seg.a or 0
      local b = seg.b or len
      if a < 0 then a = math.max(len + a, 0) end
      if b < 0 then b = math.max(len + b, 0) end
      if b > len then b = len end
      for j = a, b - 1, seg.step do out[#out + 1] = { v = v[j + 1], p = v, k = j + 1 } end
    end
  elseif t == 'filter' then
    local kids = {}
    child_locations(loc, kids)
    for _, kid in ipairs(kids) do
      if seg.e(kid.v, root) then out[#out + 1] = kid end
    end
  end
end

eval_segments = function(root_loc, segs, from, to, root)
  local current = { root_loc }
  for si = from, to do
    local seg = segs[si]
    local nxt = {}
    for _, loc in ipairs(current) do
      if seg.desc then
        local all = {}
        postorder(loc, all)
        for _, d in ipairs(all) do apply_segment(seg, d, nxt, root) end
      else
        apply_segment(seg, loc, nxt, root)
      end
    end
    current = nxt
  end
  return current
end

local function find_locations(doc, path, upto)
  local root = { v = doc }
  return eval_segments(root, path.segs, 1, upto or #path.segs, doc)
end

-- Filter expressions: [?(@.price < 10 && @.tags)], with == != < <= > >= =~, && || !, parentheses, and
-- @-relative or $-absolute paths. A path that matches several values compares true if any does.
parse_filter = function(s, i, given)
  local n = #s
  local function ferr(msg) path_fail(msg, i - 1, given) end
  local function ws() i = after_space(s, i) end
  local parse_or
  local function operand()
    ws()
    local c = sub(s, i, i)
    if c == '@' or c == '$' then
      local start = i
      i = i + 1
      -- the operand's path runs until an operator, a closing parenthesis or bracket at depth 0
      local depth = 0
      while i <= n do
        local d = sub(s, i, i)
        if d == '[' then
          depth = depth + 1
        elseif d == ']' then
          if depth == 0 then break end
          depth = depth - 1
        elseif d == "'" or d == '"' then
          local close = find(s, d, i + 1, true)
          if not close then ferr('unterminated string') end
          i = close
        elseif depth == 0 and (find(d, '[%s=!<>&|%)]')) then
          break
        end
        i = i + 1
      end
      local text = '$' .. sub(s, start + 1, i - 1)
      local path = parse_path(text)
      return { path = path.segs, absolute = c == '$' }
    elseif c == "'" or c == '"' then
      local text
      text, i = read_quoted(s, i, {}, ferr)
      return { value = text }
    end
    local num, e = s:match('^(-?%d+%.?%d*[eE]?[-+]?%d*)()', i)
    if num and tonumber(num) then
      i = e
      return { value = { num = num } }
    end
    for word, val in pairs({ ['true'] = true, ['false'] = false, null = NULL }) do
      if sub(s, i, i + #word - 1) == word then
        i = i + #word
        return { value = val }
      end
    end
    ferr('expected a value or a path')
  end
  local function values_of(op, node, root)
    if op.path then
      local start = op.absolute and root or node
      local locs = eval_segments({ v = start }, op.path, 1, #op.path, root)
      local vals = {}
      for _, l in ipairs(locs) do vals[#vals + 1] = l.v end
      return vals
    end
    return { op.value }
  end
  local function compare(a, b, op)
    if op == '=~' then
      if type(a) ~= 'string' or type(b) ~= 'table' then return false end
      return regex_search(b, a)
    end
    local ka, kb = kind(a), kind(b)
    local numeric = (ka == 'integer' or ka == 'number') and (kb == 'integer' or kb == 'number')
    if op == '==' then return equal(a, b) end
    if op == '!=' then return not equal(a, b) end
    local x, y
    if numeric then
      x, y = num_value(a), num_value(b)
    elseif ka == 'string' and kb == 'string' then
      x, y = a, b
    else
      return false
    end
    if op == '<' then return x < y end
    if op == '<=' then return x <= y end
    if op == '>' then return x > y end
    return x >= y
  end
  local function comparison()
    ws()
    if sub(s, i, i) == '(' then
      i = i + 1
      local e = parse_or()
      ws()
      if sub(s, i, i) ~= ')' then ferr('expected )') end
      i = i + 1
      return e
    end
    if sub(s, i, i) == '!' and sub(s, i + 1, i + 1) ~= '=' then
      i = i + 1
      local inner = comparison()
      return function(node, root) return not inner(node, root) end
    end
    local left = operand()
    ws()
    local op = s:match('^([=!<>]=?~?)', i)
    if op == '=' or op == '!' then op = nil end
    if op and op ~= '==' and op ~= '!=' and op ~= '<' and op ~= '<=' and op ~= '>' and op ~= '>=' and op ~= '=~' then
      ferr('unknown operator ' .. op)
    end
    if not op then
      if not left.path then ferr('a filter needs a path or a comparison') end
      return function(node, root) return #values_of(left, node, root) > 0 end
    end
    i = i + #op
    local right = operand()
    if op == '=~' then
      if right.path or type(right.value) ~= 'string' then ferr('=~ needs a regular expression in quotes') end
      right = { value = compile_regex(right.value) }
    end
    return function(node, root)
      local ls = values_of(left, node, root)
      local rs = op == '=~' and { right.value } or values_of(right, node, root)
      for _, a in ipairs(ls) do
        for _, b in ipairs(rs) do
          if compare(a, b, op) then return true end
        end
      end
      return false
    end
  end
  -- a && b && …, a || b || …: left to right, each side parsed by "side", "both" combining two (lazily)
  local function chain(token, side, both)
    return function()
      local left = side()
      while true do
        ws()
        if sub(s, i, i + 1) ~= token then return left end
        i = i + 2
        local l, r = left, side()
        left = function(node, root) return both(l, r, node, root) end
      end
    end
  end
  local parse_and = chain('&&', comparison, function(l, r, node, root) return l(node, root) and r(node, root) end)
  parse_or = chain('||', parse_and, function(l, r, node, root) return l(node, root) or r(node, root) end)
  local e = parse_or()
  return e, i
end
`;
