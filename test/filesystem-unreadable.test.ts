// A filesystem connector with a folder it may not read: the rest is indexed, the folder is reported,
// and what was indexed from it before is kept (unknown, not gone). Runs the real CLI; as root (which
// ignores chmod) the CLI runs as `nobody` so the permission bites.
import assert from 'node:assert/strict';
import { chmodSync, chownSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { chownTree, unprivilegedUser } from './helpers/unprivileged-user.ts';
import { Workspace } from './helpers/workspace.ts';

const ws = new Workspace('kbctx-unreadable-');
after(() => {
  chmodSync(ws.path('docs/private'), 0o755);
  ws.cleanup();
});

describe('filesystem connector: an unreadable folder', () => {
  it('skips the folder with an error note, indexes the rest and deletes none of its documents', async () => {
    const user = unprivilegedUser();
    ws.config('[db]\npath = "index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n');
    ws.write('docs/open.md', 'open zebra');
    ws.write('docs/private/secret.md', 'secret zebra');
    ws.write('docs/private/deep/deeper.md', 'deeper zebra');
    if (user) chownTree(ws.dir, user);
    const env = { HOME: ws.dir };
    const first = await ws.syncJson('all', { env, user });
    assert.equal(first.reports[0]?.upserted, 3, first.stderr);

    chmodSync(ws.path('docs/private'), 0o000);
    ws.write('docs/new.md', 'new zebra');
    if (user) chownSync(ws.path('docs/new.md'), user.uid, user.gid);
    const second = await ws.syncJson('all', { env, user });
    const report = second.reports[0];
    assert.equal(report?.failure, null, second.stderr);
    assert.deepEqual([report.upserted, report.deleted, report.errors], [1, 0, 1]);
    assert.match(
      report.notes.join('\n'),
      /error private\/: cannot read \(permission denied\); skipped, its indexed documents are kept/,
    );

    const search = await ws.kbctx(['search', 'zebra', '--json'], { env, user });
    const ids = (JSON.parse(search.stdout) as { results: { source_id: string }[] }).results
      .map((r) => r.source_id)
      .sort();
    assert.deepEqual(ids, ['new.md', 'open.md', 'private/deep/deeper.md', 'private/secret.md']);
  });
});
