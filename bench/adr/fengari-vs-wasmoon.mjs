// ADR 0120 measurement: fengari (Lua 5.3 in JavaScript) against wasmoon (Lua 5.4 in WASM, what
// kbctx uses). NOT part of `npm test` or `npm run bench`; the candidates are not dependencies.
// It needs a scratch install outside the repository:
//
//   mkdir -p /tmp/measure && cd /tmp/measure && npm init -y && npm i fengari wasmoon
//   KBCTX_MEASURE_DIR=/tmp/measure/node_modules node bench/adr/fengari-vs-wasmoon.mjs [runs]
//
// KBCTX_MEASURE_DIR (default /tmp/measure/node_modules) is the node_modules folder both are loaded
// from. Part 1 runs Lua 5.4 snippets of the kind Context Harness scripts use on both VMs and prints
// what each returns. Part 2 times script work in-process, each run = create a state, open the standard
// libraries, run the chunk, close the state; one untimed warm-up each, then `runs` (default 7) timed
// runs alternating which VM goes first; prints medians (wall and process CPU time) and the ratios.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const DIR = process.env.KBCTX_MEASURE_DIR || '/tmp/measure/node_modules';
const RUNS = Math.max(1, Number(process.argv[2]) || 7);
const require = createRequire(import.meta.url);
const fengari = require(path.join(DIR, 'fengari'));
const { LuaFactory, LuaLibraries } = require(path.join(DIR, 'wasmoon'));
const wasmoonVersion = require(path.join(DIR, 'wasmoon/package.json')).version;
const fengariVersion = require(path.join(DIR, 'fengari/package.json')).version;

const factory = new LuaFactory();
const WASMOON_LIBS = [
  LuaLibraries.Base,
  LuaLibraries.Coroutine,
  LuaLibraries.Table,
  LuaLibraries.String,
  LuaLibraries.UTF8,
  LuaLibraries.Math,
  LuaLibraries.OS,
  LuaLibraries.Debug,
];

/** Runs `source` in a fresh wasmoon state; resolves to { ok, value } with the chunk's result as a string. */
async function runWasmoon(source) {
  // As src/scripting/worker/run-job.ts does: no proxies or injected objects, libraries opened one by one.
  const engine = await factory.createEngine({ openStandardLibs: false, enableProxy: false, injectObjects: false });
  try {
    for (const lib of WASMOON_LIBS) engine.global.loadLibrary(lib);
    const value = await engine.doString(source);
    return { ok: true, value: String(value) };
  } catch (error) {
    return { ok: false, value: String(error?.message ?? error).split('\n')[0] };
  } finally {
    engine.global.close();
  }
}

/** Runs `source` in a fresh fengari state, the same way. */
function runFengari(source) {
  const { lua, lauxlib, lualib, to_luastring } = fengari;
  const L = lauxlib.luaL_newstate();
  try {
    lualib.luaL_openlibs(L);
    const status = lauxlib.luaL_loadstring(L, to_luastring(source));
    const run = status === lua.LUA_OK ? lua.lua_pcall(L, 0, 1, 0) : status;
    const value = lauxlib.luaL_tolstring(L, -1) ? lua.lua_tojsstring(L, -1) : '';
    return { ok: run === lua.LUA_OK, value };
  } finally {
    lua.lua_close(L);
  }
}

