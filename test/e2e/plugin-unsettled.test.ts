// A plugin whose tap (or async `apply`) returns a promise that never settles, through the real CLI:
// the command waits for the time-out and names plugin and hook with exit 5 (issue 29 item 3), instead
// of ending as Node's "unsettled top-level await" (exit 13) because nothing kept the process alive.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';

// Each tap sets its own time-out (`timeout`, in s) so the test does not wait for the hook's 10 s.
const STUCK = (hook: string) => `export default {
  name: 'stuck-${hook}', version: '1.0.0', kbctx: '^0.2',
  apply(kernel) { kernel.hooks.${hook}.tapPromise({ name: 'stuck-${hook}', timeout: 0.5 },
    () => new Promise(() => {})); },
};
`;

let ws: Workspace;
const config = (plugin: string, extra = '') => `plugins = ["bundled", "./plugins/${plugin}.mjs"]

[db]
path = "data/kb.sqlite"

[connectors.filesystem.docs]
root = "docs"
${extra}`;
const run = (plugin: string, args: string[], extra = '') => {
  ws.write(`${plugin}.toml`, config(plugin, extra));
  return ws.kbctx(['-c', `${plugin}.toml`, ...args]);
};

before(async () => {
  ws = new Workspace();
  ws.write('docs/a.md', '# Hello\n\nhello world\n');
  for (const hook of ['query', 'rank', 'boot']) ws.write(`plugins/stuck-${hook}.mjs`, STUCK(hook));
  ws.write(
    'plugins/stuck-apply.mjs',
    "export default { name: 'stuck-apply', version: '1.0.0', kbctx: '^0.2', apply: () => new Promise(() => {}) };\n",
  );
  ws.write('plain.toml', '[db]\npath = "data/kb.sqlite"\n\n[connectors.filesystem.docs]\nroot = "docs"\n');
  const sync = await ws.kbctx(['-c', 'plain.toml', 'sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
});
after(() => ws.cleanup());

describe('a plugin that never settles, through the CLI', () => {
  for (const hook of ['query', 'rank', 'boot']) {
    it(`kbctx search with a ${hook} tap that never settles: exit 5 naming plugin and hook`, async () => {
      const r = await run(`stuck-${hook}`, ['search', 'hello']);
      assert.equal(r.code, 5, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(`error: plugin 'stuck-${hook}' failed in hook ${hook}: did not settle within 0\\.5 s`),
      );
      assert.doesNotMatch(r.stderr, /unsettled top-level await/);
    });
  }

  it('kbctx serve with a boot tap that never settles: exit 5 naming plugin and hook, never listening', async () => {
    const r = await run('stuck-boot', ['serve', 'mcp'], '\n[server]\nbind = "127.0.0.1:0"\n');
    assert.equal(r.code, 5, r.stderr);
    assert.match(r.stderr, /error: plugin 'stuck-boot' failed in hook boot: did not settle within 0\.5 s/);
    assert.doesNotMatch(r.stdout, /MCP endpoint/);
  });

  it('an async apply that never settles: exit 5 after the 10 s apply time-out, naming the plugin', async () => {
    const r = await run('stuck-apply', ['search', 'hello']);
    assert.equal(r.code, 5, r.stderr);
    assert.match(r.stderr, /error: plugin 'stuck-apply': apply failed: apply did not finish within 10 s/);
  });
});
