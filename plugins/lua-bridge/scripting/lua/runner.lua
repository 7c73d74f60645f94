-- Runs one job in a fresh Lua state: sandbox the globals, install the host modules (thin Lua
-- wrappers over `__host`), load the script as text, call its entry function, return JSON.
-- Trusted code: it captures `load` before the sandbox removes it, and never hands it out.
local host, job, G = __host, __job, _G
__host, __job = nil, nil

local lua_load, pcall, xpcall, error, type, pairs, ipairs, rawget, tostring, tonumber = load, pcall, xpcall, error, type, pairs, ipairs, rawget, tostring, tonumber
local format, gsub, byte, upper, lower, find = string.format, string.gsub, string.byte, string.upper, string.lower, string.find
local concat, sort, pack, unpack = table.concat, table.sort, table.pack, table.unpack
local mtype, huge = math.type, math.huge

-- 1. Sandbox: a clock-only `os`, no loaders, no io/debug/package, no bytecode, print → log.
local time, date, clock, gc, getinfo = os.time, os.date, os.clock, collectgarbage, debug.getinfo
os = { time = time, date = date, clock = clock }
load, loadstring, dofile, loadfile, require, io, debug, package = nil, nil, nil, nil, nil, nil, nil, nil
string.dump = nil
-- Method calls on strings (`s:dump()`) go through the string metatable, which may hold its own copy.
getmetatable('').__index = string

-- Host errors are raised at the script's own line: the innermost stack frame of the script's chunk
-- (the runner keeps `debug.getinfo` to itself; scripts have no `debug`).
local function raise(message)
  for level = 2, 40 do
    local info = getinfo(level, 'Sl')
    if not info then break end
    if info.source == job.chunkname and info.currentline > 0 then error(info.short_src .. ':' .. info.currentline .. ': ' .. message, 0) end
  end
  error(message, 0)
end

collectgarbage = function(opt)
  if opt == 'count' then return gc('count') end
  raise('collectgarbage(' .. tostring(opt) .. ') is not available in kbctx scripts; only "count" is')
end

-- A host function returning JS undefined pushes no value at all; scripts expect nil (Context Harness:
-- `tostring(env.get("X"))`), so every wrapped call returns at least one value.
local function results(r)
  if not r[1] then raise(tostring(r[2])) end
  return unpack(r, 2, r.n > 1 and r.n or 2)
end
local function wrap(f)
  return function(...) return results(pack(pcall(f, ...))) end
end
local function wrap_async(f)
  return function(...) return results(pack(pcall(function(...) return f(...):await() end, ...))) end
end

-- 2. JSON encoding (Lua → JSON): a table with #t > 0 is an array of t[1..#t] (holes → null);
-- any other table is an object (string and number keys, sorted); an empty table is {}.
local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
local function quote(s)
  return '"' .. gsub(s, '[%c"\\]', function(c) return escapes[c] or format('\\u%04x', byte(c)) end) .. '"'
