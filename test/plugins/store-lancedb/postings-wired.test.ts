// The LanceDB store's keyword search reads the postings table (ADR 0234): an index written before it gets
// it at its next writable open (a read-only open of one says what to do); a commit the postings missed (a
// writer killed between the main table's commit and theirs) is reported by doctor and caught up at the
// next writable open.
import type { Connection } from '@lancedb/lancedb';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { KbctxError } from '../../../core/api/plugin.ts';
import { makeDoc, terms } from '../../contract/store/fixtures.ts';
import { LanceStore, openLanceStore } from '../../../plugins/store-lancedb/lance-store.ts';
import { loadLance } from '../../../plugins/store-lancedb/lance-module.ts';
import { openTablePlace } from '../../../plugins/store-lancedb/table-place.ts';
import { POSTINGS_TABLE } from '../../../plugins/store-lancedb/postings-table.ts';
import { TABLE } from '../../../plugins/store-lancedb/rows.ts';

const root = mkdtempSync(path.join(tmpdir(), 'kbctx-lance-wired-'));
after(() => rmSync(root, { recursive: true, force: true }));

const docs = Array.from({ length: 6 }, (_, i) => makeDoc('filesystem:x', `n${i}.md`, [`note ${i} about otters`]));

async function written(dir: string): Promise<void> {
  const store = await openLanceStore(dir);
  try {
    for (const d of docs) await store.upsertDocument(d.doc, d.chunks, null);
  } finally {
    await store.close();
  }
}

/** The folder's tables opened with a raw connection (what another program, or a killed writer, leaves). */
async function raw<T>(dir: string, fn: (db: Connection) => Promise<T>): Promise<T> {
  const db = await (await loadLance()).lancedb.connect(dir);
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}

async function openReadOnly(dir: string): Promise<LanceStore> {
  const place = await openTablePlace(await loadLance(), dir, 'read', {});
  const store = new LanceStore(dir, place.db, place.table, 'a test opens it read-only', place);
  await store.openPostings();
  await store.reload();
  return store;
}

const otters = { terms: terms('otters'), limit: 10, candidateK: 10 };

it(
  'an index written before the postings table gets it at its ' +
    'next writable open; read-only, search says what to do',
  async () => {
    const dir = path.join(root, 'old.lance');
    await written(dir);
    await raw(dir, (db) => db.dropTable(POSTINGS_TABLE));
    const reader = await openReadOnly(dir);
    try {
      await assert.rejects(
        reader.keywordSearch(otters),
        (e: unknown) => e instanceof KbctxError && e.code === 'unavailable' && /kbctx sync all/.test(e.message),
      );
      assert.match((await reader.checkIntegrity()).fts ?? '', /no keyword postings table/);
    } finally {
      await reader.close();
    }
    const store = await openLanceStore(dir, 'read');
    try {
      assert.equal((await store.keywordSearch(otters)).hits.length, 6);
      assert.equal((await store.checkIntegrity()).fts, null);
    } finally {
      await store.close();
    }
  },
);

it('a commit the postings missed is reported by doctor and caught up at the next writable open', async () => {
  const dir = path.join(root, 'gap.lance');
  await written(dir);
  const store = await openLanceStore(dir);
  try {
    // The main table loses a document the postings still hold (as a writer killed between the two commits).
    await raw(dir, async (db) => {
      const table = await db.openTable(TABLE);
      await table.delete(`doc_id = ${JSON.stringify(docs[0]!.doc.id).replaceAll('"', "'")}`);
      table.close();
    });
    const report = await store.checkIntegrity();
    assert.match(report.fts ?? '', /hold 1 removed ones/);
    // Searches leave out what the model lacks.
    assert.equal((await store.keywordSearch(otters)).hits.length, 5);
  } finally {
    await store.close();
  }
  const again = await openLanceStore(dir);
  try {
    assert.equal((await again.checkIntegrity()).fts, null, 'the postings hold what the table holds');
    assert.equal((await again.keywordSearch(otters)).hits.length, 5);
  } finally {
    await again.close();
  }
});

it(
  "a sync's compact() leaves the indexes keyword search reads through, " + "and the postings at the table's version",
  async () => {
    const dir = path.join(root, 'compacted.lance');
    const store = await openLanceStore(dir);
    try {
      for (const d of docs) await store.upsertDocument(d.doc, d.chunks, null);
      await store.compact();
      assert.equal((await store.keywordSearch(otters)).hits.length, 6);
    } finally {
      await store.close();
    }
    await raw(dir, async (db) => {
      const [table, postings] = [await db.openTable(TABLE), await db.openTable(POSTINGS_TABLE)];
      const columns = async (t: typeof table): Promise<string[]> =>
        (await t.listIndices()).flatMap((i) => i.columns).sort();
      assert.deepEqual(await columns(table), ['doc_id'], 'a BTREE on doc_id, none on row_key (lancedb#3177)');
      assert.deepEqual(await columns(postings), ['grp', 'term']);
      const meta = await postings.query().where(`kind = 'meta'`).select(['info']).toArray();
      const info = JSON.parse(meta[0]!['info'] as string) as { version: number };
      assert.equal(info.version, await table.version(), 'no gap: the next open has nothing to catch up');
    });
  },
);
