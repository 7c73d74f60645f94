// What the index must be for each command: read commands work on a read-only index (a shared snapshot,
// a mounted volume) and never create one; writers on a read-only folder exit 6 naming it; `doctor`
// reports both as FAIL lines. The read-only folder is real: as root (which ignores chmod) the CLI runs
// as `nobody`, so the permission bites.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { chownTree, unprivilegedUser } from '../helpers/unprivileged-user.ts';
import { Workspace } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

const ws = new Workspace('kbctx-index-access-');
after(() => {
  if (existsSync(ws.path('data'))) chmodSync(ws.path('data'), 0o755);
  ws.cleanup();
});

describe('a read-only index', () => {
  it(
    'search, stats, sources and get work; sync and init exit 6 ' +
      'naming the folder; doctor prints a FAIL line with the fix',
    async () => {
      const user = unprivilegedUser();
      ws.config('[db]\npath = "data/index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n');
      ws.write('docs/a.md', '# Alpha\n\nThe zebra grazes.\n');
      ws.write('data/.keep', '');
      if (user) chownTree(ws.dir, user);
      const env = { HOME: ws.dir };
      assert.equal((await ws.kbctx(['sync', 'all'], { env, user })).code, 0);
      chmodSync(ws.path('data'), 0o555);
      const before = readdirSync(ws.path('data')).sort();

      const search = await ws.kbctx(['search', 'zebra', '--json'], { env, user });
      assert.equal(search.code, 0, search.stderr);
      const results = (JSON.parse(search.stdout) as { results: { id: string; source_id: string }[] }).results;
      assert.deepEqual(
        results.map((r) => r.source_id),
        ['a.md'],
      );
      const stats = await ws.kbctx(['stats'], { env, user });
      assert.equal(stats.code, 0, stats.stderr);
      assert.match(stats.stdout, /Documents: 1\n/);
      assert.equal((await ws.kbctx(['sources'], { env, user })).code, 0);
      const got = await ws.kbctx(['get', results[0]!.id], { env, user });
      assert.equal(got.code, 0, got.stderr);

      const doctor = await ws.kbctx(['doctor'], { env, user });
      assert.equal(doctor.code, 1, doctor.stdout + doctor.stderr);
      assert.match(
        doctor.stdout,
        joinedRegExp(
          /FAIL {2}index {6}the index is read-only: .*data is read-only for /,
          /this user.*\n {6}→ grant the user running kbctx write access/,
        ),
      );
      assert.match(doctor.stdout, /ok {4}index {6}SQLite integrity ok/);
      assert.doesNotMatch(doctor.stderr, /readonly database|\n\s+at /);

      for (const args of [['sync', 'all'], ['init']]) {
        const r = await ws.kbctx(args, { env, user });
        assert.equal(r.code, 6, `kbctx ${args.join(' ')}: ${r.stderr}`);
        assert.match(
          r.stderr,
          new RegExp(
            `cannot write the index at .*index\\.sqlite: .*data is read-only for this user; writing the index ` +
              `\\(sync, embed, init, serve\\) needs write access to ${ws.path('data')}`,
          ),
        );
      }
      assert.deepEqual(readdirSync(ws.path('data')).sort(), before);
    },
  );
});

describe('a missing index', () => {
  it(
    'read commands say "no index at …; run `kbctx sync all`" (exit ' +
      '6) and create nothing; doctor reports it; sync creates it',
    async () => {
      ws.write('missing.toml', '[db]\npath = "nowhere/index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n');
      const where = ws.path('nowhere/index.sqlite');
      for (const args of [
        ['search', 'zebra'],
        ['stats'],
        ['sources'],
        ['get', 'x'],
        ['export'],
        ['migrate', '--to', 'copy.sqlite'],
      ]) {
        const r = await ws.kbctx(['-c', 'missing.toml', ...args]);
        assert.equal(r.code, 6, `kbctx ${args.join(' ')}: ${r.stderr}`);
        assert.ok(r.stderr.includes(`no index at ${where}; run \`kbctx sync all\``), r.stderr);
      }
      assert.ok(!existsSync(ws.path('nowhere')), 'a read command created the index folder');
      assert.ok(!existsSync(ws.path('copy.sqlite')), 'migrate created its target before finding no source');

      const doctor = await ws.kbctx(['-c', 'missing.toml', 'doctor']);
      assert.equal(doctor.code, 1, doctor.stderr);
      assert.ok(doctor.stdout.includes(`FAIL  index      no index at ${where}`), doctor.stdout);
      assert.match(doctor.stdout, /→ run `kbctx sync all` to create the index/);
      assert.match(doctor.stdout, /connectors/); // the other checks still ran
      assert.ok(!existsSync(ws.path('nowhere')));

      assert.equal((await ws.kbctx(['-c', 'missing.toml', 'sync', 'all'])).code, 0);
      assert.equal((await ws.kbctx(['-c', 'missing.toml', 'stats'])).code, 0);
    },
  );
});

describe('LanceDB', () => {
  it(
    'a missing index is not created by a read command; doctor ' + 'names its checks after LanceDB, not SQLite or FTS5',
    async () => {
      ws.write(
        'lance.toml',
        '[db]\nengine = "lancedb"\npath = "kb.lance"\n[connectors.filesystem.lance]\nroot = "lance-docs"\n',
      );
      ws.write('lance-docs/b.md', '# Beta\n\nThe okapi hides.\n');
      const stats = await ws.kbctx(['-c', 'lance.toml', 'stats']);
      assert.equal(stats.code, 6, stats.stderr);
      assert.ok(stats.stderr.includes(`no index at ${ws.path('kb.lance')}`), stats.stderr);
      assert.ok(!existsSync(ws.path('kb.lance')));

      assert.equal((await ws.kbctx(['-c', 'lance.toml', 'sync', 'all'])).code, 0);
      const doctor = await ws.kbctx(['-c', 'lance.toml', 'doctor']);
      assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
      assert.match(doctor.stdout, /^ok {4}index {6}LanceDB integrity ok \(.*kb\.lance\)$/m);
      assert.match(doctor.stdout, /^ok {4}index {6}keyword index integrity ok$/m);
      assert.doesNotMatch(doctor.stdout, /SQLite|FTS5/);
    },
  );
});
