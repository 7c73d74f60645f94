// The tool-registry plugin runs every plugin's tools (the `kbctx.tools` registry, ADR 0249): with it, a plugin's tool
// is listed and called beside the built-in ones; dropped ("!tool-registry"), a plugin that adds a tool is a config
// error naming it (exit 3), a command without tools still runs, and `kbctx plugins` lists who provides the service.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { runKbctx, Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
const cli = (config: string, args: string[]) => runKbctx(['-c', config, ...args], { cwd: ws.dir });
const ECHO = `export default { name: 'echo', version: '1.0.0', kbctx: '^0.2',
  apply(kernel) { kernel.hooks.tools.tap('echo', (tools) => tools.add({ name: 'echo', description: 'echoes',
    params: [{ name: 'text', type: 'string', required: true }], call: (params) => ({ said: params.text }) })); } };
`;
const INDEX = '[db]\npath = "data/kb.sqlite"\n[connectors.filesystem.kb]\nroot = "kb"\n';

before(async () => {
  ws = new Workspace();
  ws.write('kb/otters.md', '# Otters\n\nOtters hold hands while they sleep.\n');
  ws.write('plugins/echo.mjs', ECHO);
  ws.write('with.toml', `plugins = ["bundled", "./plugins/echo.mjs"]\n${INDEX}`);
  ws.write('without.toml', `plugins = ["bundled", "!tool-registry", "./plugins/echo.mjs"]\n${INDEX}`);
  assert.equal((await cli('with.toml', ['sync', 'all'])).code, 0);
});
after(() => ws.cleanup());

it("lists and calls a plugin's tool beside the built-in ones, parameters checked", async () => {
  const list = await cli('with.toml', ['tool', 'list', '--json']);
  assert.equal(list.code, 0, list.stderr);
  const names = (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
  assert.deepEqual(names, ['search', 'get', 'sources', 'echo']);
  const called = await cli('with.toml', ['tool', 'call', 'echo', '--param', 'text=hi']);
  assert.equal(called.code, 0, called.stderr);
  assert.match(called.stdout, /"said": "hi"/);
  const missing = await cli('with.toml', ['tool', 'call', 'echo']);
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /missing required parameter 'text'/);
});

it('"!tool-registry": a tool a plugin adds is a config error naming the plugin; search still runs', async () => {
  const list = await cli('without.toml', ['tool', 'list']);
  assert.equal(list.code, 3, list.stderr);
  assert.match(list.stderr, /tool '\w+' needs the tool-registry plugin, which runs every plugin's tools/);
  assert.match(list.stderr, /remove '!tool-registry' from plugins/);
  const search = await cli('without.toml', ['search', 'otters']);
  assert.equal(search.code, 0, search.stderr);
  assert.match(search.stdout, /Otters/);
});

it('kbctx plugins lists tool-registry providing the kbctx.tools service', async () => {
  const plugins = await cli('with.toml', ['plugins']);
  assert.equal(plugins.code, 0, plugins.stderr);
  assert.match(plugins.stdout, /tool-registry\b.*service:kbctx\.tools/);
});
