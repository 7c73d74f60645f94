// A `.lua` plugin (examples/plugins/redact.lua) end to end through the CLI: loaded by the Lua bridge
// through `resolvePlugin`, its `document` tap redacts at sync, its `rank` tap reorders search hits;
// broken `.lua` plugins fail with errors naming them (and the hook).
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, runKbctx, Workspace } from '../../helpers/workspace.ts';

const SECTIONS = `
[db]
path = "data/kb.sqlite"

[connectors.filesystem.docs]
root = "docs"
`;

let ws: Workspace;
const cli = (config: string, args: string[]) => runKbctx(['-c', config, ...args], { cwd: ws.dir });
const titles = (stdout: string): string[] =>
  (JSON.parse(stdout) as { results: { title: string }[] }).results.map((r) => r.title);

before(async () => {
  ws = new Workspace();
  ws.write(
    'docs/rotate.md',
    '# Rotating keys\n\nRotate keys often. Rotate keys after a leak. ' +
      'Rotate keys, then rotate keys again. The secret is in the vault.',
  );
  ws.write('docs/urgent.md', '# Urgent: rotate keys\n\nOnce a year.');
  copyFileSync(`${REPO_ROOT}examples/plugins/redact.lua`, ws.path('redact.lua'));
  ws.write('kbctx.toml', `plugins = ["bundled", "./redact.lua"]\n${SECTIONS}\n[plugin.redact]\nword = "secret"\n`);
  ws.write('plain.toml', SECTIONS);
  const sync = await cli('kbctx.toml', ['sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
});
after(() => ws.cleanup());

describe('a .lua plugin through the CLI', () => {
  it('its document tap redacts at sync', async () => {
    const found = await cli('plain.toml', ['search', 'vault', '--json']);
    assert.equal(found.code, 0, found.stderr);
    const id = (JSON.parse(found.stdout) as { results: { id: string }[] }).results[0]!.id;
    const doc = await cli('plain.toml', ['get', id, '--json']);
    assert.match(doc.stdout, /The \[redacted\] is in the vault/);
    assert.doesNotMatch(doc.stdout, /secret/);
  });

  it('its rank tap moves the boosted hit first (keyword order without the plugin)', async () => {
    const plain = await cli('plain.toml', ['search', 'rotate keys', '--json']);
    assert.deepEqual(titles(plain.stdout), ['Rotating keys', 'Urgent: rotate keys']);
    const ranked = await cli('kbctx.toml', ['search', 'rotate keys', '--json']);
    assert.equal(ranked.code, 0, ranked.stderr);
    assert.deepEqual(titles(ranked.stdout), ['Urgent: rotate keys', 'Rotating keys']);
  });

  it('kbctx plugins lists it with the hooks it taps', async () => {
    const listed = await cli('kbctx.toml', ['plugins', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const plugins = (JSON.parse(listed.stdout) as { plugins: { name: string; origin: string; hooks: string[] }[] })
      .plugins;
    const redact = plugins.find((p) => p.name === 'redact');
    assert.deepEqual({ origin: redact?.origin, hooks: redact?.hooks }, { origin: 'path', hooks: ['document', 'rank'] });
    const bridge = plugins.find((p) => p.name === 'lua-bridge');
    assert.deepEqual(bridge?.hooks.sort(), [
      'agents',
      'boot',
      'commands',
      'createConnector.for("script")',
      'resolvePlugin.for(".lua")',
      'shutdown',
      'tools',
    ]);
  });

  it('bad options are checked against its options table', async () => {
    ws.write('bad-options.toml', `plugins = ["bundled", "./redact.lua"]\n${SECTIONS}\n[plugin.redact]\nword = 3\n`);
    const run = await cli('bad-options.toml', ['search', 'keys']);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /invalid options for plugin 'redact'.*\n.*plugin\.redact\.word must be string/);
  });
});

describe('broken .lua plugins', () => {
  it('a syntax error is a config error naming the file', async () => {
    ws.write('syntax.lua', 'plugin = { name = "syntax", version = "1.0.0", kbctx = "^0.2"\n');
    ws.write('syntax.toml', `plugins = ["bundled", "./syntax.lua"]\n${SECTIONS}`);
    const run = await cli('syntax.toml', ['search', 'keys']);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /plugin \.\/syntax\.lua: .*syntax\.lua:2:/);
  });

  it('a handler raising an error is a PluginError naming the plugin and the hook', async () => {
    ws.write(
      'raises.lua',
      'plugin = { name = "raises", version = "1.0.0", kbctx = "^0.2" }\n' +
        'function plugin.rank(hits) error("no ranking today") end\n',
    );
    ws.write('raises.toml', `plugins = ["bundled", "./raises.lua"]\n${SECTIONS}`);
    const run = await cli('raises.toml', ['search', 'keys']);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /plugin 'raises' failed in hook rank: .*raises\.lua:2: no ranking today/);
  });

  it('a plugin with only a misspelt handler is refused at load with the nearest hook name', async () => {
    ws.write(
      'typo.lua',
      'plugin = { name = "typo", version = "1.0.0", kbctx = "^0.2" }\n' +
        'function plugin.documnet(draft) return draft end\n',
    );
    ws.write('typo.toml', `plugins = ["bundled", "./typo.lua"]\n${SECTIONS}`);
    const run = await cli('typo.toml', ['search', 'keys']);
    assert.equal(run.code, 3, run.stderr);
    assert.equal(
      run.stderr,
      "error: plugin ./typo.lua: unknown hook 'documnet'; did you mean 'document'? (a Lua plugin handles " +
        'document, query, rank, toolResult)\n',
    );
  });

  it('a misspelt handler next to a valid one is refused, not ignored', async () => {
    ws.write(
      'typo2.lua',
      'plugin = { name = "typo2", version = "1.0.0", kbctx = "^0.2" }\nfunction plugin.rank(hits) return hits ' +
        'end\nfunction plugin.toolresult(r) return r end\n',
    );
    ws.write('typo2.toml', `plugins = ["bundled", "./typo2.lua"]\n${SECTIONS}`);
    const run = await cli('typo2.toml', ['search', 'keys']);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /^error: plugin \.\/typo2\.lua: unknown hook 'toolresult'; did you mean 'toolResult'\?/);
  });

  it('without the Lua bridge, a .lua entry names the plugin that loads it', async () => {
    ws.write('nobridge.toml', `plugins = ["bundled", "!lua-bridge", "./redact.lua"]\n${SECTIONS}`);
    const run = await cli('nobridge.toml', ['search', 'keys']);
    assert.equal(run.code, 3, run.stderr);
    assert.match(
      run.stderr,
      /plugin \.\/redact\.lua: no loaded plugin loads '\.lua' files; the plugin lua-bridge does, and it is not loaded/,
    );
  });
});
