// The LanceDB store reads texts and heads on demand (ADR 0233): a bulk group's documents are found, with
// their text and head, and judged by filters before they are committed; a search made before any write
// of a second connection reads the postings table and sees that connection's later commit
// (title and text read afresh) once it reloads; a document whose head changed is not taken for unchanged,
// also after a reopen, when the heads' signatures are not known yet (ADR 0243).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { makeDoc, terms } from '../../contract/store/fixtures.ts';
import { openLanceStore } from '../../../plugins/store-lancedb/lance-store.ts';

const root = mkdtempSync(path.join(tmpdir(), 'kbctx-lance-demand-'));
after(() => rmSync(root, { recursive: true, force: true }));

it("a bulk group's documents are searched, read and filtered before their commit", async () => {
  const store = await openLanceStore(path.join(root, 'bulk.lance'));
  try {
    await store.beginBulk();
    const a = makeDoc('filesystem:a', 'a.md', ['zebra crossings in the rain'], { title: 'Zebras' });
    const b = makeDoc('filesystem:b', 'b.md', ['zebra stripes'], { title: 'Stripes' });
    for (const d of [a, b]) await store.upsertDocument(d.doc, d.chunks, null);
    const all = await store.keywordSearch({ terms: terms('zebra'), limit: 10, candidateK: 10 });
    assert.deepEqual(all.hits.map((h) => h.document.title).sort(), ['Stripes', 'Zebras']);
    assert.equal(all.hits.find((h) => h.document.title === 'Zebras')?.chunk.text, 'zebra crossings in the rain');
    const filtered = await store.keywordSearch({
      terms: terms('zebra'),
      limit: 10,
      candidateK: 10,
      filter: { source: 'filesystem:b' },
    });
    assert.deepEqual(
      filtered.hits.map((h) => h.document.id),
      [b.doc.id],
    );
    assert.deepEqual(
      (await store.getChunks(a.doc.id)).map((c) => c.text),
      ['zebra crossings in the rain'],
    );
    await store.endBulk();
  } finally {
    await store.close();
  }
});

it("another connection's rewrite is searched with its new title and text after the reader reloads", async () => {
  const dir = path.join(root, 'two.lance');
  const [reader, writer] = [await openLanceStore(dir), await openLanceStore(dir)];
  try {
    const first = makeDoc('filesystem:x', 'n.md', ['an old note about otters'], { title: 'Old title' });
    await writer.upsertDocument(first.doc, first.chunks, null);
    const before = await reader.keywordSearch({ terms: terms('otters'), limit: 5, candidateK: 5 });
    assert.deepEqual(
      before.hits.map((h) => [h.document.title, h.chunk.text]),
      [['Old title', 'an old note about otters']],
    );
    const second = makeDoc('filesystem:x', 'n.md', ['a new note about otters and beavers'], { title: 'New title' });
    await writer.upsertDocument(second.doc, second.chunks, null);
    const afterRewrite = await reader.keywordSearch({ terms: terms('beavers'), limit: 5, candidateK: 5 });
    assert.deepEqual(
      afterRewrite.hits.map((h) => [h.document.title, h.chunk.text]),
      [['New title', 'a new note about otters and beavers']],
    );
    assert.deepEqual(
      (await reader.listDocuments(0, 10)).documents.map((d) => d.title),
      ['New title'],
    );
  } finally {
    await reader.close();
    await writer.close();
  }
});

it('an upsert that changes only the head is written; the same head again is not', async () => {
  const store = await openLanceStore(path.join(root, 'head.lance'));
  try {
    const d = makeDoc('filesystem:x', 'h.md', ['some text'], { title: 'One' });
    await store.upsertDocument(d.doc, d.chunks, 'fp');
    const renamed = { ...d.doc, sourceUrl: 'https://example.test/moved' };
    const generation = store.generation();
    assert.deepEqual(await store.upsertDocument(renamed, d.chunks, 'fp'), { chunksWritten: 0, chunksDeleted: 0 });
    assert.notEqual(store.generation(), generation, 'the changed head was committed');
    assert.equal((await store.listDocuments(0, 10)).documents[0]?.sourceUrl, 'https://example.test/moved');
    const again = store.generation();
    await store.upsertDocument(renamed, d.chunks, 'fp');
    assert.equal(store.generation(), again, 'nothing changed: no commit');
  } finally {
    await store.close();
  }
});

it(
  'after a reopen (heads not read at open) an unchanged upsert ' + 'writes nothing and a changed head is written',
  async () => {
    const dir = path.join(root, 'reopened.lance');
    const d = makeDoc('filesystem:x', 'r.md', ['some text'], { title: 'One' });
    const e = makeDoc('filesystem:x', 's.md', ['other text'], { title: 'Two' });
    const first = await openLanceStore(dir);
    await first.upsertDocument(d.doc, d.chunks, 'fp');
    await first.upsertDocument(e.doc, e.chunks, 'fp');
    await first.close();
    const store = await openLanceStore(dir);
    try {
      const generation = store.generation();
      await store.upsertDocument(d.doc, d.chunks, 'fp');
      assert.equal(store.generation(), generation, 'the same document again: no commit');
      await store.documentStates('filesystem:x');
      await store.upsertDocument(e.doc, e.chunks, 'fp');
      assert.equal(store.generation(), generation, 'after the diff read the heads: still no commit');
      await store.upsertDocument({ ...e.doc, title: 'Two, renamed' }, e.chunks, 'fp');
      assert.notEqual(store.generation(), generation, 'the changed head was committed');
      const titles = (await store.listDocuments(0, 10)).documents.map((h) => h.title);
      assert.deepEqual(titles, ['One', 'Two, renamed']);
    } finally {
      await store.close();
    }
  },
);

it('documents written by another connection while a search reads the postings are in them', async () => {
  const store = await openLanceStore(path.join(root, 'during.lance'));
  try {
    const early = Array.from({ length: 20 }, (_, i) => makeDoc('filesystem:x', `e${i}.md`, [`early note ${i}`]));
    for (const d of early) await store.upsertDocument(d.doc, d.chunks, null);
    const reopened = await openLanceStore(path.join(root, 'during.lance'));
    try {
      const late = Array.from({ length: 5 }, (_, i) => makeDoc('filesystem:x', `l${i}.md`, [`late walrus ${i}`]));
      // The writes commit (with their postings) while the search reads the postings table.
      const [first] = await Promise.all([
        reopened.keywordSearch({ terms: terms('early'), limit: 30, candidateK: 30 }),
        ...late.map((d) => reopened.upsertDocument(d.doc, d.chunks, null)),
      ]);
      assert.equal(first.hits.length, 20);
      const found = await reopened.keywordSearch({ terms: terms('walrus'), limit: 10, candidateK: 10 });
      assert.deepEqual(found.hits.map((h) => h.document.id).sort(), late.map((d) => d.doc.id).sort());
      assert.equal((await reopened.checkIntegrity()).fts, null, 'one keyword row per chunk');
    } finally {
      await reopened.close();
    }
  } finally {
    await store.close();
  }
});
