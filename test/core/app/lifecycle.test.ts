// The host's lifecycle (core/app/compose.ts): one idempotent ready() applies the configured plugins,
// calls boot and loads the `[extensions] modules` (the extensions plugin, at boot), so every command
// sees the same plugins: none is half-loaded. The tools and agents are collected by tool-registry and agents-inline
// themselves (ADR 0254): a registry built before ready() takes in what ready() applies, at boot.
import '../../../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { openKbctx } from '../../../core/app/compose.ts';
import { parseConfigTree } from '../../../core/config/load-config.ts';
import { Workspace } from '../../helpers/workspace.ts';
import { toolsOf } from '../../../plugins/tool-registry/api.ts';
import { agentsOf } from '../../../plugins/agents-inline/api.ts';
import { hostService } from '../../../core/app/host-service.ts';

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
    kernel.hooks.agents.tap('counted', (agents) => agents.add({ name: 'counted_agent',
      resolve: () => ({ system: 'n' }) }));
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

/** A host with the bundled plugins and counted.mjs configured. */
const openCounted = () =>
  openKbctx(
    parseConfigTree(
      { plugins: ['bundled', './plugins/counted.mjs'], db: { path: 'data/kb.sqlite' } },
      { file: ws.path('config/kbctx.toml'), cwd: ws.dir, env: {} },
    ),
    {},
  );

it(
  'ready() is idempotent: called twice, the configured plugins ' +
    'are applied and booted once, and the same failures come back',
  async () => {
    const kbctx = openCounted();
    try {
      const [first, second] = await Promise.all([kbctx.ready(), kbctx.ready()]);
      const third = await kbctx.ready();
      assert.equal(first, second);
      assert.equal(first, third);
      const counts = (globalThis as { kbctxLifecycleCounts?: { apply: number; boot: number } }).kbctxLifecycleCounts;
      assert.deepEqual(counts, { apply: 1, boot: 1 });
      assert.ok(toolsOf(kbctx.kernel).has('counted_echo'));
    } finally {
      await kbctx.close();
    }
  },
);

it(
  'tool-registry and agents-inline collect their hooks: ' +
    'registries built before ready() take in the configured plugin',
  async () => {
    const kbctx = openCounted();
    try {
      const tools = toolsOf(kbctx.kernel);
      const agents = agentsOf(kbctx.kernel);
      assert.deepEqual(
        tools.list().map((t) => t.name),
        ['search', 'get', 'sources'],
      );
      assert.deepEqual(agents.list(), []);
      await kbctx.ready();
      assert.equal(toolsOf(kbctx.kernel), tools, 'one registry per host');
      assert.equal(agentsOf(kbctx.kernel), agents);
      assert.deepEqual(
        tools.list().map((t) => t.name),
        ['search', 'get', 'sources', 'counted_echo'],
      );
      assert.equal(await tools.call('counted_echo', { text: 'hi' }), 'hi');
      assert.deepEqual(
        agents.list().map((a) => a.name),
        ['counted_agent'],
      );
      // What a third-party registry would read: each item with the plugin that added it.
      const seen: string[] = [];
      kbctx.kernel.services
        .use(hostService)
        .collect('tools', (def, origin) => seen.push(`${origin.plugin}:${def.name}`));
      assert.deepEqual(seen, [
        'counted:counted_echo', // taps at the default stage: before tools-builtin's FALLBACK
        'tools-builtin:search',
        'tools-builtin:get',
        'tools-builtin:sources',
      ]);
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
