// JSON values in the Lua script: their representation (key order and number text kept), the parser with
// serde_json's error texts, the compact and pretty encoders, and number arithmetic. Lua source; see script.ts.
export const LUA_VALUES = String.raw`
---------------------------------------------------------------------------------------------------- values
-- null is NULL; true/false are booleans; strings are Lua strings (UTF-8 bytes); numbers keep the text the
-- client wrote ({num = "1.10"}); arrays are {arr = true, len = n, [1..n]}; objects keep their key order
-- ({obj = true, keys = {…}, map = {key = value}}).
local NULL = setmetatable({}, { __tostring = function() return 'null' end })

local function new_array() return { arr = true, len = 0 } end
local function new_object() return { obj = true, keys = {}, map = {} } end

local function kind(v)
  local t = type(v)
  if t == 'string' then return 'string' end
  if t == 'boolean' then return 'boolean' end
  if v == NULL then return 'null' end
  if v.num then
    if find(v.num, '[.eE]') then return 'number' end
    return 'integer'
  end
  if v.arr then return 'array' end
  return 'object'
end

local function is_number(v) return type(v) == 'table' and v.num ~= nil end
local function is_array(v) return type(v) == 'table' and v.arr == true end
local function is_object(v) return type(v) == 'table' and v.obj == true end

local function obj_set(o, k, v)
  if o.map[k] == nil then o.keys[#o.keys + 1] = k end
  o.map[k] = v
end

local function obj_delete(o, k)
  if o.map[k] == nil then return false end
  o.map[k] = nil
  local keys = o.keys
  for i = 1, #keys do
    if keys[i] == k then
      tremove(keys, i)
      break
    end
  end
  return true
end

local function copy(v)
  if type(v) ~= 'table' or v == NULL or v.num then return v end
  if v.arr then
    local c = new_array()
    for i = 1, v.len do c[i] = copy(v[i]) end
    c.len = v.len
    return c
  end
  local c = new_object()
  for i = 1, #v.keys do
    local k = v.keys[i]
    c.keys[i] = k
    c.map[k] = copy(v.map[k])
  end
  return c
end

local function num_value(v) return tonumber(v.num) end

local function equal(a, b)
  local ka, kb = kind(a), kind(b)
  if (ka == 'integer' or ka == 'number') and (kb == 'integer' or kb == 'number') then
    return num_value(a) == num_value(b)
  end
  if ka ~= kb then return false end
  if ka == 'array' then
    if a.len ~= b.len then return false end
    for i = 1, a.len do
      if not equal(a[i], b[i]) then return false end
    end
    return true
  end
  if ka == 'object' then
    if #a.keys ~= #b.keys then return false end
    for _, k in ipairs(a.keys) do
      local bv = b.map[k]
      if bv == nil or not equal(a.map[k], bv) then return false end
    end
    return true
  end
  return a == b
end

---------------------------------------------------------------------------------------------------- parse
-- A JSON text into values, with serde_json's error texts (what RedisJSON answers), e.g.
-- "ERR expected value at line 1 column 1".
local ESCAPES = { [34] = '"', [92] = '\\', [47] = '/', [98] = '\b', [102] = '\f', [110] = '\n', [114] = '\r', [116] = '\t' }
local MAX_DEPTH = 128

local function utf8(cp)
  if cp < 0x80 then return char(cp) end
  if cp < 0x800 then return char(0xC0 + math.floor(cp / 0x40), 0x80 + cp % 0x40) end
  if cp < 0x10000 then
    return char(0xE0 + math.floor(cp / 0x1000), 0x80 + math.floor(cp / 0x40) % 0x40, 0x80 + cp % 0x40)
  end
  return char(0xF0 + math.floor(cp / 0x40000), 0x80 + math.floor(cp / 0x1000) % 0x40,
    0x80 + math.floor(cp / 0x40) % 0x40, 0x80 + cp % 0x40)
end

local function parse_json(s)
  local len = #s
  local function perr(msg, at)
    if at > len then at = len end
    local line, col = 1, at
    local from = 1
    while true do
      local nl = find(s, '\n', from, true)
      if not nl or nl >= at then break end
      line = line + 1
      col = at - nl
      from = nl + 1
    end
    fail('ERR ' .. msg .. ' at line ' .. line .. ' column ' .. col)
  end
  local function skip(i)
    local c = byte(s, i)
    -- stored documents are compact: most calls find no whitespace at all
    if c ~= 32 and c ~= 10 and c ~= 13 and c ~= 9 then return i end
    local _, e = find(s, '^[ \t\r\n]*', i)
    return e + 1
  end
  local value

  local function string_at(i)
    local j = i + 1
    local parts
    while true do
      local k = find(s, '[%z\1-\31"\\]', j)
      if not k then perr('EOF while parsing a string', len + 1) end
      local c = byte(s, k)
      if c == 34 then
        if parts then
          parts[#parts + 1] = sub(s, j, k - 1)
          return concat(parts), k + 1
        end
        return sub(s, j, k - 1), k + 1
      elseif c == 92 then
        parts = parts or {}
        parts[#parts + 1] = sub(s, j, k - 1)
        local e = byte(s, k + 1)
        if e == 117 then
          local hex = sub(s, k + 2, k + 5)
          if not find(hex, '^%x%x%x%x$') then
            if #hex < 4 and k + 5 > len then perr('EOF while parsing a string', len + 1) end
            perr('invalid escape', k + 2)
          end
          local cp = tonumber(hex, 16)
          local nxt = k + 6
          if cp >= 0xD800 and cp <= 0xDBFF then
            local lo = sub(s, nxt, nxt + 1) == '\\u' and tonumber(sub(s, nxt + 2, nxt + 5), 16)
            if not lo or lo < 0xDC00 or lo > 0xDFFF then perr('lone leading surrogate in hex escape', nxt) end
            cp = 0x10000 + (cp - 0xD800) * 0x400 + (lo - 0xDC00)
            nxt = nxt + 6
          elseif cp >= 0xDC00 and cp <= 0xDFFF then
            perr('lone leading surrogate in hex escape', nxt)
          end
          parts[#parts + 1] = utf8(cp)
          j = nxt
        else
          local r = e and ESCAPES[e]
          if not r then
            if not e then perr('EOF while parsing a string', len + 1) end
            perr('invalid escape', k + 1)
          end
          parts[#parts + 1] = r
          j = k + 2
        end
      else
        perr('control character (\\u0000-\\u001F) found while parsing a string', k)
      end
    end
  end

  local function number_at(i)
    local _, e = find(s, '^-?%d+', i)
    if not e then perr('invalid number', i) end
    if find(s, '^-?0%d', i) then perr('invalid number', i + 1) end
    local j = e + 1
    if byte(s, j) == 46 then
      local _, e2 = find(s, '^%d+', j + 1)
      if not e2 then perr(j + 1 > len and 'EOF while parsing a value' or 'invalid number', j + 1) end
      j = e2 + 1
    end
    local c = byte(s, j)
    if c == 101 or c == 69 then
      local _, e3 = find(s, '^[-+]?%d+', j + 1)
      if not e3 then perr(j + 1 > len and 'EOF while parsing a value' or 'invalid number', j + 1) end
      j = e3 + 1
    end
    local text = sub(s, i, j - 1)
    local n = tonumber(text)
    if n == math.huge or n == -math.huge then perr('number out of range', i) end
    return { num = text }, j
  end

  -- After a member or an item: a comma goes on to the next one (false, and where it starts); the byte
  -- close ('}' or ']') ends the object or list (true, and the position after it). what names it in errors.
  local function ended(i, close, what)
    i = skip(i)
    local d = byte(s, i)
    if d == 44 then return false, skip(i + 1) end
    if d == close then return true, i + 1 end
    if not d then perr('EOF while parsing ' .. what, len + 1) end
    perr('expected \96,\96 or \96' .. char(close) .. '\96', i)
  end

  value = function(i, depth)
    i = skip(i)
    local c = byte(s, i)
    if c == 123 then
      if depth >= MAX_DEPTH then perr('recursion limit exceeded', i) end
      local o = new_object()
      i = skip(i + 1)
      if byte(s, i) == 125 then return o, i + 1 end
      while true do
        local kc = byte(s, i)
        if kc ~= 34 then
          if not kc then perr('EOF while parsing an object', len + 1) end
          if kc == 125 then perr('trailing comma', i) end
          perr('key must be a string', i)
        end
        local k
        k, i = string_at(i)
        i = skip(i)
        if byte(s, i) ~= 58 then
          if i > len then perr('EOF while parsing an object', len + 1) end
          perr('expected \96:\96', i)
        end
        local v
        v, i = value(i + 1, depth + 1)
        obj_set(o, k, v)
        local done
        done, i = ended(i, 125, 'an object')
        if done then return o, i end
      end
    elseif c == 91 then
      if depth >= MAX_DEPTH then perr('recursion limit exceeded', i) end
      local a = new_array()
      i = skip(i + 1)
      if byte(s, i) == 93 then return a, i + 1 end
      local n = 0
      while true do
        if byte(s, i) == 93 and n > 0 then perr('trailing comma', i) end
        local v
        v, i = value(i, depth + 1)
        n = n + 1
        a[n] = v
        local done
        done, i = ended(i, 93, 'a list')
        if done then
          a.len = n
          return a, i
        end
      end
    elseif c == 34 then
      return string_at(i)
    elseif c == 116 then
      if sub(s, i, i + 3) == 'true' then return true, i + 4 end
      perr('expected ident', i)
    elseif c == 102 then
      if sub(s, i, i + 4) == 'false' then return false, i + 5 end
      perr('expected ident', i)
    elseif c == 110 then
      if sub(s, i, i + 3) == 'null' then return NULL, i + 4 end
      perr('expected ident', i)
    elseif c == 45 or (c and c >= 48 and c <= 57) then
      return number_at(i)
    elseif not c then
      perr('EOF while parsing a value', len + 1)
    end
    perr('expected value', i)
  end

  local v, i = value(1, 0)
  i = skip(i)
  if i <= len then perr('trailing characters', i) end
  return v
end

---------------------------------------------------------------------------------------------------- encode
-- Compact text (what is stored and what JSON.GET answers) escapes like serde_json and JSON.stringify:
-- \" \\ \b \f \n \r \t, other control characters as \u00XX, everything else as it is (UTF-8).
local QUOTE_ESC = { ['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
local function quote(str)
  if not find(str, '[%z\1-\31"\\]') then return '"' .. str .. '"' end
  return '"' .. (gsub(str, '[%z\1-\31"\\]', function(c) return QUOTE_ESC[c] or format('\\u%04x', byte(c)) end)) .. '"'
end

local function encode_into(v, buf)
  local t = type(v)
  if t == 'string' then
    buf[#buf + 1] = quote(v)
  elseif t == 'boolean' then
    buf[#buf + 1] = v and 'true' or 'false'
  elseif v == NULL then
    buf[#buf + 1] = 'null'
  elseif v.num then
    buf[#buf + 1] = v.num
  elseif v.arr then
    buf[#buf + 1] = '['
    for i = 1, v.len do
      if i > 1 then buf[#buf + 1] = ',' end
      encode_into(v[i], buf)
    end
    buf[#buf + 1] = ']'
  else
    buf[#buf + 1] = '{'
    for i, k in ipairs(v.keys) do
      if i > 1 then buf[#buf + 1] = ',' end
      buf[#buf + 1] = quote(k)
      buf[#buf + 1] = ':'
      encode_into(v.map[k], buf)
    end
    buf[#buf + 1] = '}'
  end
end

local function encode(v)
  local buf = {}
  encode_into(v, buf)
  return concat(buf)
end

-- JSON.GET's INDENT / NEWLINE / SPACE: RedisJSON's pretty printer (empty containers stay "[]" and "{}").
local function encode_pretty(v, fmt)
  local buf = {}
  local function put(x, depth)
    if is_array(x) and x.len > 0 then
      buf[#buf + 1] = '['
      for i = 1, x.len do
        if i > 1 then buf[#buf + 1] = ',' end
        buf[#buf + 1] = fmt.newline .. rep(fmt.indent, depth + 1)
        put(x[i], depth + 1)
      end
      buf[#buf + 1] = fmt.newline .. rep(fmt.indent, depth) .. ']'
    elseif is_object(x) and #x.keys > 0 then
      buf[#buf + 1] = '{'
      for i, k in ipairs(x.keys) do
        if i > 1 then buf[#buf + 1] = ',' end
        buf[#buf + 1] = fmt.newline .. rep(fmt.indent, depth + 1) .. quote(k) .. ':' .. fmt.space
        put(x.map[k], depth + 1)
      end
      buf[#buf + 1] = fmt.newline .. rep(fmt.indent, depth) .. '}'
    else
      encode_into(x, buf)
    end
  end
  put(v, 0)
  return concat(buf)
end

---------------------------------------------------------------------------------------------------- numbers
local function is_integer_text(t) return not find(t, '[.eE]') end

-- A double as serde_json (ryu) prints it: the shortest text that reads back the same, "100.0" for whole
-- numbers, "1e21" / "1e-7" outside [1e-5, 1e16).
local function format_float(x)
  if x == 0 then return (1 / x < 0) and '-0.0' or '0.0' end
  local s
  for p = 0, 16 do
    s = format('%.' .. p .. 'e', x)
    if tonumber(s) == x then break end
  end
  local sign, d1, rest, ex = s:match('^(-?)(%d)%.?(%d*)e([-+]%d+)$')
  local digits = gsub(d1 .. rest, '0+$', '')
  if digits == '' then digits = '0' end
  local e = tonumber(ex) -- value = 0.digits * 10^(e + 1)
  local point = e + 1 -- digits before the decimal point
  local n = #digits
  if point > 0 and point <= 16 then
    if n <= point then return sign .. digits .. rep('0', point - n) .. '.0' end
    return sign .. sub(digits, 1, point) .. '.' .. sub(digits, point + 1)
  elseif point <= 0 and point > -5 then
    return sign .. '0.' .. rep('0', -point) .. digits
  end
  local mant = n == 1 and digits or (sub(digits, 1, 1) .. '.' .. sub(digits, 2))
  return sign .. mant .. 'e' .. (point - 1)
end

local function arithmetic(a_text, b_text, multiply)
  local a, b = tonumber(a_text), tonumber(b_text)
  local r = multiply and a * b or a + b
  if r ~= r or r == math.huge or r == -math.huge then fail('ERR result is an overflow or not a number') end
  if is_integer_text(a_text) and is_integer_text(b_text) and r == math.floor(r) and math.abs(r) < 2 ^ 63 then
    return format('%.0f', r)
  end
  return format_float(r)
end

---------------------------------------------------------------------------------------------------- whole documents
-- JSON.SET of a whole document needs only the parser and the encoder: it is answered here, before the
-- paths and the other commands are even defined (most writes of the SDK's users are this one).
if NAME == 'JSON.SET' and (A[3] == '$' or A[3] == '.') and NARGS >= 3 and NARGS <= 4 then
  local ok, r = pcall(function()
    local cond = A[5] and upper(A[5])
    if cond and cond ~= 'NX' and cond ~= 'XX' then fail('ERR syntax error') end
    local value = parse_json(A[4])
    local exists = load(A[2]) ~= nil
    if (exists and cond == 'NX') or (not exists and cond == 'XX') then return false end
    save(A[2], encode(value))
    return { ok = 'OK' }
  end)
  if not ok then return reply_error(r) end
  return r
end
`;
