// The extensions plugin through the real CLI: each `[extensions] modules` entry is a plugin
// (`extension:<name>` in `kbctx plugins`, its tool listed); dropped (`"!extensions"`), configured modules
// are a config error naming the plugin (exit 3) and there is no `extension` subcommand.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';

const MODULE =
  "export default (kbctx) => kbctx.registerTool({ name: 'shout', description: 'Upper-cases text', execute: ({ " +
  'text }) => String(text).toUpperCase() });\n';

let ws: Workspace;
before(() => {
  ws = new Workspace('kbctx-extensions-plugin-');
  ws.write('ext/shout.mjs', MODULE);
  ws.write('with.toml', '[extensions]\nmodules = ["./ext/shout.mjs"]\n');
  ws.write('without.toml', 'plugins = ["bundled", "!extensions"]\n\n[extensions]\nmodules = ["./ext/shout.mjs"]\n');
  ws.write('none.toml', 'plugins = ["bundled", "!extensions"]\n');
});
after(() => ws.cleanup());

it(
  'a module is the plugin extension:<file name>, listed with ' + 'its origin and what it provides; its tool runs',
  async () => {
    const plugins = await ws.kbctx(['-c', 'with.toml', 'plugins', '--json']);
    assert.equal(plugins.code, 0, plugins.stderr);
    const entry = (
      JSON.parse(plugins.stdout) as { plugins: { name: string; origin: string; provides: string[]; taps: string[] }[] }
    ).plugins.find((p) => p.name === 'extension:shout');
    assert.ok(entry, plugins.stdout);
    assert.deepEqual([entry.origin, entry.provides], ['path', ['tool:shout']]);
    const run = await ws.kbctx(['-c', 'with.toml', 'tool', 'call', 'shout', '--param', 'text=hey']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /"HEY"/);
  },
);

it(
  '"!extensions": configured modules are a config error ' + 'naming the plugin (exit 3); no `extension` subcommand',
  async () => {
    const list = await ws.kbctx(['-c', 'without.toml', 'tool', 'list']);
    assert.equal(list.code, 3);
    assert.match(
      list.stderr,
      /\[extensions\] modules: compiled extensions are loaded by the plugin extensions, which is not loaded/,
    );
    const init = await ws.kbctx(['-c', 'none.toml', 'extension', 'init', 'acme']);
    assert.equal(init.code, 2);
    assert.match(init.stderr, /unknown command 'extension'/);
  },
);
