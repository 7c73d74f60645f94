// A full disk during a sync's group commit: SQLite's SQLITE_FULL, made real with `PRAGMA
// max_page_count` (SQLite refuses to grow the file past it exactly as when the disk has no room).
// The write fails as `unavailable` saying the disk is full and naming the file (not "no such
// savepoint"), and the index stays consistent: every document wholly there or wholly absent.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, it } from 'node:test';
import { documentId, KbctxError } from '../../../core/index.ts';
import { toDocument } from '../../../core/app/sync.ts';
import { toChunks } from '../../helpers/chunks.ts';
import { migrate } from '../../../plugins/store-sqlite/migrations.ts';
import { SqliteStore } from '../../../plugins/store-sqlite/sqlite-store.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-disk-full-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('a full disk during a bulk write is reported as such, with the path, and the index stays consistent', async () => {
  const file = path.join(dir, 'index.sqlite');
  const db = new DatabaseSync(file, { enableForeignKeyConstraints: true });
  db.exec('PRAGMA journal_mode = WAL');
  migrate(db);
  const pages = Number((db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count);
  db.exec(`PRAGMA max_page_count = ${pages + 40}`); // room for a few documents, not for all
  const store = new SqliteStore(db, file, 'fts5');
  const words = (i: number): string =>
    Array.from({ length: 400 }, (_, j) => `word${(i * 7919 + j * 31) % 5000}`).join(' ');

  await store.beginBulk();
  let failure: unknown;
  let written = 0;
  try {
    for (let i = 0; i < 200; i++) {
      const doc = toDocument(
        { sourceId: `d${i}.md`, title: `Doc ${i}`, body: words(i) },
        documentId('filesystem:docs', `d${i}.md`),
        'filesystem:docs',
        'filesystem:docs',
      );
      await store.upsertDocument(doc, toChunks(doc, { maxTokens: 100, overlapTokens: 0 }), null);
      written++;
    }
  } catch (error) {
    failure = error;
  }
  await store.endBulk().catch(() => undefined);

  assert.ok(failure instanceof KbctxError, `expected a KbctxError, got ${String(failure)}`);
  assert.equal(failure.code, 'unavailable');
  assert.match(failure.message, /disk is full/);
  assert.ok(failure.message.includes(file), failure.message);
  assert.doesNotMatch(failure.message, /savepoint/);
  assert.ok(written < 200);

  // Consistent: SQLite's pages, FTS5 against its own structure, every document with its chunks.
  db.exec('PRAGMA max_page_count = 1073741823');
  const report = await store.checkIntegrity();
  assert.deepEqual(report.sqlite, []);
  assert.equal(report.fts, null);
  assert.equal(report.ftsRows, report.chunks);
  assert.equal(report.documentsWithoutChunks, 0);
  for (const d of (await store.listDocuments(0, 1000)).documents) {
    const chunks = await store.getChunks(d.id);
    assert.ok(chunks.length > 0 && chunks.every((c, i) => c.chunkIndex === i), d.sourceId);
  }
  // And it takes writes again once there is room.
  const doc = toDocument(
    { sourceId: 'after.md', title: 'After', body: 'room again' },
    documentId('filesystem:docs', 'after.md'),
    'filesystem:docs',
    'filesystem:docs',
  );
  await store.upsertDocument(doc, toChunks(doc, { maxTokens: 100, overlapTokens: 0 }), null);
  assert.equal((await store.getChunks(doc.id)).length, 1);
  await store.close();
});
