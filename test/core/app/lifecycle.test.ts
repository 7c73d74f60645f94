// The host's lifecycle (core/app/compose.ts): one idempotent ready() applies the configured plugins,
// calls boot and loads the `[extensions] modules` (the extensions plugin, at boot), so every command
// sees the same plugins: none is half-loaded.
import '../../../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { openKbctx } from '../../../core/app/compose.ts';
import { parseConfigTree } from '../../../core/config/load-config.ts';
import { Workspace } from '../../helpers/workspace.ts';

const ws = new Workspace('kbctx-lifecycle-');
after(() => ws.cleanup());

before(async () => {
  ws.write('docs/a.md', '# Alpha\nthe quick brown fox\n');
  // A configured plugin: a tool, a `query` tap rewriting `zzz` to `fox`, and a count of its applies and boots.
  ws.write(
    'plugins/counted.mjs',
    `export const counts = { apply: 0, boot: 0 };
export default {
  name: 'counted', version: '1.0.0', kbctx: '^0.2',
  apply(kernel) {
    counts.apply++;
    globalThis.kbctxLifecycleCounts = counts;
    kernel.hooks.boot.tap('counted', () => void counts.boot++);
    kernel.hooks.tools.tap('counted', (tools) => tools.add({ name: 'counted_echo', description: 'echo', params: [{
      name: 'text', type: 'string', required: true }], call: (p) => p.text }));
    kernel.hooks.query.tap('counted', (request) => (request.query === 'zzz' ? { ...request, query: 'fox' } : request));
  },
};
`,
  );
  ws.write(
    'ext/shout.mjs',
    "export default (kbctx) => kbctx.registerTool({ name: 'shout', parameters: { type: 'object', properties: { " +
      "text: { type: 'string' } }, required: ['text'] }, execute: ({ text }) => String(text).toUpperCase() });\n",
  );
  const toml = '[db]\npath = "data/kb.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n';
  ws.write(
    'config/kbctx.toml',
    `plugins = ["bundled", "./plugins/counted.mjs"]\n[extensions]\nmodules = ["./ext/shout.mjs"]\n${toml}`,
  );
  const sync = await ws.kbctx(['sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
});

it(
  'ready() is idempotent: called twice, the configured plugins ' +
    'are applied and booted once, and the same failures come back',
  async () => {
    const config = parseConfigTree(
      { plugins: ['bundled', './plugins/counted.mjs'], db: { path: 'data/kb.sqlite' } },
      { file: ws.path('config/kbctx.toml'), cwd: ws.dir, env: {} },
    );
    const kbctx = openKbctx(config, {});
    try {
      const [first, second] = await Promise.all([kbctx.ready(), kbctx.ready()]);
      const third = await kbctx.ready();
      assert.equal(first, second);
      assert.equal(first, third);
      const counts = (globalThis as { kbctxLifecycleCounts?: { apply: number; boot: number } }).kbctxLifecycleCounts;
      assert.deepEqual(counts, { apply: 1, boot: 1 });
      assert.ok(kbctx.tools().has('counted_echo'));
    } finally {
      await kbctx.close();
    }
  },
);

it(
  'no command is half-loaded: the configured plugin and the extension ' +
    'module reach `tool list`, `tool call` and `search` alike',
  async () => {
    const list = await ws.kbctx(['tool', 'list', '--json']);
    assert.equal(list.code, 0, list.stderr);
    const names = (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    assert.ok(names.includes('counted_echo') && names.includes('shout'), list.stdout);
    const call = await ws.kbctx(['tool', 'call', 'shout', '--param', 'text=hey']);
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /"HEY"/);
    const search = await ws.kbctx(['search', 'zzz', '--json']);
    assert.equal(search.code, 0, search.stderr);
    assert.equal((JSON.parse(search.stdout) as { results: { title: string }[] }).results[0]?.title, 'Alpha');
  },
);
