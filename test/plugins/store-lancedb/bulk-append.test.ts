// The LanceDB store's bulk writer appends a group of new documents instead of merging it into the table (ADR 0252),
// but only when no other commit came since its model: a document another connection wrote meanwhile is then
// merged (one doc row, the later writer's chunks, its postings replaced), never duplicated by an append.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { makeDoc, terms } from '../../contract/store/fixtures.ts';
import { loadLance } from '../../../plugins/store-lancedb/lance-module.ts';
import { openLanceStore } from '../../../plugins/store-lancedb/lance-store.ts';
import { TABLE } from '../../../plugins/store-lancedb/rows.ts';

const root = mkdtempSync(path.join(tmpdir(), 'kbctx-lance-append-'));
after(() => rmSync(root, { recursive: true, force: true }));

it('a bulk group of new documents is appended, and merged when another writer committed one of them', async () => {
  const file = path.join(root, 'kb.lance');
  const first = await openLanceStore(file);
  const second = await openLanceStore(file);
  try {
    const news = Array.from({ length: 5 }, (_, n) => makeDoc('filesystem:a', `${n}.md`, [`walrus ${n} tusks`]));
    await first.beginBulk();
    for (const d of news) await first.upsertDocument(d.doc, d.chunks, null);
    await first.endBulk();
    // The same document, new to both models, written by the second connection while the first holds it in a group.
    const theirs = makeDoc('filesystem:a', 'x.md', ['narwhal horn', 'narwhal song']);
    const ours = makeDoc('filesystem:a', 'x.md', ['narwhal tooth']);
    await first.beginBulk();
    await first.upsertDocument(ours.doc, ours.chunks, null);
    await second.upsertDocument(theirs.doc, theirs.chunks, null);
    await first.endBulk();

    const lance = await loadLance();
    const table = await (await lance.lancedb.connect(file)).openTable(TABLE);
    const keys = (await table.query().where(`doc_id = '${ours.doc.id}'`).select(['row_key']).toArray()).map(
      (r) => r['row_key'] as string,
    );
    table.close();
    assert.deepEqual(keys.sort(), [`c:${ours.chunks[0]!.id}`, `d:${ours.doc.id}`], 'one doc row, our chunk only');

    const reader = await openLanceStore(file, 'read');
    try {
      const counts = await reader.counts();
      assert.equal(counts.documents, 6);
      assert.equal(counts.chunks, 6);
      const found = await reader.keywordSearch({ terms: terms('narwhal'), limit: 10, candidateK: 10 });
      assert.deepEqual(
        found.hits.map((h) => h.chunk.text),
        ['narwhal tooth'],
      );
      const walrus = await reader.keywordSearch({ terms: terms('walrus'), limit: 10, candidateK: 10 });
      assert.equal(walrus.hits.length, 5, 'the appended documents are searched');
      const integrity = await reader.checkIntegrity();
      assert.equal(integrity.fts, null, 'the postings equal the chunk rows');
      assert.equal(integrity.ftsRows, 6);
    } finally {
      await reader.close();
    }
  } finally {
    await first.close();
    await second.close();
  }
});
