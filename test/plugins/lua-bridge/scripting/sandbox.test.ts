// Every sandbox escape we know of, attempted from a real Lua script, must be refused.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LuaFixture } from '../../../helpers/lua.ts';

describe('sandbox', () => {
  let fx: LuaFixture;
  let outside: string;
  before(() => {
    fx = new LuaFixture({ memoryMaxBytes: 16 * 1024 * 1024 });
    outside = mkdtempSync(path.join(tmpdir(), 'kbctx-outside-'));
    writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    mkdirSync(path.join(fx.dir, 'tools'), { recursive: true });
    symlinkSync(path.join(outside, 'secret.txt'), path.join(fx.dir, 'tools', 'link-out.txt'));
    symlinkSync(outside, path.join(fx.dir, 'tools', 'dir-out'));
    writeFileSync(path.join(fx.dir, 'sibling.txt'), 'sibling of the tools folder');
  });
  after(async () => {
    await fx.close();
    rmSync(outside, { recursive: true, force: true });
  });

  it('dangerous globals and functions are absent', async () => {
    const names = [
      'io',
      'require',
      'load',
      'loadstring',
      'dofile',
      'loadfile',
      'debug',
      'package',
      'os.execute',
      'os.exit',
      'os.getenv',
      'os.remove',
      'os.rename',
      'os.tmpname',
      'string.dump',
      '("").dump',
      'rawget(_G, "load")',
      'rawget(_G, "__host")',
      'rawget(_G, "__job")',
    ];
    const out = await fx.exec(`return { ${names.map((n) => `type(${n})`).join(', ')} }`);
    assert.deepEqual(
      out,
      names.map(() => 'nil'),
    );
    assert.deepEqual(await fx.exec('return { type(os.time), type(os.date), type(os.clock) }'), [
      'function',
      'function',
      'function',
    ]);
  });

  it('calling the removed functions fails', async () => {
    for (const call of [
      'os.execute("id")',
      'os.exit(1)',
      'io.open("/etc/passwd")',
      'require("os")',
      'load("return 1")',
      'dofile("/etc/passwd")',
      'loadfile("x")',
      'debug.getinfo(1)',
      'string.dump(print)',
    ]) {
      await assert.rejects(
        fx.exec(`local r = ${call}\nreturn r`),
        (e: Error) => /attempt to (call|index) a nil value/.test(e.message),
        call,
      );
    }
  });

  it('collectgarbage only counts', async () => {
    assert.equal(await fx.exec(`return type(collectgarbage("count"))`), 'number');
    await assert.rejects(fx.exec(`collectgarbage("stop")`), /collectgarbage\(stop\) is not available/);
    await assert.rejects(fx.exec(`collectgarbage()`), /is not available/);
  });

  it('fs cannot leave the script folder: .., absolute paths, symlinks', async () => {
    const file = 'tools/t.lua';
    for (const attempt of [
      'fs.read("../sibling.txt")',
      'fs.read("sub/../../sibling.txt")',
      `fs.read("${path.join(outside, 'secret.txt')}")`,
      'fs.read("/etc/passwd")',
      'fs.list("..")',
      `fs.list("${outside}")`,
    ]) {
      await assert.rejects(
        fx.exec(`local r = ${attempt}\nreturn r`, { file }),
        /is outside the script's folder/,
        attempt,
      );
    }
    for (const attempt of ['fs.read("link-out.txt")', 'fs.read("dir-out/secret.txt")', 'fs.list("dir-out")']) {
      await assert.rejects(
        fx.exec(`local r = ${attempt}\nreturn r`, { file }),
        /resolves outside the script's folder/,
        attempt,
      );
    }
    const listed = (await fx.exec(`return fs.list(".")`, { file })) as { path: string }[];
    assert.deepEqual(
      listed.map((e) => e.path),
      ['t.lua'],
      'symlinks leading outside are not listed',
    );
  });

  it('text only: a precompiled chunk cannot be loaded as the script', async () => {
    const file = fx.write('bytecode.lua', '\x1bLua\x54\x00garbage');
    await assert.rejects(fx.run('tool.meta', file), /attempt to load a binary chunk/);
  });

  it('a memory bomb hits the per-state cap and the runtime keeps working', async () => {
    await assert.rejects(
      fx.exec(`local t = {} for i = 1, 1e8 do t[i] = string.rep("x", 1000) .. i end`),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, 'script_error');
        assert.match(e.message, /memory limit exceeded \(16 MiB\)/);
        return true;
      },
    );
    await assert.rejects(fx.exec(`local s = string.rep("x", 64 * 1024 * 1024)`), /memory limit exceeded/);
    assert.equal(await fx.exec(`return 1 + 1`), 2);
  });

  it('a fresh state per call: globals do not leak between calls', async () => {
    await fx.exec(`leaked = "yes"`);
    assert.equal(await fx.exec(`return leaked == nil`), true);
  });
});
