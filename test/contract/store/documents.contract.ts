// Store contract: writing and reading documents (upsert and its chunk diff, fingerprints, touch,
// delete and its cascade, bulk mode, listing).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../../core/store/store.ts';
import { collect, embedChunks, makeDoc, putAll, SPACE, terms, unit, withStore, type OpenStore } from './fixtures.ts';

const keywordIds = async (store: Store, query: string): Promise<string[]> =>
  (await store.keywordSearch({ terms: terms(query), limit: 10, candidateK: 10 })).hits.map((h) => h.document.id);

export function documentCases(open: OpenStore): void {
  describe('documents', () => {
    it('round-trips a document and its chunks with every field', () =>
      withStore(open, async (store) => {
        const a = makeDoc(
          'filesystem:notes',
          'guide.md',
          ['First part about rivers.', 'Second part about mountains.'],
          {
            title: 'The Guide',
            updatedAt: '2025-12-31T23:59:58.123Z',
            contentType: 'text/markdown',
            metadata: { tags: ['a', 'b'], pages: 3, draft: false, nested: { owner: 'ops', score: 1.5 }, none: null },
          },
        );
        const b = makeDoc('script:tickets', 'T-1', ['A ticket without a link.'], {
          source: 'tickets',
          sourceUrl: null,
          contentType: 'text/plain',
        });
        assert.deepEqual(await store.upsertDocument(a.doc, a.chunks, 'size:10'), {
          chunksWritten: 2,
          chunksDeleted: 0,
        });
        assert.deepEqual(await store.upsertDocument(b.doc, b.chunks, null), { chunksWritten: 1, chunksDeleted: 0 });
        assert.deepEqual(await store.getDocument(a.doc.id), a.doc);
        assert.deepEqual(
          await store.getDocument(b.doc.id),
          b.doc,
          'sourceUrl null and a source label other than the connector',
        );
        assert.deepEqual(await store.getChunks(a.doc.id), a.chunks);
        assert.deepEqual(await store.getChunks(b.doc.id), b.chunks);
        assert.equal(await store.getDocument('no-such-id'), null);
        assert.deepEqual(await store.getChunks('no-such-id'), []);
      }));

    it('keeps text as written (unicode, quotes, long bodies)', () =>
      withStore(open, async (store) => {
        const long = 'word '.repeat(20_000).trim();
        const d = makeDoc(
          'filesystem:notes',
          'odd.md',
          ['It\'s "quoted" — naïve café 東京タワー 🚀 tab\there back\\slash', long],
          {
            title: 'O\'Brien\'s "notes"',
          },
        );
        await putAll(store, [d]);
        assert.deepEqual(await store.getDocument(d.doc.id), d.doc);
        assert.deepEqual(await store.getChunks(d.doc.id), d.chunks);
      }));

    it('is idempotent: the same upsert again writes no chunks', () =>
      withStore(open, async (store) => {
        const d = makeDoc('filesystem:notes', 'a.md', ['one', 'two', 'three']);
        await store.upsertDocument(d.doc, d.chunks, 'fp1');
        assert.deepEqual(await store.upsertDocument(d.doc, d.chunks, 'fp1'), { chunksWritten: 0, chunksDeleted: 0 });
        assert.deepEqual((await store.counts()).chunks, 3);
        assert.deepEqual(await store.getChunks(d.doc.id), d.chunks);
      }));

    it('diffs chunks by id: unchanged chunks keep their embeddings, removed ones go with theirs', () =>
      withStore(open, async (store) => {
        const v1 = makeDoc('filesystem:notes', 'a.md', ['keep alpha', 'drop beta', 'change gamma']);
        await putAll(store, [v1]);
        assert.equal(await embedChunks(store, SPACE, () => unit([1, 0, 0, 0])), 3);
        const v2 = makeDoc('filesystem:notes', 'a.md', ['new delta', 'keep alpha', 'changed gamma'], {
          title: 'renamed',
        });
        assert.deepEqual(await store.upsertDocument(v2.doc, v2.chunks, 'fp2'), { chunksWritten: 2, chunksDeleted: 2 });
        assert.deepEqual(await store.getChunks(v2.doc.id), v2.chunks, 'the kept chunk moved to its new position');
        const embedded = await collect(store.iterateEmbeddings());
        assert.deepEqual(
          embedded.map((e) => e.chunkId),
          [v1.chunks[0]!.id],
          'only the kept chunk still has its vector',
        );
        assert.equal((await store.counts()).embedded, 1);
        const pending = await store.pendingEmbeddings(SPACE, 0, 10);
        assert.deepEqual(pending.map((p) => p.text).sort(), ['changed gamma', 'new delta']);
        assert.deepEqual(await keywordIds(store, 'beta'), [], 'a removed chunk leaves the keyword index');
        assert.deepEqual(await keywordIds(store, 'renamed'), [v2.doc.id], 'kept chunks are found under the new title');
      }));

    it('reports document states per connector, with fingerprints and content hashes', () =>
      withStore(open, async (store) => {
        const a1 = makeDoc('filesystem:a', 'one.md', ['x one']);
        const a2 = makeDoc('filesystem:a', 'two.md', ['x two'], { source: 'custom-label' });
        const b1 = makeDoc('git:b', 'one.md', ['x three']);
        await store.upsertDocument(a1.doc, a1.chunks, 'mtime:1');
        await store.upsertDocument(a2.doc, a2.chunks, null);
        await store.upsertDocument(b1.doc, b1.chunks, 'sha:abc');
        const states = await store.documentStates('filesystem:a');
        assert.deepEqual(
          [...states.entries()].sort(),
          [
            [
              a1.doc.id,
              {
                id: a1.doc.id,
                source: 'filesystem:a',
                sourceId: 'one.md',
                fingerprint: 'mtime:1',
                contentHash: a1.doc.contentHash,
              },
            ],
            [
              a2.doc.id,
              {
                id: a2.doc.id,
                source: 'custom-label',
                sourceId: 'two.md',
                fingerprint: null,
                contentHash: a2.doc.contentHash,
              },
            ],
          ].sort(),
        );
        assert.deepEqual([...(await store.documentStates('git:b')).keys()], [b1.doc.id]);
        assert.equal((await store.documentStates('git:none')).size, 0);
      }));

    it('touchDocument records a new fingerprint and changes nothing else', () =>
      withStore(open, async (store) => {
        const d = makeDoc('filesystem:a', 'one.md', ['touch me']);
        await store.upsertDocument(d.doc, d.chunks, 'old');
        await embedChunks(store, SPACE, () => unit([0, 1, 0, 0]));
        await store.touchDocument(d.doc.id, 'new');
        assert.equal((await store.documentStates('filesystem:a')).get(d.doc.id)?.fingerprint, 'new');
        await store.touchDocument(d.doc.id, null);
        assert.equal((await store.documentStates('filesystem:a')).get(d.doc.id)?.fingerprint, null);
        assert.deepEqual(await store.getDocument(d.doc.id), d.doc);
        assert.deepEqual(await store.getChunks(d.doc.id), d.chunks);
        assert.equal((await store.counts()).embedded, 1);
        await store.touchDocument('no-such-id', 'x'); // not an error
      }));

    it('deleteDocuments counts what existed and takes chunks, embeddings and search hits with it', () =>
      withStore(open, async (store) => {
        const gone = makeDoc('filesystem:a', 'gone.md', ['zebra stripes', 'zebra herd']);
        const stays = makeDoc('filesystem:a', 'stays.md', ['zebra crossing']);
        await putAll(store, [gone, stays]);
        await embedChunks(store, SPACE, () => unit([1, 1, 0, 0]));
        assert.equal(await store.deleteDocuments([gone.doc.id, 'no-such-id']), 1);
        assert.equal(await store.deleteDocuments([gone.doc.id]), 0);
        assert.equal(await store.deleteDocuments([]), 0);
        assert.equal(await store.getDocument(gone.doc.id), null);
        assert.deepEqual(await store.getChunks(gone.doc.id), []);
        assert.deepEqual(await store.counts(), { documents: 1, chunks: 1, embedded: 1 });
        assert.deepEqual([...(await store.documentStates('filesystem:a')).keys()], [stays.doc.id]);
        assert.deepEqual(await keywordIds(store, 'zebra'), [stays.doc.id]);
        const vector = await store.vectorSearch({
          vector: unit([1, 1, 0, 0]),
          space: SPACE,
          limit: 10,
          candidateK: 10,
        });
        assert.deepEqual(
          vector.hits.map((h) => h.document.id),
          [stays.doc.id],
        );
        assert.deepEqual(
          (await collect(store.iterateEmbeddings())).map((e) => e.chunkId),
          [stays.chunks[0]!.id],
        );
        assert.deepEqual(await store.embeddingSpaces(), [{ ...SPACE, count: 1 }]);
      }));

    it('bulk mode nests; everything written is readable after the outermost endBulk', () =>
      withStore(open, async (store) => {
        const docs = Array.from({ length: 30 }, (_, i) =>
          makeDoc('filesystem:bulk', `d${i}.md`, [`bulk document number${i}`, `second chunk ${i}`]),
        );
        await store.beginBulk();
        await putAll(store, docs.slice(0, 10));
        await store.beginBulk();
        await putAll(store, docs.slice(10, 20));
        await store.deleteDocuments([docs[0]!.doc.id]);
        await store.endBulk();
        await putAll(store, docs.slice(20));
        await store.touchDocument(docs[1]!.doc.id, 'touched');
        await store.setSourceState('filesystem:bulk', { checkpoint: 'c1', lastSyncAt: '2026-01-01T00:00:00.000Z' });
        await store.endBulk();
        assert.deepEqual(await store.counts(), { documents: 29, chunks: 58, embedded: 0 });
        assert.deepEqual(await store.getDocument(docs[29]!.doc.id), docs[29]!.doc);
        assert.equal((await store.documentStates('filesystem:bulk')).get(docs[1]!.doc.id)?.fingerprint, 'touched');
        assert.equal((await store.sourceState('filesystem:bulk')).checkpoint, 'c1');
        assert.deepEqual(await keywordIds(store, 'number7'), [docs[7]!.doc.id]);
        assert.deepEqual(await keywordIds(store, 'number0'), []);
      }));

    it('lists documents in insertion order, page by page, with `last` as the cursor', () =>
      withStore(open, async (store) => {
        const names = ['m.md', 'c.md', 'x.md', 'a.md', 'q.md'];
        const docs = names.map((n) => makeDoc('filesystem:a', n, [`text of ${n}`]));
        await putAll(store, docs);
        await putAll(store, [makeDoc('filesystem:a', 'c.md', ['c rewritten'])]);
        await store.deleteDocuments([docs[2]!.doc.id]);
        const seen: string[] = [];
        const lasts: (number | null)[] = [];
        for (let after = 0, pages = 0; pages < 10; pages++) {
          const page = await store.listDocuments(after, 2);
          seen.push(...page.documents.map((d) => d.sourceId));
          lasts.push(page.last);
          if (page.last === null) break;
          after = page.last;
        }
        assert.deepEqual(
          seen,
          ['m.md', 'c.md', 'a.md', 'q.md'],
          'insertion order; an update keeps its place; a delete leaves it',
        );
        assert.equal(lasts.at(-1), null, 'the listing ends with last = null');
        assert.ok(lasts.length <= 3);
        const one = await store.listDocuments(0, 1);
        const head = one.documents[0]!;
        const { body: _b, contentType: _c, metadata: _m, contentHash: _h, ...expected } = docs[0]!.doc;
        assert.deepEqual(head, expected, 'a listed document is its head (no body)');
        const all = await store.listDocuments(0, 100);
        assert.equal(all.documents.length, 4);
        assert.equal(all.last, null);
      }));
  });
}
