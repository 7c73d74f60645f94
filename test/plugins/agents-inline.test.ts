// The agents-inline plugin: `[agents.inline.*]` served as agents through the `agents` collector, and
// dropping it (`"!agents-inline"`) with such a section is a config error naming it (exit 3).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { runKbctx, Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
const cli = (config: string, args: string[]) => runKbctx(['-c', config, ...args], { cwd: ws.dir });
const SECTIONS =
  '[db]\npath = "data/kb.sqlite"\n[agents.inline.reviewer]\ndescription = "Reviews runbooks"\ntools = ["search"]\nsystem_prompt = "Review the runbook."\n';

before(() => {
  ws = new Workspace();
  ws.write('with.toml', SECTIONS);
  ws.write('without.toml', `plugins = ["bundled", "!agents-inline"]\n${SECTIONS}`);
});
after(() => ws.cleanup());

it('serves [agents.inline.*] as agents (source toml) and is listed tapping agents', async () => {
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
  assert.deepEqual(plugins.plugins.find((p) => p.name === 'agents-inline')?.hooks, ['agents']);
});

it('"!agents-inline" with an [agents.inline.*] section: exit 3 naming the plugin', async () => {
  const run = await cli('without.toml', ['agent', 'list']);
  assert.equal(run.code, 3, run.stderr);
  assert.match(
    run.stderr,
    /\[agents\.inline\.reviewer\] needs the plugin agents-inline, which is not loaded \(plugins drops it with "!agents-inline"\)/,
  );
});