// ---------------------------------------------------------------------------------------------
// Part 1: Lua 5.4 compatibility. Each snippet returns one string; `expected` is Lua 5.4's answer.
const SNIPPETS = [
  [
    'integer division //',
    'return tostring(7 // 2) .. " " .. tostring(7.0 // 2) .. " " .. tostring(-7 // 2)',
    '3 3.0 -4',
  ],
  ['math.tointeger', 'return tostring(math.tointeger(3.0)) .. " " .. tostring(math.tointeger(3.5))', '3 nil'],
  [
    'integer/float distinction',
    'return math.type(1) .. " " .. math.type(1.0) .. " " .. tostring(1 == 1.0) .. " " .. tostring(3 / 1)',
    'integer float true 3.0',
  ],
  ['math.maxinteger (64-bit integers)', 'return tostring(math.maxinteger)', '9223372036854775807'],
  [
    'epoch milliseconds (os.time()*1000-style)',
    'local s = 1767225600; return tostring(s * 1000) .. " " .. math.type(s * 1000)',
    '1767225600000 integer',
  ],
  ['string.format %d of 2^40', 'return string.format("%d", 1 << 40)', '1099511627776'],
  [
    'utf8 library',
    'return utf8.char(72, 228, 8364) .. " " .. utf8.len("häll€") .. " " .. utf8.codepoint("€")',
    'Hä€ 5 8364',
  ],
  ['utf8.len lax (5.4)', 'return tostring(utf8.len("\\u{7FFFFFFF}", 1, -1, true))', '1'],
  ['local <const> (5.4)', 'local limit <const> = 10; return tostring(limit * 2)', '20'],
  [
    'local <close> (5.4)',
    'local log = {}\ndo local h <close> = setmetatable({}, { __close = function() log[#log + 1] = "closed" end }) end\nreturn table.concat(log, ",")',
    'closed',
  ],
  [
    'string.pack / unpack',
    'local p = string.pack("<i4 z", 100, "ab"); local n, s = string.unpack("<i4 z", p); return #p .. " " .. n .. " " .. s',
    '7 100 ab',
  ],
  ['string.pack i8', 'return tostring((string.unpack("<i8", string.pack("<i8", 1 << 40))))', '1099511627776'],
  ['goto', 'local n = 0\n::top:: n = n + 1\nif n < 3 then goto top end\nreturn tostring(n)', '3'],
  [
    'coroutine.close (5.4)',
    'local co = coroutine.create(function() coroutine.yield() end); coroutine.resume(co); return tostring(coroutine.close(co))',
    'true',
  ],
  ['warn (5.4)', 'return type(warn)', 'function'],
  ['math.random(0) 64-bit (5.4)', 'return math.type(math.random(0))', 'integer'],
  ['collectgarbage("generational") (5.4)', 'return tostring(collectgarbage("generational"))', 'incremental'],
  ['string.format %.17g (C printf digits)', 'return string.format("%.17g", 0.1)', '0.10000000000000001'],
  ['string->integer coercion', 'return tostring("10" + 1) .. " " .. math.type("10" + 1)', '11 integer'],
];

console.log(`fengari ${fengariVersion} vs wasmoon ${wasmoonVersion}, Node ${process.version}, ${RUNS} timed runs`);
const wasmoonVersionLine = (await runWasmoon('return _VERSION')).value;
const fengariVersionLine = runFengari('return _VERSION').value;
console.log(`_VERSION: wasmoon "${wasmoonVersionLine}", fengari "${fengariVersionLine}"\n`);
console.log('## Lua 5.4 compatibility (expected = Lua 5.4 result)\n');
console.log('| snippet | wasmoon | fengari |');
console.log('|---|---|---|');
const verdict = (r, expected) =>
  r.ok && r.value === expected ? 'ok' : `FAIL: ${r.ok ? `returned ${JSON.stringify(r.value)}` : r.value}`;
let fengariFailures = 0;
for (const [name, code, expected] of SNIPPETS) {
  const w = verdict(await runWasmoon(code), expected);
  const f = verdict(runFengari(code), expected);
  if (f !== 'ok') fengariFailures++;
  console.log(`| ${name} | ${w} | ${f.replaceAll('|', '\\|')} |`);
}
console.log(`\nfengari fails ${fengariFailures} of ${SNIPPETS.length} snippets.\n`);

// ---------------------------------------------------------------------------------------------
// Part 2: speed. Workloads use only Lua 5.3 syntax so both VMs run them; each returns a checksum
// string, and the two VMs must agree on it.
// The repository's example connector, run unchanged over a stubbed http.get.
const EXAMPLE_CONNECTOR = readFileSync(
  new URL('../../examples/connectors/github-issues/connector.lua', import.meta.url),
  'utf8',
);

