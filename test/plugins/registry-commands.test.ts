// The registry-commands plugin through the real CLI: it adds `kbctx registry` through the `commands`
// hook; dropped (`"!registry-commands"`), there is no `registry` subcommand.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
before(() => {
  ws = new Workspace('kbctx-registry-commands-');
  ws.write('without.toml', 'plugins = ["bundled", "!registry-commands"]\n');
  ws.write('with.toml', 'plugins = ["bundled"]\n');
});
after(() => ws.cleanup());

it(
  'loaded (the default): `kbctx registry list` answers, and ' + '`kbctx plugins` shows the command it provides',
  async () => {
    const list = await ws.kbctx(['-c', 'with.toml', 'registry', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /No registries configured/);
    assert.equal((await ws.kbctx(['-c', 'with.toml', 'help', 'registry'])).code, 0);
    const plugins = await ws.kbctx(['-c', 'with.toml', 'plugins', '--json']);
    const entry = (
      JSON.parse(plugins.stdout) as { plugins: { name: string; provides: string[]; taps: string[] }[] }
    ).plugins.find((p) => p.name === 'registry-commands');
    assert.ok(entry, plugins.stdout);
    assert.deepEqual(entry.provides, ['command:registry', 'doctor:registries']);
  },
);

it('"!registry-commands": no `registry` subcommand (a usage error, exit 2)', async () => {
  const r = await ws.kbctx(['-c', 'without.toml', 'registry', 'list']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown command 'registry'/);
});
