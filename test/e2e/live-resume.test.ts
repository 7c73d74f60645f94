// kill -9 of a real server in the middle of a background sync: the index stays consistent (integrity,
// one keyword row per chunk), the stale lock is taken over, and the next start finishes the job.
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { after, it } from 'node:test';
import { eventually, spawnLiveServer } from '../helpers/live-server.ts';
import { Workspace } from '../helpers/workspace.ts';

const FILES = 6000;
const ws = new Workspace('kbctx-live-kill-');
after(() => ws.cleanup());

function indexState(): { documents: number; chunks: number; fts: number; integrity: string } {
  const db = new DatabaseSync(ws.path('.kbctx/kbctx.sqlite'), { readOnly: true });
  try {
    const n = (sql: string): number => Number((db.prepare(sql).get() as { n: number }).n);
    const integrity = (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check;
    return {
      documents: n('SELECT count(*) AS n FROM documents'),
      chunks: n('SELECT count(*) AS n FROM chunks'),
      fts: n('SELECT count(*) AS n FROM chunks_fts'),
      integrity,
    };
  } finally {
    db.close();
  }
}

it('kill -9 during a background sync leaves a consistent index; the restarted server resumes', async () => {
  ws.write('docs/first.md', '# First\n\nThe index starts with one file.\n');
  ws.config('[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "off"\n');
  const first = await spawnLiveServer(ws);
  await first.waitForLog(/sync filesystem:docs \(start\): fetched 1, upserted 1/);
  const from = first.log().length;
  for (let i = 0; i < FILES; i++) {
    const words = Array.from({ length: 120 }, (_, w) => `word${(i * 7 + w) % 997}`).join(' ');
    ws.write(`docs/bulk/doc-${i}.md`, `# Document ${i}\n\n${words}\n`);
  }
  // Kill once the background sync has committed some of the new documents, not all. The index is read
  // directly (WAL allows a reader): the busy server itself would answer late.
  const db = new DatabaseSync(ws.path('.kbctx/kbctx.sqlite'), { readOnly: true });
  const count = db.prepare('SELECT count(*) AS n FROM documents');
  await eventually(
    () => Promise.resolve(Number((count.get() as { n: number }).n) > 1 ? true : undefined),
    'the background sync to start writing',
    60_000,
    5,
  );
  db.close();
  first.child.kill('SIGKILL');
  await first.exit;
  assert.doesNotMatch(first.log().slice(from), /fetched 6001/, 'the sync was still running when killed');

  const partial = indexState();
  assert.equal(partial.integrity, 'ok');
  assert.equal(partial.fts, partial.chunks, 'every chunk has exactly one keyword-index row');
  assert.ok(partial.documents < FILES + 1, `killed mid-sync (${partial.documents} of ${FILES + 1} documents)`);

  const second = await spawnLiveServer(ws);
  try {
    await second.waitForLog(
      new RegExp(`sync filesystem:docs \\(start\\): fetched ${FILES + 1}, upserted ${FILES + 1 - partial.documents}, `),
    );
    const complete = indexState();
    assert.equal(complete.documents, FILES + 1);
    assert.equal(complete.fts, complete.chunks);
  } finally {
    await second.stop();
  }
});
