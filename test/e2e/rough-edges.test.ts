// What a new user hits first, through the real CLI: registry commands with nothing configured, `tool
// test` on a missing file and with the configured time-out, CLI errors that point at CLI commands.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';

const ws = new Workspace('kbctx-edges-');
before(() => {
  ws.write('docs/a.md', '# A\n\nSome text.');
  ws.write(
    'tools/spin.lua',
    'tool = { description = "spins", parameters = {} }\nfunction tool.execute() while true do end end\n',
  );
  ws.config('[connectors.filesystem.docs]\nroot = "docs"\n[tools.script.spin]\npath = "tools/spin.lua"\ntimeout = 1\n');
});
after(() => ws.cleanup());

it('registry install and update say when no registry is configured, and how to add one', async () => {
  for (const command of ['install', 'update']) {
    const r = await ws.kbctx(['registry', command]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /No registries are configured.*kbctx registry init.*\[registries\.<name>\]/s);
  }
});

it('tool test on a missing file exits 4', async () => {
  const r = await ws.kbctx(['tool', 'test', 'tools/nope.lua']);
  assert.equal(r.code, 4);
  assert.match(r.stderr, /script not found: tools\/nope\.lua/);
});

it('tool test uses the time-out of the configured section for that file', async () => {
  const r = await ws.kbctx(['tool', 'test', 'tools/spin.lua']);
  assert.equal(r.code, 5);
  assert.match(r.stderr, /timed out after 1 s/);
});

it('CLI errors name the available tools and agents, not HTTP routes', async () => {
  const r = await ws.kbctx(['agent', 'test', 'nobody']);
  assert.equal(r.code, 4);
  assert.doesNotMatch(r.stderr, /GET \//);
  assert.match(r.stderr, /unknown agent 'nobody'; no agents are configured/);
});

it('sync --dry-run writes nothing; --limit must be a positive number', async () => {
  const dry = await ws.kbctx(['sync', 'all', '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^Dry run: nothing was written\.\n/);
  assert.match(dry.stdout, /1 document\(s\) would be added or updated/);
  assert.match(dry.stdout, /: fetched 1, would upsert 1, would write chunks 1, would delete 0, unchanged 0,/);
  assert.doesNotMatch(dry.stdout, /upserted|chunks written/);
  assert.match((await ws.kbctx(['stats'])).stdout, /Documents: 0/);
  assert.equal((await ws.kbctx(['sync', 'all', '--limit', '0'])).code, 2);
  assert.equal((await ws.kbctx(['sync', 'all', '--since', 'someday'])).code, 2);
});