const JSON_ENCODER = `
local format, gsub, byte, concat, sort, mtype, huge = string.format, string.gsub, string.byte, table.concat, table.sort, math.type, math.huge
local escapes = { ['"'] = '\\\\"', ['\\\\'] = '\\\\\\\\', ['\\b'] = '\\\\b', ['\\f'] = '\\\\f', ['\\n'] = '\\\\n', ['\\r'] = '\\\\r', ['\\t'] = '\\\\t' }
local function quote(s)
  return '"' .. gsub(s, '[%c"\\\\]', function(c) return escapes[c] or format('\\\\u%04x', byte(c)) end) .. '"'
end
local function encode_into(v, out)
  local t = type(v)
  if v == nil then out[#out + 1] = 'null'
  elseif t == 'boolean' then out[#out + 1] = v and 'true' or 'false'
  elseif t == 'number' then
    if mtype(v) == 'integer' then out[#out + 1] = format('%d', v)
    elseif v ~= v or v == huge or v == -huge then out[#out + 1] = 'null'
    else local s = format('%.14g', v); if tonumber(s) ~= v then s = format('%.17g', v) end; out[#out + 1] = s end
  elseif t == 'string' then out[#out + 1] = quote(v)
  else
    local n = #v
    if n > 0 then
      out[#out + 1] = '['
      for i = 1, n do if i > 1 then out[#out + 1] = ',' end; encode_into(v[i], out) end
      out[#out + 1] = ']'
    else
      local keys = {}
      for k in pairs(v) do keys[#keys + 1] = type(k) == 'string' and k or format('%d', k) end
      sort(keys)
      out[#out + 1] = '{'
      for i, k in ipairs(keys) do
        if i > 1 then out[#out + 1] = ',' end
        out[#out + 1] = quote(k) .. ':'
        local val = v[k]; if val == nil then val = v[tonumber(k)] end
        encode_into(val, out)
      end
      out[#out + 1] = '}'
    end
  end
end
local function encode(v) local out = {}; encode_into(v, out); return concat(out) end
`;

const WORKLOADS = [
  [
    'tables: build 50k records, sort by key',
    `local t = {}
     for i = 1, 50000 do t[i] = { id = i, key = (i * 7919) % 50021, name = "n" .. i } end
     table.sort(t, function(a, b) return a.key < b.key end)
     local sum = 0
     for i = 1, #t, 100 do sum = (sum + t[i].key) % 1000003 end
     return tostring(sum)`,
  ],
  [
    'strings: format + gsub + find over 100k items',
    `local parts, n = {}, 0
     for i = 1, 100000 do
       local s = string.format("item-%06d: %s [%5.2f]", i, ("title of item " .. i):upper(), i / 7)
       s = s:gsub("%d", "#"):gsub("ITEM", "it")
       if s:find("it", 1, true) then n = n + #s end
       parts[#parts + 1] = s:sub(1, 8)
     end
     return n .. " " .. #table.concat(parts, ",")`,
  ],
  [
    'JSON-ish encode of nested tables (2,000 docs)',
    `${JSON_ENCODER}
     local docs = {}
     for i = 1, 2000 do
       docs[i] = { id = i, title = "Doc " .. i .. " \\"quoted\\"\\n", score = i / 3, tags = { "a", "b", "t" .. (i % 10) },
                   meta = { author = { name = "user" .. (i % 50), id = i % 50 }, draft = (i % 2 == 0), parts = { 1, 2, 3, { deep = i } } } }
     end
     local s = encode(docs)
     return tostring(#s)`,
  ],
  [
    'fib(27) recursion',
    `local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
     return tostring(fib(27))`,
  ],
  [
    'connector script: 1,000 items (github-issues example, JSON encoded)',
    `${JSON_ENCODER}
     json = { encode = encode }
     log = { info = function() end }
     -- Stands in for the host's http.get: a page of GitHub-like issues, as already decoded from JSON.
     http = { get = function(url, opts)
       local page, per = opts.params.page, opts.params.per_page
       local list = {}
       if page <= 1000 // per then
         for j = 1, per do
           local n = (page - 1) * per + j
           list[j] = { number = n, title = "Issue number " .. n .. " about widgets", body = string.rep("Body text of the issue. ", 20),
             html_url = "https://github.com/o/r/issues/" .. n, user = { login = "user" .. (n % 37) },
             created_at = string.format("2025-01-%02dT10:00:00Z", n % 28 + 1), updated_at = string.format("2025-02-%02dT%02d:00:00Z", n % 28 + 1, n % 24),
             state = (n % 3 == 0) and "closed" or "open", labels = { { name = "bug" }, { name = "p" .. (n % 4) } } }
         end
       end
       return { ok = true, status = 200, json = list }
     end }
     ${EXAMPLE_CONNECTOR}
     local items, newest = connector.scan({ repo = "o/r", per_page = "50" }, nil)
     local out = encode({ items = items, checkpoint = newest }) -- what runner.lua hands back to the host
     return #items .. " " .. #out`,
  ],
];

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (ms) => (ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));

