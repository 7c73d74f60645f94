// Lua failures reach callers as KbctxError('script_error') carrying the Lua message with the
// script's file name and line number.
import { KbctxError } from '../../../../core/index.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LuaFixture } from '../../../helpers/lua.ts';

function scriptError(pattern: RegExp) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof KbctxError, String(e));
    assert.equal(e.code, 'script_error');
    assert.match(e.message, pattern);
    return true;
  };
}

describe('script errors', () => {
  let fx: LuaFixture;
  before(() => (fx = new LuaFixture()));
  after(() => fx.close());

  it('runtime errors carry file and line', async () => {
    await assert.rejects(
      fx.exec('local x = nil\nreturn x.y'),
      scriptError(/^tool:tool: tool\.lua:4: attempt to index a nil value \(local 'x'\)$/),
    );
  });

  it('error("…") carries the line of the error call', async () => {
    await assert.rejects(fx.exec('\n\nerror("boom")'), scriptError(/tool\.lua:5: boom$/));
  });

  it('syntax errors name the line', async () => {
    const file = fx.write('broken.lua', 'tool = {}\nfunction tool.execute(\n  return 1 +\nend\n');
    await assert.rejects(fx.run('tool.meta', file), scriptError(/broken\.lua:3: .*near 'return'/));
  });

  it('a table error value is shown as JSON', async () => {
    await assert.rejects(fx.exec('error({ code = 42 })'), scriptError(/error object: \{"code":42\}/));
  });

  it('a missing global table or entry function is explained', async () => {
    const none = fx.write('none.lua', 'local x = 1\n');
    await assert.rejects(fx.run('tool.meta', none), scriptError(/does not define a global `tool` table/));
    const noExec = fx.write('noexec.lua', 'tool = { description = "x" }\n');
    await assert.rejects(fx.run('tool.meta', noExec), scriptError(/`tool.execute` is not a function/));
    await assert.rejects(fx.run('agent.meta', noExec), scriptError(/global `agent` table/));
  });

  it('a result that cannot become JSON is a script error', async () => {
    await assert.rejects(
      fx.exec('return { f = print }'),
      scriptError(/cannot be encoded as JSON: json.encode: cannot encode a value of type function/),
    );
  });

  it('a 10 MiB error() message is cut to a few KB and says it was truncated (issue 21)', async () => {
    await assert.rejects(fx.exec('error("start " .. string.rep("x", 10 * 1024 * 1024))'), (e: unknown) => {
      assert.ok(e instanceof KbctxError && e.code === 'script_error', String(e));
      assert.ok(e.message.length <= 4096, `message length ${e.message.length}`);
      assert.match(e.message, /^tool:tool: tool\.lua:3: start x+… \(truncated\)$/);
      return true;
    });
    assert.equal(await fx.exec('return "still usable"'), 'still usable');
  });

  it('a missing script file is a script error naming it', async () => {
    await assert.rejects(
      fx.run('tool.meta', `${fx.dir}/nope.lua`),
      scriptError(/cannot read script .*nope\.lua: ENOENT/),
    );
  });
});
