// Store contract: stored embeddings (the pending queue, writes that skip changed or deleted chunks,
// spaces, clearing, and the portable import/iterate pair `kbctx migrate` uses).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EmbeddingSpace, StoredEmbedding } from '../../../core/store/store.ts';
import { byKey, collect, embedChunks, makeDoc, putAll, SPACE, unit, withStore, type OpenStore } from './fixtures.ts';

const OTHER_MODEL: EmbeddingSpace = { model: 'test:other', dims: 4 };
const OTHER_DIMS: EmbeddingSpace = { model: SPACE.model, dims: 3 };

const threeDocs = (): ReturnType<typeof makeDoc>[] => [
  makeDoc('filesystem:a', 'a.md', ['alpha one', 'alpha two']),
  makeDoc('filesystem:a', 'b.md', ['beta one']),
  makeDoc('git:c', 'c.md', ['gamma one', 'gamma two', 'gamma three']),
];

/** A vector that tells texts apart (for checking that the right vector landed on the right chunk). */
const vectorFor = (text: string): Float32Array =>
  unit([text.length, text.charCodeAt(0), text.charCodeAt(text.length - 1), 1]);

export function embeddingCases(open: OpenStore): void {
  describe('embeddings', () => {
    it('queues every chunk without a vector, in rowid order, page by page', () =>
      withStore(open, async (store) => {
        const docs = threeDocs();
        await putAll(store, docs);
        assert.equal(await store.countPendingEmbeddings(SPACE), 6);
        const all = await store.pendingEmbeddings(SPACE, 0, 100);
        assert.deepEqual(all.map((p) => p.text).sort(), docs.flatMap((d) => d.chunks.map((c) => c.text)).sort());
        for (const p of all)
          assert.equal(p.contentHash, docs.flatMap((d) => d.chunks).find((c) => c.text === p.text)?.contentHash);
        const rowids = all.map((p) => p.rowid);
        assert.deepEqual(
          rowids,
          [...rowids].sort((a, b) => a - b),
          'ascending rowids',
        );
        assert.equal(new Set(rowids).size, 6);
        const first = await store.pendingEmbeddings(SPACE, 0, 4);
        const rest = await store.pendingEmbeddings(SPACE, first.at(-1)!.rowid, 4);
        assert.deepEqual([...first, ...rest], all, 'afterRowid continues where a page ended');
      }));

    it('counts a chunk pending when its vector is of another model or dims; dims null accepts any dims', () =>
      withStore(open, async (store) => {
        await putAll(store, threeDocs());
        assert.equal(await embedChunks(store, SPACE, vectorFor), 6);
        assert.equal(await store.countPendingEmbeddings(SPACE), 0);
        assert.deepEqual(await store.pendingEmbeddings(SPACE, 0, 10), []);
        assert.equal(await store.countPendingEmbeddings({ model: SPACE.model, dims: null }), 0);
        assert.equal(await store.countPendingEmbeddings(OTHER_MODEL), 6);
        assert.equal(await store.countPendingEmbeddings(OTHER_DIMS), 6);
        assert.equal((await store.pendingEmbeddings(OTHER_DIMS, 0, 10)).length, 6);
        assert.equal(await store.countPendingEmbeddings({ model: OTHER_MODEL.model, dims: null }), 6);
      }));

    it('holds one vector per chunk: writing a chunk in another space replaces its vector', () =>
      withStore(open, async (store) => {
        await putAll(store, threeDocs());
        await embedChunks(store, SPACE, vectorFor);
        const [one] = await store.pendingEmbeddings(OTHER_DIMS, 0, 1);
        assert.equal(
          await store.writeEmbeddings(OTHER_DIMS, [
            { rowid: one!.rowid, contentHash: one!.contentHash, vector: unit([1, 2, 3]) },
          ]),
          1,
        );
        assert.deepEqual(
          await store.embeddingSpaces(),
          [
            { ...SPACE, count: 5 },
            { ...OTHER_DIMS, count: 1 },
          ],
          'most numerous first',
        );
        assert.deepEqual(
          (await store.pendingEmbeddings(SPACE, 0, 10)).map((p) => p.rowid),
          [one!.rowid],
        );
        assert.equal(await store.countPendingEmbeddings({ model: SPACE.model, dims: null }), 0);
        assert.equal((await store.counts()).embedded, 6);
      }));

    it('writeEmbeddings skips chunks deleted or changed since they were read', () =>
      withStore(open, async (store) => {
        const [a, b, c] = threeDocs();
        await putAll(store, [a!, b!, c!]);
        const pending = await store.pendingEmbeddings(SPACE, 0, 100);
        await store.deleteDocuments([b!.doc.id]);
        await putAll(store, [makeDoc('filesystem:a', 'a.md', ['alpha one', 'alpha two, edited'])]);
        const writes = pending.map((p) => ({ rowid: p.rowid, contentHash: p.contentHash, vector: vectorFor(p.text) }));
        assert.equal(await store.writeEmbeddings(SPACE, writes), 4, "a's kept chunk and c's three");
        assert.deepEqual(
          (await store.pendingEmbeddings(SPACE, 0, 10)).map((p) => p.text),
          ['alpha two, edited'],
        );
        const [left] = await store.pendingEmbeddings(SPACE, 0, 1);
        const wrongHash = { rowid: left!.rowid, contentHash: 'not-its-hash', vector: vectorFor('x') };
        assert.equal(
          await store.writeEmbeddings(SPACE, [wrongHash]),
          0,
          'a vector computed from other content is refused',
        );
        assert.equal(await store.writeEmbeddings(SPACE, []), 0);
        assert.equal((await store.counts()).embedded, 4);
      }));

    it('lists spaces most numerous first and clears every vector', () =>
      withStore(open, async (store) => {
        assert.deepEqual(await store.embeddingSpaces(), []);
        const docs = threeDocs();
        await putAll(store, docs);
        const pending = await store.pendingEmbeddings(SPACE, 0, 100);
        await store.writeEmbeddings(
          OTHER_MODEL,
          pending.slice(0, 2).map((p) => ({ rowid: p.rowid, contentHash: p.contentHash, vector: vectorFor(p.text) })),
        );
        await store.writeEmbeddings(
          SPACE,
          pending.slice(2).map((p) => ({ rowid: p.rowid, contentHash: p.contentHash, vector: vectorFor(p.text) })),
        );
        assert.deepEqual(await store.embeddingSpaces(), [
          { ...SPACE, count: 4 },
          { ...OTHER_MODEL, count: 2 },
        ]);
        assert.equal(await store.clearEmbeddings(), 6);
        assert.equal(await store.clearEmbeddings(), 0);
        assert.deepEqual(await store.embeddingSpaces(), []);
        assert.equal((await store.counts()).embedded, 0);
        assert.equal(await store.countPendingEmbeddings(SPACE), 6);
        assert.deepEqual(await collect(store.iterateEmbeddings()), []);
      }));

    it('iterates stored embeddings by chunk id and imports them into another store', () =>
      withStore(open, async (source) => {
        const docs = threeDocs();
        await putAll(source, docs);
        await embedChunks(source, SPACE, vectorFor);
        const spare = (await source.pendingEmbeddings(OTHER_MODEL, 0, 100)).find((p) => p.text === 'alpha one')!;
        await source.writeEmbeddings(OTHER_MODEL, [
          { rowid: spare.rowid, contentHash: spare.contentHash, vector: unit([4, 3, 2, 1]) },
        ]);
        const rows = (await collect(source.iterateEmbeddings())).sort(byKey((r) => r.chunkId));
        const chunks = docs.flatMap((d) => d.chunks);
        assert.equal(rows.length, 6);
        for (const r of rows) {
          const chunk = chunks.find((c) => c.id === r.chunkId)!;
          assert.equal(r.contentHash, chunk.contentHash);
          if (r.model === SPACE.model) assert.deepEqual([r.dims, [...r.vector]], [4, [...vectorFor(chunk.text)]]);
        }
        assert.equal(rows.filter((r) => r.model === OTHER_MODEL.model).length, 1);

        await withStore(open, async (target) => {
          const [a, b, c] = docs;
          // b is missing; c's last chunk has the same id but other content (its vector must not follow).
          const editedC = makeDoc('git:c', 'c.md', ['gamma one', 'gamma two', 'gamma three, edited']);
          editedC.chunks[2] = { ...editedC.chunks[2]!, id: c!.chunks[2]!.id };
          await putAll(target, [a!, editedC]);
          const expected = rows.filter(
            (r) => r.chunkId !== c!.chunks[2]!.id && !b!.chunks.some((x) => x.id === r.chunkId),
          );
          assert.equal(await target.importEmbeddings(rows), expected.length);
          const imported = (await collect(target.iterateEmbeddings())).sort(byKey((r: StoredEmbedding) => r.chunkId));
          assert.deepEqual(imported.map(plain), expected.map(plain));
          assert.equal(await target.importEmbeddings(rows.slice(0, 0)), 0);
          await target.importEmbeddings(rows); // again: replaces, adds nothing
          assert.equal((await target.counts()).embedded, expected.length);
          const stillPending = (await target.pendingEmbeddings(SPACE, 0, 10)).map((p) => p.text).sort();
          assert.deepEqual(
            stillPending,
            ['alpha one', 'gamma three, edited'],
            "alpha one carries its other-model vector; c's edited chunk has none",
          );
        });
      }));
  });
}

/** A stored embedding with its vector as a plain array (deepEqual compares typed arrays by reference type too). */
function plain(r: StoredEmbedding): unknown {
  return { ...r, vector: [...r.vector] };
}
