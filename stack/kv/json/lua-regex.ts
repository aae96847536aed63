// The regular expressions of the JSONPath filter operator =~, for the Lua script. Lua source; see script.ts.
export const LUA_REGEX = String.raw`
---------------------------------------------------------------------------------------------------- regex
-- The filter operator =~ (RedisJSON: Rust regex, "is there a match anywhere"). A small backtracking matcher
-- over bytes: literals, ., [classes], \d \w \s (and negations), * + ? {m,n}, ( | ), ^ $, a leading (?i).
local function compile_regex(src)
  local i = 1
  local n = #src
  local icase = false
  if sub(src, 1, 4) == '(?i)' then
    icase = true
    i = 5
  end
  local function rerr(msg) fail('ERR JSON Path error: invalid regex ' .. quote(src) .. ': ' .. msg) end
  local CLASS = {
    d = function(c) return c >= 48 and c <= 57 end,
    w = function(c) return (c >= 48 and c <= 57) or (c >= 65 and c <= 90) or (c >= 97 and c <= 122) or c == 95 end,
    s = function(c) return c == 32 or (c >= 9 and c <= 13) end,
  }
  local function escape_test(e)
    local f = CLASS[e]
    if f then return f end
    local big = CLASS[lower(e)]
    if big and e ~= lower(e) then return function(c) return not big(c) end end
    local lit = ({ n = 10, t = 9, r = 13, f = 12, v = 11 })[e] or byte(e)
    return function(c) return c == lit end
  end
  local parse_alt
  local function parse_atom()
    local c = sub(src, i, i)
    if c == '(' then
      i = i + 1
      if sub(src, i, i + 1) == '?:' then i = i + 2 end
      local alts = parse_alt()
      if sub(src, i, i) ~= ')' then rerr('unclosed group') end
      i = i + 1
      return { alts = alts }
    elseif c == '[' then
      i = i + 1
      local negate = false
      if sub(src, i, i) == '^' then
        negate = true
        i = i + 1
      end
      local tests = {}
      local first = true
      while i <= n and (sub(src, i, i) ~= ']' or first) do
        first = false
        local ch = sub(src, i, i)
        if ch == '\\' then
          tests[#tests + 1] = escape_test(sub(src, i + 1, i + 1))
          i = i + 2
        else
          local lo = byte(ch)
          if sub(src, i + 1, i + 1) == '-' and i + 2 <= n and sub(src, i + 2, i + 2) ~= ']' then
            local hi = byte(src, i + 2)
            tests[#tests + 1] = function(x) return x >= lo and x <= hi end
            i = i + 3
          else
            tests[#tests + 1] = function(x) return x == lo end
            i = i + 1
          end
        end
      end
      if i > n then rerr('unclosed character class') end
      i = i + 1
      return { test = function(x)
        for _, t in ipairs(tests) do
          if t(x) then return not negate end
        end
        return negate
      end }
    elseif c == '.' then
      i = i + 1
      return { test = function(x) return x ~= 10 end }
    elseif c == '^' then
      i = i + 1
      return { bol = true }
    elseif c == '$' then
      i = i + 1
      return { eol = true }
    elseif c == '\\' then
      local e = sub(src, i + 1, i + 1)
      if e == '' then rerr('trailing backslash') end
      i = i + 2
      return { test = escape_test(e) }
    elseif c == '*' or c == '+' or c == '?' then
      rerr('repetition operator missing expression')
    end
    i = i + 1
    local b = byte(c)
    return { test = function(x) return x == b end }
  end
  local function parse_seq()
    local seq = {}
    while i <= n do
      local c = sub(src, i, i)
      if c == '|' or c == ')' then break end
      local atom = parse_atom()
      atom.min, atom.max = 1, 1
      local q = sub(src, i, i)
      if q == '*' then
        atom.min, atom.max = 0, math.huge
        i = i + 1
      elseif q == '+' then
        atom.min, atom.max = 1, math.huge
        i = i + 1
      elseif q == '?' then
        atom.min, atom.max = 0, 1
        i = i + 1
      elseif q == '{' then
        local a, b, e = src:match('^{(%d*),?(%d*)}()', i)
        local whole = src:match('^{%d+}', i)
        if not e then rerr('bad repetition') end
        atom.min = tonumber(a) or 0
        atom.max = whole and atom.min or (tonumber(b) or math.huge)
        i = e
      end
      if sub(src, i, i) == '?' and atom.max ~= 1 then i = i + 1 end -- lazy: same answer for "any match"
      seq[#seq + 1] = atom
    end
    return seq
  end
  parse_alt = function()
    local alts = { parse_seq() }
    while sub(src, i, i) == '|' do
      i = i + 1
      alts[#alts + 1] = parse_seq()
    end
    return alts
  end
  local top = parse_alt()
  if i <= n then rerr('unmatched )') end
  return { alts = top, icase = icase }
end

local function regex_search(re, s)
  if re.icase then s = lower(s) end
  local len = #s
  local m_seq
  local function m_one(atom, pos, k)
    if atom.bol then
      if pos == 1 then return k(pos) end
      return false
    elseif atom.eol then
      if pos == len + 1 then return k(pos) end
      return false
    elseif atom.alts then
      for _, alt in ipairs(atom.alts) do
        if m_seq(alt, 1, pos, k) then return true end
      end
      return false
    end
    local c = byte(s, pos)
    if c and re.icase and c >= 65 and c <= 90 then c = c + 32 end
    if c and atom.test(c) then return k(pos + 1) end
    return false
  end
  local function m_rep(atom, pos, count, k)
    if count < atom.max then
      local ok = m_one(atom, pos, function(p)
        -- another round that matched nothing would loop forever (a zero-width atom's required round may)
        if p == pos and count >= atom.min then return false end
        return m_rep(atom, p, count + 1, k)
      end)
      if ok then return true end
    end
    if count >= atom.min then return k(pos) end
    return false
  end
  m_seq = function(seq, idx, pos, k)
    if idx > #seq then return k(pos) end
    return m_rep(seq[idx], pos, 0, function(p) return m_seq(seq, idx + 1, p, k) end)
  end
  local done = function() return true end
  for start = 1, len + 1 do
    for _, alt in ipairs(re.alts) do
      if m_seq(alt, 1, start, done) then return true end
    end
  end
  return false
end
`;
