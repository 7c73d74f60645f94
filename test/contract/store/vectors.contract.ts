// Store contract: vector search (exact cosine order, best chunk per document, ties, filters before
// the cut), per-document vector scores, and the approximate index of a small space.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EmbeddingSpace, SourceFilter, Store, VectorResult } from '../../../core/store/store.ts';
import { embedChunks, makeDoc, putAll, SPACE, unit, withStore, type OpenStore, type TestDoc } from './fixtures.ts';

const QUERY = unit([1, 0, 0, 0]);
/** A unit vector at cosine `c` to QUERY. */
const atCosine = (c: number): Float32Array => unit([c, Math.sqrt(1 - c * c), 0, 0]);
const OTHER: EmbeddingSpace = { model: 'test:other', dims: 4 };

/** Chunk text → its cosine to QUERY; texts are unique across the corpus. */
const COSINES: Record<string, number> = {
  'a best': 0.9,
  'a weak': 0.2,
  'b only': 0.8,
  'c only': 0.5,
  'd only': -0.3,
  'e tie': 0.6,
  'f tie': 0.6,
  'g old': 0.7,
};

function corpus(): Record<string, TestDoc> {
  return {
    a: makeDoc('filesystem:v', 'a.md', ['a weak', 'a best']),
    b: makeDoc('git:v', 'b.md', ['b only']),
    c: makeDoc('filesystem:v', 'c.md', ['c only']),
    d: makeDoc('git:v', 'd.md', ['d only']),
    e: makeDoc('filesystem:v', 'e.md', ['e tie']),
    f: makeDoc('filesystem:v', 'f.md', ['f tie']),
    g: makeDoc('git:v', 'g.md', ['g old'], { updatedAt: '2024-06-01T00:00:00.000Z' }),
    // Only a vector of another space: invisible to searches in SPACE.
    x: makeDoc('filesystem:v', 'x.md', ['x elsewhere']),
  };
}

async function indexed(store: Store): Promise<Record<string, TestDoc>> {
  const docs = corpus();
  await putAll(store, Object.values(docs));
  await embedChunks(store, SPACE, (text) => (text in COSINES ? atCosine(COSINES[text]!) : null));
  const [x] = await store.pendingEmbeddings(OTHER, 0, 100).then((p) => p.filter((c) => c.text === 'x elsewhere'));
  await store.writeEmbeddings(OTHER, [{ rowid: x!.rowid, contentHash: x!.contentHash, vector: QUERY }]);
  return docs;
}

const search = (store: Store, limit: number, filter?: SourceFilter): Promise<VectorResult> =>
  store.vectorSearch({ vector: QUERY, space: SPACE, limit, candidateK: limit, filter });

