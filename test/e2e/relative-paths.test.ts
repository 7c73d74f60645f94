// One rule for relative paths (ADR 0114, issue 29): a `plugins` path resolves against the project
// folder above config/, like connector roots, from any working directory; an entry written for the
// old rule (the config file's folder) is refused naming the entry to write; a connector root outside
// the project is warned about by `sync` and `doctor`. Real CLI in a temp project.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, runKbctx, Workspace } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

const ws = new Workspace('kbctx-relative-paths-');
const project = ws.path('project');
before(() => {
  mkdirSync(ws.path('project/plugins'), { recursive: true });
  copyFileSync(`${REPO_ROOT}test/fixtures/plugins/ok.mjs`, ws.path('project/plugins/ok.mjs'));
  ws.write('project/docs/a.md', '# Inside\n\ninside text\n');
  ws.write('kb/b.md', '# Outside\n\noutside text\n');
  mkdirSync(ws.path('elsewhere'));
});
after(() => ws.cleanup());

const fromElsewhere = (args: string[]) =>
  runKbctx(['-c', `${project}/config/kbctx.toml`, ...args], { cwd: ws.path('elsewhere') });

describe('relative paths: one rule', () => {
  it(
    'a plugins path resolves against the project folder (the ' + 'README example), from any working directory',
    async () => {
      ws.write(
        'project/config/kbctx.toml',
        'plugins = ["bundled", "./plugins/ok.mjs"]\n[db]\npath = "data/kb.sqlite"\n',
      );
      const r = await fromElsewhere(['plugins', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const ok = (JSON.parse(r.stdout) as { plugins: { name: string; origin: string; from: string }[] }).plugins.find(
        (p) => p.name === 'ok',
      );
      assert.deepEqual(ok && { origin: ok.origin, from: ok.from }, {
        origin: 'path',
        from: ws.path('project/plugins/ok.mjs'),
      });
    },
  );

  it(
    'an entry written relative to the config file is refused, ' +
      'naming where it looked and the entry to write (exit 3)',
    async () => {
      copyFileSync(`${REPO_ROOT}test/fixtures/plugins/ok.mjs`, ws.path('project/config/old.mjs'));
      ws.write('project/config/kbctx.toml', 'plugins = ["bundled", "./old.mjs"]\n');
      const r = await fromElsewhere(['plugins']);
      assert.equal(r.code, 3, r.stderr);
      assert.match(
        r.stderr,
        joinedRegExp(
          /plugin \.\/old\.mjs: no such file \(.*project\/old\.mjs; paths are relative to the project folder /,
          /.*project, like every path in the config\); .*project\/config\/old\.mjs exists: write /,
          /"\.\/config\/old\.mjs"/,
        ),
      );
    },
  );

  it('sync and doctor warn about a connector root outside the project folder, not about one inside', async () => {
    ws.write(
      'project/config/kbctx.toml',
      '[db]\npath = "data/kb.sqlite"\n[connectors.filesystem.docs]\n' +
        'root = "docs"\n[connectors.filesystem.near]\nroot = "../kb"\n',
    );
    const sync = await fromElsewhere(['sync', 'all']);
    assert.equal(sync.code, 0, sync.stderr);
    assert.match(
      sync.stderr,
      joinedRegExp(
        /^warning: filesystem:near reads .*\/kb, outside the project folder /,
        /.*\/project \(relative roots resolve against the project folder/m,
      ),
    );
    assert.doesNotMatch(sync.stderr, /filesystem:docs reads/);
    const doctor = await fromElsewhere(['doctor']);
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    assert.match(
      doctor.stdout,
      joinedRegExp(
        /^WARN {2}connectors filesystem:near reads .*\/kb, outside the project folder /,
        /.*\/project\n {6}→ relative roots resolve against the project folder/m,
      ),
    );
    assert.doesNotMatch(doctor.stdout, /filesystem:docs reads/);
    const only = await fromElsewhere(['sync', 'filesystem:docs']);
    assert.equal(only.code, 0, only.stderr);
    assert.doesNotMatch(only.stderr, /outside the project/, 'only the connectors being synced');
  });
});
