// The postings table built from a real LanceDB store's table (chunkDocuments: the chunk rows' stored
// terms) ranks as the store's own keyword search (its postings written as it wrote): the same chunks with
// the same raw BM25 scores.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { analyzeQuery } from '../../../core/api/algorithms.ts';
import { makeDoc } from '../../contract/store/fixtures.ts';
import { openLanceStore } from '../../../plugins/store-lancedb/lance-store.ts';
import { loadLance } from '../../../plugins/store-lancedb/lance-module.ts';
import { openPostingsTable } from '../../../plugins/store-lancedb/postings-table.ts';
import { chunkDocuments } from '../../../plugins/store-lancedb/postings-source.ts';
import { TABLE } from '../../../plugins/store-lancedb/rows.ts';
import { abstracts, queryTexts } from './postings-fixture.ts';

const root = mkdtempSync(path.join(tmpdir(), 'kbctx-postings-source-'));
after(() => rmSync(root, { recursive: true, force: true }));

it("built from the store's chunk rows, the postings rank as the store's keyword search", async () => {
  const dir = path.join(root, 'kb.lance');
  const store = await openLanceStore(dir);
  try {
    await store.beginBulk();
    for (const a of abstracts(150)) {
      const { doc, chunks } = makeDoc('filesystem:x', `${a._id}.md`, a.text.split(/(?<=\.)\s+/).slice(0, 4), {
        title: a.title,
      });
      await store.upsertDocument(doc, chunks, null);
    }
    await store.endBulk();
    const lance = await loadLance();
    const db = await lance.lancedb.connect(dir, { readConsistencyInterval: 0 });
    const kb = await db.openTable(TABLE);
    // A table of its own: the store keeps (and searches) `kb_postings`, written document by document.
    const postings = await openPostingsTable(db, lance, 'kb_postings_rebuilt');
    assert.equal(await postings.catchUp(chunkDocuments(kb), await kb.version()), 150);
    let compared = 0;
    for (const text of queryTexts(60)) {
      const want = await store.keywordSearch({ terms: analyzeQuery(text), limit: 10, candidateK: 100 });
      const got = await postings.search(
        want.matchedTerms.map((t) => t.stem),
        10,
      );
      const docs = await postings.documents(got.hits.map((h) => h.group));
      const chunkOf = (h: { row: number; group: number }): string => {
        const { record } = docs.get(h.group)!;
        return record.chunkIds[record.slots.indexOf(h.row)]!;
      };
      const key = (id: string, score: number): string => `${score.toFixed(9)} ${id}`;
      assert.deepEqual(
        got.hits.map((h) => key(chunkOf(h), h.score)).sort(),
        want.hits.map((h) => key(h.chunk.id, h.raw)).sort(),
        text,
      );
      compared += want.hits.length;
    }
    assert.ok(compared > 100, `the queries find chunks (${compared})`);
  } finally {
    await store.close();
  }
});
