// Every host module, called from real Lua scripts in real workers (wasmoon), with a real HTTP
// server on 127.0.0.1 for `http`.
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { LuaFixture, useLuaWithUpstream } from '../../../helpers/lua.ts';
import { startUpstream } from '../../../helpers/http-server.ts';

describe('host modules', () => {
  const env = useLuaWithUpstream();

  it("utf8 is Lua 5.4's utf8 library, not a second string library (wasmoon 1.16 opens string for it)", async () => {
    const out = await env.fx.exec(
      `return { utf8.char(8364, 72), utf8.len("h\\u{E9}llo"), utf8.codepoint("\\u{20AC}"), utf8.charpattern ~= ` +
        `nil, string.len(utf8.char(8364)) }`,
    );
    assert.deepEqual(out, ['€H', 5, 8364, true, 3]);
  });

  it('json.parse/decode: null → nil, holes, integers stay integers', async () => {
    const out = await env.fx.exec(`
      local v = json.parse('{"a": 1, "b": 2.5, "n": null, "list": [1, null, 3], "s": "x"}')
      return { a = math.type(v.a), b = math.type(v.b), n = v.n == nil, l1 = v.list[1], l2 = v.list[2] == nil,
        l3 = v.list[3],
               same = json.decode == json.parse, s = v.s }`);
    assert.deepEqual(out, { a: 'integer', b: 'float', n: true, l1: 1, l2: true, l3: 3, same: true, s: 'x' });
  });

  it('json.encode: arrays, objects, empty table → {}, holes → null, sorted keys, escapes', async () => {
    const out = await env.fx.exec(`
      return { json.encode({1, 2, 3}), json.encode({}), json.encode({b = 1, a = {x = true}}), json.encode({1, nil, 3}),
               json.encode("q\\"\\n"), json.encode(0.1), json.encode(42), json.encode({[1] = "a", [2] = "b"}) }`);
    assert.deepEqual(out, [
      '[1,2,3]',
      '{}',
      '{"a":{"x":true},"b":1}',
      '[1,null,3]',
      '"q\\"\\n"',
      '0.1',
      '42',
      '["a","b"]',
    ]);
  });

  it('json errors are Lua errors at the caller line', async () => {
    await assert.rejects(env.fx.exec(`\nlocal v = json.parse("{nope")\nreturn v`), (e: Error) =>
      /tool\.lua:4: json\.parse:/.test(e.message),
    );
    await assert.rejects(env.fx.exec(`local t = {}; t.self = t; return json.encode(t)`), /contains itself/);
  });

  it(
    'json.parse takes 100 levels of nesting and refuses deeper ' + 'input with a Lua error, leaving the worker usable',
    async () => {
      const depth = (n: number): string =>
        `local v = json.parse(string.rep("[", ${n}) .. "1" .. string.rep("]", ${n})); local d = 0; while type(v) ` +
        `== "table" do v = v[1]; d = d + 1 end; return d`;
      assert.equal(await env.fx.exec(depth(99)), 99);
      await assert.rejects(env.fx.exec(depth(5000)), /json\.parse: value is nested deeper than 100 levels/);
      assert.equal(await env.fx.exec('return "still alive"'), 'still alive');
    },
  );

  it('env.get returns an allowed value, nil for the rest', async () => {
    const fx = new LuaFixture({ env: { KBCTX_LUA_TEST_VAR: 'from-env' } });
    try {
      const read =
        `return { env.get("KBCTX_LUA_TEST_VAR"), env.get("KBCTX_LUA_TEST_UNSET") ` +
        `== nil, env.get("PATH") == nil, env.get("HOME") == nil }`;
      assert.deepEqual(await fx.exec(read), ['from-env', true, true, true]);
    } finally {
      await fx.close();
    }
  });

  it('env.get and json.parse("null") return one value, nil, so tostring and select see it (issue 21)', async () => {
    const fx = new LuaFixture({ env: { KBCTX_LUA_TEST_VAR: 'from-env' } });
    try {
      const read = `return { tostring(env.get("KBCTX_LUA_TEST_UNSET")), tostring(env.get("PATH")),
        tostring(json.parse("null")),
        select("#", env.get("KBCTX_LUA_TEST_UNSET")), select("#", json.parse("null")), select("#",
          env.get("KBCTX_LUA_TEST_VAR")) }`;
      assert.deepEqual(await fx.exec(read), ['nil', 'nil', 'nil', 1, 1, 1]);
    } finally {
      await fx.close();
    }
  });

  it('log.* and print go to the log sink with the label, not stdout', async () => {
    env.fx.logs.length = 0;
    await env.fx.exec(`log.info("i") log.warn("w") log.error("e") log.debug("d") print("p", 1, nil)`, {
      file: 'logger.lua',
    });
    assert.deepEqual(env.fx.logs, [
      'tool:logger [info] i',
      'tool:logger [warn] w',
      'tool:logger [error] e',
      'tool:logger [debug] d',
      'tool:logger [info] p\t1\tnil',
    ]);
  });

  it('fs.read and fs.list work inside the script folder', async () => {
    env.fx.write('data/a.txt', 'alpha');
    env.fx.write('data/b.md', 'beta!');
    const out = (await env.fx.exec(
      `return { fs.read("data/a.txt"), fs.list("data"), fs.list("data", "*.md") }`,
    )) as unknown[];
    assert.equal(out[0], 'alpha');
    assert.deepEqual(
      (out[1] as { path: string }[]).map((e) => e.path),
      ['data/a.txt', 'data/b.md'],
    );
    assert.deepEqual(out[2], [
      { path: 'data/b.md', size: 5, modified: (out[2] as { modified: number }[])[0]!.modified },
    ]);
    assert.ok((out[2] as { modified: number }[])[0]!.modified > 1_600_000_000);
  });

  it('a NUL byte in a path, name or URL is a Lua error at the caller line, not a cut string (issue 29)', async () => {
    env.fx.write('data/a.txt', 'alpha');
    const cases: [string, string][] = [
      ['fs.read("data/a.txt\\0.secret")', 'fs.read'],
      ['fs.list("data\\0x")', 'fs.list'],
      ['fs.list("data", "*.txt\\0")', 'fs.list'],
      ['env.get("HOME\\0X")', 'env.get'],
      ['http.get("http://127.0.0.1:1/\\0")', 'http.get'],
    ];
    for (const [call, name] of cases) {
      await assert.rejects(
        env.fx.exec(`\nlocal v = ${call}\nreturn v`),
        (e: Error) =>
          new RegExp(`tool\\.lua:4: ${name.replace('.', '\\.')}: argument \\d contains a NUL byte`).test(e.message),
        call,
      );
    }
    assert.equal(await env.fx.exec('return fs.read("data/a.txt")'), 'alpha');
  });

  it('fs follows a symlink that stays inside the folder', async () => {
    writeFileSync(path.join(env.fx.dir, 'real.txt'), 'real');
    symlinkSync(path.join(env.fx.dir, 'real.txt'), path.join(env.fx.dir, 'link.txt'));
    assert.equal(await env.fx.exec(`return fs.read("link.txt")`), 'real');
  });

  it('base64 and crypto', async () => {
    const out = await env.fx.exec(`return { base64.encode("hello, wörld"),
      base64.decode(base64.encode("hello, wörld")), crypto.sha256("abc"),
      crypto.hmac_sha256("key", "The quick brown fox jumps over the lazy dog") }`);
    assert.deepEqual(out, [
      Buffer.from('hello, wörld').toString('base64'),
      'hello, wörld',
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    ]);
    await assert.rejects(env.fx.exec(`return base64.decode("***")`), /not valid base64/);
  });

  it('sleep waits, os clock functions work', async () => {
    const started = Date.now();
    const out = (await env.fx.exec(
      `local t0 = os.clock(); sleep(0.2); return { os.time() > 1600000000, os.date("!%Y", 0), type(os.clock()) }`,
    )) as unknown[];
    assert.ok(Date.now() - started >= 190);
    assert.deepEqual(out, [true, '1970', 'number']);
  });

  it('http.get: status, ok, lower-case headers, body, json with nulls stripped', async () => {
    const out = (await env.fx.exec(`local r = http.get("${env.server.url}/json")
      return { r.status, r.ok, r.headers["x-custom"], r.headers["X-Custom"] == nil, r.json.a, r.json.n == nil,
        r.json.list[3], type(r.body) }`)) as unknown[];
    assert.deepEqual(out, [200, true, 'Yes', true, 1, true, 3, 'string']);
  });

  it('http: params, headers, bodies and every method', async () => {
    const out = (await env.fx.exec(`
      local g = http.get("${env.server.url}/echo", { params = { q = "a b", n = 5 }, headers = {
        ["X-Token"] = "t" } }).json
      local p = http.post("${env.server.url}/echo", '{"x":1}', { headers = {
        ["Content-Type"] = "application/json" } }).json
      local u = http.put("${env.server.url}/echo", "put-body").json
      local d = http.delete("${env.server.url}/echo").json
      local pa = http.patch("${env.server.url}/echo", "patch-body").json
      return { g.method, g.query.q, g.query.n, g.headers["x-token"], p.method, p.body, u.method, u.body, d.method,
        pa.method, pa.body }`)) as unknown[];
    assert.deepEqual(out, [
      'GET',
      'a b',
      '5',
      't',
      'POST',
      '{"x":1}',
      'PUT',
      'put-body',
      'DELETE',
      'PATCH',
      'patch-body',
    ]);
  });

  it('http: non-2xx is not an error; redirects followed up to 10', async () => {
    const out = await env.fx.exec(`local m = http.get("${env.server.url}/missing");
        local r = http.get("${env.server.url}/redirect/10")
      return { m.status, m.ok, m.body, m.json == nil, r.status, r.body }`);
    assert.deepEqual(out, [404, false, 'no such thing', true, 200, 'arrived']);
    await assert.rejects(
      env.fx.exec(`return http.get("${env.server.url}/redirect/11")`),
      /HTTP GET .*redirect\/11 failed: more than 10 redirects/,
    );
  });

  it('http: a transport failure raises HTTP <METHOD> <url> failed', async () => {
    const closed = await startUpstream();
    const url = closed.url;
    await closed.close();
    await assert.rejects(env.fx.exec(`\n\nlocal r = http.post("${url}/x", "b")\nreturn r`), (e: Error) => {
      assert.match(e.message, new RegExp(`tool\\.lua:5: HTTP POST ${url}/x failed: ECONNREFUSED`));
      return true;
    });
    await assert.rejects(
      env.fx.exec(`return http.get("${env.server.url}/hang", { timeout = 0.3 })`),
      /failed: timed out after 0\.3 s/,
    );
  });
});
