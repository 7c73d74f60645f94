// A real full disk under an SQLite sync: the data folder is a 1 MiB tmpfs mounted in a private mount
// namespace (`unshare -Urm`, no privileges needed where user namespaces are allowed; skipped where
// they are not). The sync says the disk is full and names the file, exits 6 (index unavailable), and
// the index stays consistent (`kbctx doctor` finds SQLite and FTS5 intact).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { after, it } from 'node:test';
import { KBCTX_BIN, Workspace } from '../helpers/workspace.ts';

const namespaces =
  spawnSync('unshare', ['-Urm', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /tmp'], { encoding: 'utf8' }).status ===
  0;
const ws = new Workspace('kbctx-disk-full-');
after(() => ws.cleanup());

function inTinyFs(script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'unshare',
      ['-Urm', 'sh', '-c', `mount -t tmpfs -o size=1m tmpfs "$DATA" || exit 99\n${script}`],
      {
        cwd: ws.dir,
        env: { ...process.env, KBCTX_CONFIG: '', DATA: ws.path('data'), NODE: process.execPath, KBCTX: KBCTX_BIN },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

it('a sync that fills the disk says so, with the path, exits 6, and leaves the index consistent', {
  skip: !namespaces && 'no unprivileged mount namespaces here',
}, async () => {
  let seed = 7;
  const word = (): string => `w${(seed = (seed * 1103515245 + 12345) % 2147483648) % 20000}`;
  for (let i = 0; i < 400; i++) ws.write(`docs/d${i}.md`, Array.from({ length: 600 }, word).join(' '));
  ws.write('data/.keep', '');
  ws.config('[db]\npath = "data/index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n');

  const r = await inTinyFs('"$NODE" "$KBCTX" sync all; echo "sync exit $?"; "$NODE" "$KBCTX" doctor --json');
  assert.notEqual(r.code, 99, r.stderr);
  const syncExit = /sync exit (\d+)/.exec(r.stdout)?.[1];
  assert.doesNotMatch(r.stdout + r.stderr, /savepoint/);
  assert.match(
    r.stdout + r.stderr,
    new RegExp(
      `disk is full: cannot write the index at ${ws.path('data/index.sqlite').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
    ),
  );
  assert.equal(syncExit, '6', r.stdout + r.stderr);

  const doctor = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as {
    checks: { area: string; status: string; detail: string }[];
  };
  const index = doctor.checks.filter((c) => c.area === 'index');
  assert.ok(index.length >= 3, JSON.stringify(doctor.checks));
  assert.deepEqual(
    index.filter((c) => c.status !== 'ok'),
    [],
    JSON.stringify(index),
  );
});
