// Dropping the Lua bridge (`"!lua-bridge"`): a script tool or agent section is a config error naming
// the missing plugin (exit 3) for the commands that would load it; without script sections nothing changes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runKbctx, Workspace } from '../../helpers/workspace.ts';
import { joinedRegExp } from '../../helpers/joined-regexp.ts';

let ws: Workspace;
const cli = (config: string, args: string[]) => runKbctx(['-c', config, ...args], { cwd: ws.dir });

before(() => {
  ws = new Workspace();
  ws.write('docs/a.md', '# A\n\nAlpha.');
  ws.write(
    'tools/echo.lua',
    'tool = { description = "Echo", parameters = {} }\nfunction tool.execute() return "hi" end\n',
  );
  ws.write(
    'agents/guide.lua',
    'agent = { description = "Guide" }\nfunction agent.resolve() return { system = "Be kind." } end\n',
  );
  const sections = '[db]\npath = "data/kb.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n';
  ws.write(
    'tool.toml',
    `plugins = ["bundled", "!lua-bridge"]\n${sections}[tools.script.echo]\npath = "tools/echo.lua"\n`,
  );
  ws.write(
    'agent.toml',
    `plugins = ["bundled", "!lua-bridge"]\n${sections}[agents.script.guide]\npath = "agents/guide.lua"\n`,
  );
  ws.write('none.toml', `plugins = ["bundled", "!lua-bridge"]\n${sections}`);
});
after(() => ws.cleanup());

describe('plugins = ["bundled", "!lua-bridge"]', () => {
  for (const args of [
    ['sync', 'all'],
    ['tool', 'list'],
    ['tool', 'call', 'echo'],
    ['agent', 'list'],
  ]) {
    it(`[tools.script.*]: \`kbctx ${args.join(' ')}\` exits 3 naming lua-bridge`, async () => {
      const run = await cli('tool.toml', args);
      assert.equal(run.code, 3, run.stderr);
      assert.match(
        run.stderr,
        joinedRegExp(
          /\[tools\.script\.echo\] needs the plugin lua-bridge, which is /,
          /not loaded \(plugins drops it with "!lua-bridge"\)/,
        ),
      );
    });
  }

  it('[agents.script.*]: `kbctx agent test` exits 3 naming lua-bridge', async () => {
    const run = await cli('agent.toml', ['agent', 'test', 'guide']);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /\[agents\.script\.guide\] needs the plugin lua-bridge/);
  });

  it(
    'the script commands go with it: `kbctx tool test` and `kbctx ' +
      'connector init` are unknown, `tool list` and `connector list` stay',
    async () => {
      const run = await cli('none.toml', ['tool', 'test', 'tools/echo.lua']);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /unknown command 'test'/);
      const connector = await cli('none.toml', ['connector', 'init', 'x']);
      assert.equal(connector.code, 2, connector.stderr);
      assert.match(connector.stderr, /unknown command 'init'/);
      assert.equal((await cli('none.toml', ['connector', 'list'])).code, 0);
    },
  );

  it('without script sections, sync and the tool list are as before (no script tools)', async () => {
    const sync = await cli('none.toml', ['sync', 'all']);
    assert.equal(sync.code, 0, sync.stderr);
    const list = await cli('none.toml', ['tool', 'list', '--json']);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name),
      ['search', 'get', 'sources'],
    );
  });
});
