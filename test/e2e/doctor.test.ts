// `kbctx doctor` through the real CLI: a healthy index, warnings with what to do, a broken config.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';

const ws = new Workspace('kbctx-doctor-');
before(async () => {
  ws.write('docs/a.md', '# A\n\nSome text.');
  ws.write('tools/t.lua', 'tool = { description = "t" }\nfunction tool.execute() return 1 end\n');
  ws.config(
    '[connectors.filesystem.docs]\nroot = "docs"\n[tools.script.t]\npath = "tools/t.lua"\ntoken = ' +
      '"${DOCTOR_TOKEN}"\n[registries.team]\npath = "team-registry"\n',
  );
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
});
after(() => ws.cleanup());

it('checks config, index and registries, and says what to do about each warning', async () => {
  const r = await ws.kbctx(['doctor']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^ok {4}config .*config\/kbctx\.toml loaded/m);
  assert.match(
    r.stdout,
    /^WARN {2}config .*tools\.script\.t\.token uses \$\{DOCTOR_TOKEN\}.*\n {6}→ export DOCTOR_TOKEN=/m,
  );
  assert.match(r.stdout, /^ok {4}index .*SQLite integrity ok/m);
  assert.match(r.stdout, /^ok {4}index .*keyword index \(FTS5\) integrity ok/m);
  assert.match(r.stdout, /^ok {4}index .*1 chunks, all in the keyword index/m);
  assert.match(r.stdout, /^WARN {2}registries team: not installed/m);
  assert.match(r.stdout, /^(ok {4}|WARN {2})git/m);
  const json = JSON.parse((await ws.kbctx(['doctor', '--json'])).stdout) as {
    checks: { area: string; status: string }[];
  };
  assert.ok(json.checks.some((c) => c.area === 'index' && c.status === 'ok'));
});

it('reports a config that does not load, exit 3', async () => {
  ws.write('bad.toml', '[connectors.filesystem.docs]\nroot = "docs"\nroot_dir = "x"\n');
  const r = await ws.kbctx(['-c', 'bad.toml', 'doctor']);
  assert.equal(r.code, 3);
  assert.match(r.stdout, /^FAIL {2}config .*root_dir/m);
});
