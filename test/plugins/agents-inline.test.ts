// The agents-inline plugin: `[agents.inline.*]` served as agents through the `agents` collector, and
// dropping it (`"!agents-inline"`) with such a section is a config error naming it (exit 3). It runs every plugin's
// agents (the `kbctx.agents` registry, ADR 0238): dropped, a plugin's agent is a config error saying so.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { runKbctx, Workspace } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

let ws: Workspace;
const cli = (config: string, args: string[]) => runKbctx(['-c', config, ...args], { cwd: ws.dir });
const SECTIONS =
  '[db]\npath = "data/kb.sqlite"\n[agents.inline.reviewer]\ndescription = "Reviews runbooks"\ntools = ' +
  '["search"]\nsystem_prompt = "Review the runbook."\n';

before(() => {
  ws = new Workspace();
  ws.write('with.toml', SECTIONS);
  ws.write('without.toml', `plugins = ["bundled", "!agents-inline"]\n${SECTIONS}`);
  ws.write(
    'plugins/helper.mjs',
    `export default { name: 'helper', version: '1.0.0', kbctx: '^0.2',
  apply(kernel) { kernel.hooks.agents.tap('helper', (agents) => agents.add({ name: 'helper', description: 'helps',
    arguments: [{ name: 'topic', required: true }], resolve: (args) => ({ system: 'About ' + args.topic }) })); } };\n`,
  );
  const PLUGIN_AGENT = '[db]\npath = "data/kb.sqlite"\n';
  ws.write('plugin-agent.toml', `plugins = ["bundled", "./plugins/helper.mjs"]\n${PLUGIN_AGENT}`);
  ws.write(
    'plugin-agent-dropped.toml',
    `plugins = ["bundled", "!agents-inline", "./plugins/helper.mjs"]\n${PLUGIN_AGENT}`,
  );
});
after(() => ws.cleanup());

it('serves [agents.inline.*] as agents (source toml) and is listed tapping boot (to collect) and agents', async () => {
  const list = await cli('with.toml', ['agent', 'list', '--json']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /"name": "reviewer"/);
  assert.match(list.stdout, /"source": "toml"/);
  const test = await cli('with.toml', ['agent', 'test', 'reviewer']);
  assert.equal(test.code, 0, test.stderr);
  assert.match(test.stdout, /Review the runbook\./);
  const plugins = JSON.parse((await cli('with.toml', ['plugins', '--json'])).stdout) as {
    plugins: { name: string; hooks: string[] }[];
  };
  assert.deepEqual(plugins.plugins.find((p) => p.name === 'agents-inline')?.hooks, ['boot', 'agents']);
});

it('"!agents-inline" with an [agents.inline.*] section: exit 3 naming the plugin', async () => {
  const run = await cli('without.toml', ['agent', 'list']);
  assert.equal(run.code, 3, run.stderr);
  assert.match(
    run.stderr,
    joinedRegExp(
      /\[agents\.inline\.reviewer\] needs the plugin agents-inline, which /,
      /is not loaded \(plugins drops it with "!agents-inline"\)/,
    ),
  );
});

it("runs a plugin's agents: arguments checked, resolved with the plugin's prompt", async () => {
  const list = await cli('plugin-agent.toml', ['agent', 'list', '--json']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /"name": "helper"/);
  const missing = await cli('plugin-agent.toml', ['agent', 'test', 'helper']);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /missing required argument 'topic' for agent 'helper'/);
  const test = await cli('plugin-agent.toml', ['agent', 'test', 'helper', '--arg', 'topic=ospreys']);
  assert.equal(test.code, 0, test.stderr);
  assert.match(test.stdout, /About ospreys/);
});

it('"!agents-inline" with a plugin adding an agent: exit 3 saying agents need agents-inline', async () => {
  const run = await cli('plugin-agent-dropped.toml', ['agent', 'list']);
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr, /agent 'helper' needs the agents-inline plugin, which runs every plugin's agents/);
});