end
local function encode_into(v, out, seen)
  local t = type(v)
  if v == nil then
    out[#out + 1] = 'null'
  elseif t == 'boolean' then
    out[#out + 1] = v and 'true' or 'false'
  elseif t == 'number' then
    if mtype(v) == 'integer' then
      out[#out + 1] = format('%d', v)
    elseif v ~= v or v == huge or v == -huge then
      out[#out + 1] = 'null'
    else
      local s = format('%.14g', v)
      if tonumber(s) ~= v then s = format('%.17g', v) end
      out[#out + 1] = s
    end
  elseif t == 'string' then
    out[#out + 1] = quote(v)
  elseif t == 'table' then
    if seen[v] then error('json.encode: cannot encode a table that contains itself', 0) end
    seen[v] = true
    local n = #v
    if n > 0 then
      out[#out + 1] = '['
      for i = 1, n do
        if i > 1 then out[#out + 1] = ',' end
        encode_into(v[i], out, seen)
      end
      out[#out + 1] = ']'
    else
      local keys = {}
      for k in pairs(v) do
        local kt = type(k)
        if kt == 'string' then keys[#keys + 1] = k
        elseif kt == 'number' then keys[#keys + 1] = mtype(k) == 'integer' and format('%d', k) or tostring(k)
        else error('json.encode: cannot encode a table key of type ' .. kt, 0) end
      end
      sort(keys)
      out[#out + 1] = '{'
      for i, k in ipairs(keys) do
        if i > 1 then out[#out + 1] = ',' end
        out[#out + 1] = quote(k) .. ':'
        local val = v[k]
        if val == nil then val = v[tonumber(k)] end
        encode_into(val, out, seen)
      end
      out[#out + 1] = '}'
    end
    seen[v] = nil
  else
    error('json.encode: cannot encode a value of type ' .. t, 0)
  end
end
local function encode(v)
  local out = {}
  encode_into(v, out, {})
  return concat(out)
end

-- 3. Host modules, same names and shapes as Context Harness.
-- wasmoon hands a Lua string to the host only up to its first NUL byte: "a.txt\0x" would read a.txt.
-- A path, name or URL holding one is refused with a Lua error instead of being cut (issue 29).
local function no_nul(name, f)
  return function(...)
    local args = pack(...)
    for i = 1, args.n do
      if type(args[i]) == 'string' and find(args[i], '\0', 1, true) then
        raise(name .. ': argument ' .. i .. ' contains a NUL byte (\\0), which a path, name or URL cannot hold')
      end
    end
    return f(...)
  end
end
json = { encode = wrap(encode), parse = wrap(host.json_parse) }
json.decode = json.parse
env = { get = no_nul('env.get', wrap(host.env_get)) }
local function logger(level)
  return function(...)
    local parts = pack(...)
    for i = 1, parts.n do parts[i] = tostring(parts[i]) end
    host.log(level, concat(parts, '\t', 1, parts.n))
  end
end
log = { debug = logger('debug'), info = logger('info'), warn = logger('warn'), error = logger('error') }
print = logger('info')
fs = { read = no_nul('fs.read', wrap(host.fs_read)), list = no_nul('fs.list', wrap(host.fs_list)) }
base64 = { encode = wrap(host.base64_encode), decode = wrap(host.base64_decode) }
crypto = { sha256 = wrap(host.sha256), hmac_sha256 = wrap(host.hmac_sha256) }
local host_sleep = wrap_async(host.sleep)
sleep = function(seconds) host_sleep(tonumber(seconds) or 0) end

local host_http = wrap_async(host.http)
local host_json_parse = host.json_parse
local function request(method, url, body, opts)
  if type(url) == 'string' and find(url, '\0', 1, true) then raise('http.' .. lower(method) .. ': argument 1 contains a NUL byte (\\0), which a path, name or URL cannot hold') end
  if type(body) == 'table' then body = encode(body) end
  local res = host_http(method, url, body, opts)
  -- Decoded here, synchronously: async host results must stay shallow (see worker/host/to-lua.ts).
  local ok, value = pcall(host_json_parse, res.body)
  if ok then res.json = value end
  return res
end
http = {}
for _, m in ipairs({ 'get', 'delete' }) do
  http[m] = function(url, opts) return request(upper(m), url, nil, opts) end
end
for _, m in ipairs({ 'post', 'put', 'patch' }) do
  http[m] = function(url, body, opts) return request(upper(m), url, body, opts) end
end

local context = nil
if job.with_context then
  local call = wrap_async(host.context)
  context = { config = job.config }
  -- Accept both `context.search(q)` and `context:search(q)`.
  local function method(name)
    return function(first, ...)
      if first == context then return call(name, ...) end
      return call(name, first, ...)
    end
  end
  context.search, context.get, context.sources = method('search'), method('get'), method('sources')
end

-- 4. Load the script (text only) and run the entry function for this job.
local chunk, load_error = lua_load(job.source, job.chunkname, 't')
if not chunk then error(load_error, 0) end

local function global_table(name)
  local t = rawget(G, name)
  if type(t) ~= 'table' then error('the script does not define a global `' .. name .. '` table', 0) end
  return t
end
local function entry(t, name, fname)
  local f = t[fname]
  if type(f) ~= 'function' then error('`' .. name .. '.' .. fname .. '` is not a function', 0) end
  return f
end

local function run()
  chunk()
  local kind = job.kind
  if kind == 'tool.meta' then
    local t = global_table('tool')
    entry(t, 'tool', 'execute')
    return { name = t.name, version = t.version, description = t.description, parameters = t.parameters or {} }
  elseif kind == 'tool.execute' then
    if context then G.context = context end
    return { result = entry(global_table('tool'), 'tool', 'execute')(job.input, context) }
  elseif kind == 'agent.meta' then
    local a = global_table('agent')
    entry(a, 'agent', 'resolve')
    return { description = a.description, tools = a.tools or {}, arguments = a.arguments or {} }
  elseif kind == 'agent.resolve' then
    local out = entry(global_table('agent'), 'agent', 'resolve')(job.input, job.config, context)
    if type(out) ~= 'table' then error('agent.resolve must return a table with `system`, got ' .. type(out), 0) end
    return { prompt = out }
  elseif kind == 'connector.scan' then
    local items, checkpoint, deleted = entry(global_table('connector'), 'connector', 'scan')(job.config, job.input.checkpoint)
    return { items = items or {}, checkpoint = checkpoint, deleted = deleted }
  elseif kind == 'plugin.meta' then
    local p = global_table('plugin')
    local hooks = {}
    for _, name in ipairs({ 'document', 'query', 'rank', 'toolResult' }) do
      if p[name] ~= nil then hooks[#hooks + 1] = name; entry(p, 'plugin', name) end
    end
    -- Every function in the table, so the host refuses a misspelt handler instead of ignoring it.
    local handlers = {}
    for key, value in pairs(p) do
      if type(value) == 'function' then handlers[#handlers + 1] = tostring(key) end
    end
    sort(handlers)
    return { name = p.name, version = p.version, kbctx = p.kbctx, options = p.options, timeout = p.timeout, hooks = hooks, handlers = handlers }
  elseif kind == 'plugin.call' then
    local input = job.input
    return { value = entry(global_table('plugin'), 'plugin', input.hook)(unpack(input.args, 1, input.n)) }
  end
  error('unknown job kind ' .. tostring(kind), 0)
end

local function describe(e)
  if type(e) == 'string' then return e end
  local ok, text = pcall(encode, e)
  return 'error object: ' .. (ok and text or tostring(e))
end
local ok, result = xpcall(run, describe)
if not ok then error(result, 0) end
local encoded, encode_error = pcall(encode, result)
if not encoded then error('the script returned a value that cannot be encoded as JSON: ' .. encode_error, 0) end
return encode_error
