// End to end: `kbctx migrate` through the real CLI: a synced and embedded index copied into a new
// SQLite file answers keyword and semantic searches as the original does; a sync against the copy
// changes nothing; a non-empty target needs --force; bad targets fail clearly.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MigrateWorkspace } from './helpers/migrate-workspace.ts';
import type { SyncReportJson } from './helpers/workspace.ts';
import { joinedRegExp } from './helpers/joined-regexp.ts';

describe('kbctx migrate (CLI)', () => {
  const mw = new MigrateWorkspace();
  const ws = mw.ws;
  const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;

  before(async () => {
    await mw.setUp();
    ws.write('copy.toml', mw.config('copy.sqlite'));
  });
  after(() => mw.cleanup());

  it('copies the index into a new SQLite file and verifies it', async () => {
    const r = await ws.kbctx(['migrate', '--to', 'copy.sqlite', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const report = json(r.stdout);
    assert.deepEqual(
      [report['documents'], report['chunks'], report['embeddings'], report['checkpoints'], report['verified']],
      [3, 3, 3, 1, true],
    );
    assert.equal(report['target'], ws.path('copy.sqlite'));
    assert.deepEqual(
      await mw.searches(['-c', 'copy.toml']),
      await mw.searches(),
      'keyword, semantic and hybrid answers on the copy',
    );
    const resync = await ws.kbctx(['-c', 'copy.toml', 'sync', 'all', '--json']);
    const [docs] = json(resync.stdout)['connectors'] as SyncReportJson[];
    assert.deepEqual(
      [docs?.upserted, docs?.chunks_written, docs?.deleted, docs?.unchanged],
      [0, 0, 0, 3],
      'fingerprints came along',
    );
  });

  it('refuses a target that holds an index unless --force, and then says what it replaced', async () => {
    const refused = await ws.kbctx(['migrate', '--to', 'copy.sqlite']);
    assert.equal(refused.code, 7);
    assert.match(refused.stderr, /already holds an index \(3 documents.*--force/);
    const forced = await ws.kbctx(['migrate', '--to', 'copy.sqlite', '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(
      forced.stdout,
      joinedRegExp(
        /^Replaced what .*copy\.sqlite held: 3 documents, 3 chunks, 3 /,
        /embeddings, 1 checkpoints \(0 documents not in the source deleted\)$/m,
      ),
    );
    assert.match(
      forced.stdout,
      joinedRegExp(
        /^Copied 3 documents, 3 chunks, 3 embeddings and 1 checkpoints /,
        /from .*index\.sqlite to .*copy\.sqlite in [\d.]+ s$/m,
      ),
    );
    assert.match(
      forced.stdout,
      /^Verified: the target holds 3 documents, 3 chunks and 3 embeddings, as the source does$/m,
    );
  });

  it('fails clearly for the index itself, an unreachable PostgreSQL, and no --to', async () => {
    const itself = await ws.kbctx(['migrate', '--to', 'index.sqlite']);
    assert.equal(itself.code, 2);
    assert.match(itself.stderr, /names the configured index itself/);
    const pg = await ws.kbctx(['migrate', '--to', 'postgres://kbctx:secret@127.0.0.1:1/kbctx']);
    assert.equal(pg.code, 6, 'unavailable');
    assert.match(pg.stderr, /PostgreSQL at 127\.0\.0\.1:1 is unreachable/);
    assert.doesNotMatch(pg.stderr, /secret/);
    const missing = await ws.kbctx(['migrate']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--to/);
  });
});