// Wall time, and this process's CPU time (user + system), which a shared machine disturbs less.
const cpuMs = (c) => (c.user + c.system) / 1000;
async function timeWasmoon(code) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await runWasmoon(code);
  const ms = performance.now() - t0;
  const cpu = cpuMs(process.cpuUsage(c0));
  if (!r.ok) throw new Error(`wasmoon failed: ${r.value}`);
  return { ms, cpu, value: r.value };
}
function timeFengari(code) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = runFengari(code);
  const ms = performance.now() - t0;
  const cpu = cpuMs(process.cpuUsage(c0));
  if (!r.ok) throw new Error(`fengari failed: ${r.value}`);
  return { ms, cpu, value: r.value };
}

console.log(`## Speed: create state + open libs + run + close, median of ${RUNS} runs (alternating order)\n`);
console.log('| workload | wasmoon ms | fengari ms | fengari / wasmoon | wasmoon CPU ms | fengari CPU ms | CPU ratio |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
/** Times one workload on both VMs: one warm-up, then RUNS runs, alternating which goes first. */
const notes = [];
async function timeBoth(code, name = '') {
  const w = [];
  const f = [];
  const wc = [];
  const fc = [];
  let wValue = '';
  let fValue = '';
  for (let r = 0; r <= RUNS; r++) {
    let a;
    let b;
    if (r % 2 === 0) {
      a = await timeWasmoon(code);
      b = timeFengari(code);
    } else {
      b = timeFengari(code);
      a = await timeWasmoon(code);
    }
    wValue = a.value;
    fValue = b.value;
    if (r === 0) continue; // warm-up
    w.push(a.ms);
    f.push(b.ms);
    wc.push(a.cpu);
    fc.push(b.cpu);
  }
  if (wValue !== fValue) notes.push(`${name}: results differ (wasmoon ${wValue}, fengari ${fValue})`);
  return { w: median(w), f: median(f), wc: median(wc), fc: median(fc) };
}

const row = (name, m) =>
  `| ${name} | ${fmt(m.w)} | ${fmt(m.f)} | ${(m.f / m.w).toFixed(1)}× | ${fmt(m.wc)} | ${fmt(m.fc)} | ${(m.fc / m.wc).toFixed(1)}× |`;
console.log(row('empty chunk (state start-up only)', await timeBoth('return ""')));
const ratios = [];
const cpuRatios = [];
for (const [name, code] of WORKLOADS) {
  const m = await timeBoth(code, name);
  ratios.push(m.f / m.w);
  cpuRatios.push(m.fc / m.wc);
  console.log(row(name, m));
}
const range = (r) => `${Math.min(...r).toFixed(1)}–${Math.max(...r).toFixed(1)}×`;
for (const note of notes) console.log(`\nnote: ${note}`);
console.log(`\nfengari / wasmoon on the script workloads: ${range(ratios)} (wall), ${range(cpuRatios)} (CPU).`);