export function vectorCases(open: OpenStore): void {
  describe('vector search', () => {
    it('ranks documents by the exact cosine of their best chunk; ties by document id', () =>
      withStore(open, async (store) => {
        const docs = await indexed(store);
        const result = await search(store, 10);
        const [e, f] = [docs['e']!.doc.id, docs['f']!.doc.id].sort();
        const want = [
          docs['a']!.doc.id,
          docs['b']!.doc.id,
          docs['g']!.doc.id,
          e,
          f,
          docs['c']!.doc.id,
          docs['d']!.doc.id,
        ];
        assert.deepEqual(
          result.hits.map((h) => h.document.id),
          want,
        );
        const scores = [0.9, 0.8, 0.7, 0.6, 0.6, 0.5, -0.3];
        result.hits.forEach((h, i) => assert.ok(Math.abs(h.score - scores[i]!) < 1e-5, `${h.chunk.text}: ${h.score}`));
        assert.deepEqual(result.hits[0]!.chunk, docs['a']!.chunks[1], 'the best chunk, with all its fields');
        const { body: _b, contentType: _c, metadata: _m, contentHash: _h, ...head } = docs['a']!.doc;
        assert.deepEqual(result.hits[0]!.document, head);
        assert.ok(result.candidateCount >= result.hits.length);
        assert.equal(result.approximate, false, 'a small space is scanned exactly');
      }));

    it('honours limit and filters (source label or type, since) before the cut', () =>
      withStore(open, async (store) => {
        const docs = await indexed(store);
        const id = (k: string): string => docs[k]!.doc.id;
        assert.deepEqual(
          (await search(store, 2)).hits.map((h) => h.document.id),
          [id('a'), id('b')],
        );
        assert.deepEqual(
          (await search(store, 1, { source: 'git' })).hits.map((h) => h.document.id),
          [id('b')],
        );
        assert.deepEqual(
          (await search(store, 10, { source: 'git:v' })).hits.map((h) => h.document.id),
          [id('b'), id('g'), id('d')],
        );
        assert.deepEqual(
          (await search(store, 1, { source: 'filesystem:v', since: '2025-01-01T00:00:00.000Z' })).hits.map(
            (h) => h.document.id,
          ),
          [id('a')],
        );
        assert.deepEqual(
          (await search(store, 10, { source: 'git', since: '2025-01-01T00:00:00Z' })).hits.map((h) => h.document.id),
          [id('b'), id('d')],
        );
        assert.deepEqual((await search(store, 10, { source: 'nowhere' })).hits, []);
      }));

    it('fills the limit with distinct documents when the best chunks crowd into one document', () =>
      withStore(open, async (store) => {
        const crowded = makeDoc(
          'filesystem:v',
          'crowded.md',
          Array.from({ length: 10 }, (_, i) => `crowd ${i}`),
        );
        const others = [makeDoc('filesystem:v', 'p.md', ['p only']), makeDoc('filesystem:v', 'q.md', ['q only'])];
        await putAll(store, [crowded, ...others]);
        await embedChunks(store, SPACE, (text) =>
          atCosine(text.startsWith('crowd') ? 0.95 - Number(text.split(' ')[1]) / 100 : text === 'p only' ? 0.5 : 0.4),
        );
        const result = await store.vectorSearch({ vector: QUERY, space: SPACE, limit: 3, candidateK: 2 });
        assert.deepEqual(
          result.hits.map((h) => h.document.id),
          [crowded.doc.id, others[0]!.doc.id, others[1]!.doc.id],
        );
        assert.equal(result.hits[0]!.chunk.text, 'crowd 0');
      }));

    it('searches only the asked space, and an empty space finds nothing', () =>
      withStore(open, async (store) => {
        const docs = await indexed(store);
        const other = await store.vectorSearch({ vector: QUERY, space: OTHER, limit: 10, candidateK: 10 });
        assert.deepEqual(
          other.hits.map((h) => h.document.id),
          [docs['x']!.doc.id],
        );
        assert.ok(Math.abs(other.hits[0]!.score - 1) < 1e-5);
        const none = await store.vectorSearch({
          vector: QUERY,
          space: { model: 'test:none', dims: 4 },
          limit: 10,
          candidateK: 10,
        });
        assert.deepEqual(none.hits, []);
        assert.equal(none.candidateCount, 0);
      }));

    it('scores the given documents by their best chunk, leaving out those without vectors', () =>
      withStore(open, async (store) => {
        const docs = await indexed(store);
        const id = (k: string): string => docs[k]!.doc.id;
        const scores = await store.documentVectorScores(QUERY, SPACE, [id('a'), id('d'), id('x'), 'no-such-id']);
        assert.deepEqual([...scores.keys()].sort(), [id('a'), id('d')].sort());
        assert.ok(Math.abs(scores.get(id('a'))! - 0.9) < 1e-5);
        assert.ok(Math.abs(scores.get(id('d'))! + 0.3) < 1e-5);
        assert.equal((await store.documentVectorScores(QUERY, SPACE, [])).size, 0);
      }));

    it('keeps no approximate index for a small space', () =>
      withStore(open, async (store) => {
        await indexed(store);
        assert.deepEqual(await store.refreshVectorIndex(SPACE), { vectors: 8, index: 'none' });
        assert.deepEqual(await store.refreshVectorIndex({ model: 'test:none', dims: 4 }), {
          vectors: 0,
          index: 'none',
        });
        assert.equal((await search(store, 1)).hits.length, 1, 'search still answers after a refresh');
      }));
  });
}
