// `kbctx doctor` and plugins: the loaded set is listed, plugins' own checks (the `doctor` hook) are
// lines of their own, and a plugin that does not load is a FAIL naming it (exit 3).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { REPO_ROOT, Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
const FIXTURES = `${REPO_ROOT}test/fixtures/plugins`;
before(() => {
  ws = new Workspace('kbctx-doctor-plugins-');
  ws.write('docs/a.md', '# A\nalpha\n');
});
after(() => ws.cleanup());

it('lists the loaded plugins and reports their own checks, failing ones as FAIL (exit 1)', async () => {
  ws.config(
    `plugins = ["bundled", "${FIXTURES}/doctor-check.mjs"]\n[db]\npath = "kb.sqlite"\n` +
      `[connectors.filesystem.docs]\nroot = "docs"\n`,
  );
  const r = await ws.kbctx(['doctor']);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /ok +plugins +\d+ loaded: store-sqlite 0\.2\.0, .*doctor-check 1\.0\.0/);
  assert.match(r.stdout, /ok +plugins +doctor-check: token: ACME_TOKEN is set/);
  assert.match(r.stdout, /FAIL {2}plugins +doctor-check: endpoint: https:\/\/acme\.invalid does not answer/);
});

it('a plugin that does not load is a FAIL line naming it, and exit 3', async () => {
  ws.config(`plugins = ["bundled", "${FIXTURES}/throws.mjs"]\n[db]\npath = "kb.sqlite"\n`);
  const r = await ws.kbctx(['doctor']);
  assert.equal(r.code, 3, r.stdout + r.stderr);
  assert.match(r.stdout, /FAIL {2}plugins +plugin 'throws': apply failed: cannot start: missing token/);
});
