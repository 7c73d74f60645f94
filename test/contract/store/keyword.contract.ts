// Store contract: keyword search (BM25 basics, title matches, best chunk per document, limit,
// candidate counts, and the source / since filters applied before the cut).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KeywordResult, SourceFilter, Store } from '../../../core/store/store.ts';
import { makeDoc, putAll, terms, withStore, type OpenStore, type TestDoc } from './fixtures.ts';

const search = (store: Store, query: string, limit = 10, filter?: SourceFilter): Promise<KeywordResult> =>
  store.keywordSearch({ terms: terms(query), limit, candidateK: limit, filter });
const ids = async (store: Store, query: string, limit = 10, filter?: SourceFilter): Promise<string[]> =>
  (await search(store, query, limit, filter)).hits.map((h) => h.document.id);

/** Eight one-chunk documents of three tokens each, with one-token titles (equal lengths: only idf and tf differ). */
function fruitCorpus(): TestDoc[] {
  const bodies = [
    'apple pie recipe',
    'apple orchard tour',
    'cherry blossom season',
    'granite quarry stone',
    'violin concerto music',
    'harbor ferry boat',
    'desert cactus sun',
    'winter snow storm',
  ];
  return bodies.map((body, i) => makeDoc('filesystem:corpus', `d${i}.md`, [body], { title: `t${i}` }));
}

export function keywordCases(open: OpenStore): void {
  describe('keyword search', () => {
    it('ranks by BM25: the document of the rarer term first, scores in (0, 1), best first', () =>
      withStore(open, async (store) => {
        const docs = fruitCorpus();
        await putAll(store, docs);
        const result = await search(store, 'apple cherry');
        assert.equal(result.hits[0]?.document.id, docs[2]!.doc.id, 'cherry (one document) outweighs apple (two)');
        assert.deepEqual(
          result.hits
            .slice(1)
            .map((h) => h.document.id)
            .sort(),
          [docs[0]!.doc.id, docs[1]!.doc.id].sort(),
        );
        for (const h of result.hits)
          assert.ok(h.raw > 0 && h.score > 0 && h.score < 1, `raw ${h.raw}, score ${h.score}`);
        for (let i = 1; i < result.hits.length; i++) {
          assert.ok(result.hits[i - 1]!.raw >= result.hits[i]!.raw, 'best first');
          assert.ok(result.hits[i - 1]!.score >= result.hits[i]!.score, 'scores follow raw');
        }
        assert.ok(result.candidateCount >= result.hits.length);
        assert.deepEqual(
          result.matchedTerms.map((t) => t.stem).sort(),
          terms('apple cherry')
            .map((t) => t.stem)
            .sort(),
        );
      }));

    it('returns what a hit needs: the document head and the matching chunk', () =>
      withStore(open, async (store) => {
        const d = makeDoc(
          'git:docs',
          'guide.md',
          ['nothing here', 'the lantern lantern lantern shines', 'one more lantern'],
          { title: 'Guide' },
        );
        const other = makeDoc('git:docs', 'other.md', ['a lantern festival in spring']);
        await putAll(store, [d, other, ...fruitCorpus()]);
        const result = await search(store, 'lantern');
        assert.equal(result.hits.length, 2, 'one hit per document');
        const hit = result.hits.find((h) => h.document.id === d.doc.id)!;
        const { body: _b, contentType: _c, metadata: _m, contentHash: _h, ...head } = d.doc;
        assert.deepEqual(hit.document, head);
        assert.deepEqual(hit.chunk, d.chunks[1], 'the best chunk of the document');
      }));

    it('fills the limit with distinct documents when the best chunks crowd into one document', () =>
      withStore(open, async (store) => {
        const crowded = makeDoc(
          'filesystem:a',
          'crowded.md',
          Array.from({ length: 12 }, (_, i) => `heron heron heron note ${i}`),
        );
        const others = ['heron one', 'heron two', 'heron three'].map((t, i) =>
          makeDoc('filesystem:a', `o${i}.md`, [t]),
        );
        const fillers = Array.from({ length: 12 }, (_, i) =>
          makeDoc('filesystem:a', `fill${i}.md`, [`filler words ${i}`]),
        );
        // heron in 15 of 35 chunks: a positive idf
        await putAll(store, [crowded, ...others, ...fruitCorpus(), ...fillers]);
        const result = await store.keywordSearch({ terms: terms('heron'), limit: 4, candidateK: 2 });
        assert.equal(result.hits[0]?.document.id, crowded.doc.id);
        assert.deepEqual(
          result.hits.map((h) => h.document.id).sort(),
          [crowded, ...others].map((d) => d.doc.id).sort(),
        );
      }));

    it('honours limit, and says when nothing matches', () =>
      withStore(open, async (store) => {
        const docs = fruitCorpus();
        await putAll(store, docs);
        assert.deepEqual(await ids(store, 'apple cherry', 1), [docs[2]!.doc.id]);
        assert.equal((await ids(store, 'apple cherry', 2)).length, 2);
        const none = await search(store, 'xylophone');
        assert.deepEqual(none.hits, []);
        assert.equal(none.candidateCount, 0);
        assert.deepEqual((await store.keywordSearch({ terms: [], limit: 5, candidateK: 5 })).hits, []);
        await store.deleteDocuments(docs.map((d) => d.doc.id));
        assert.deepEqual(await ids(store, 'apple'), [], 'an emptied index');
      }));

    it('matches titles (also after a rename), and a title match outranks the same match in the body', () =>
      withStore(open, async (store) => {
        const inTitle = makeDoc('filesystem:a', 'k8s.md', ['deploy pods nodes'], { title: 'Kubernetes' });
        const inBody = makeDoc('filesystem:a', 'ops.md', ['deploy kubernetes nodes'], { title: 'Operations' });
        await putAll(store, [inTitle, inBody, ...fruitCorpus()]);
        assert.deepEqual(await ids(store, 'kubernetes'), [inTitle.doc.id, inBody.doc.id]);
        assert.deepEqual(await ids(store, 'operations'), [inBody.doc.id]);
        const renamed = makeDoc('filesystem:a', 'ops.md', ['deploy kubernetes nodes'], { title: 'Maintenance' });
        assert.deepEqual(await store.upsertDocument(renamed.doc, renamed.chunks, null), {
          chunksWritten: 0,
          chunksDeleted: 0,
        });
        assert.deepEqual(await ids(store, 'operations'), [], 'the old title is gone from the index');
        assert.deepEqual(
          await ids(store, 'maintenance'),
          [inBody.doc.id],
          'unchanged chunks are found under the new title',
        );
      }));

    // ADR 0113: once deleted rows exceed 10% of the live ones, compaction (every sync that wrote ends with
    // one) makes BM25's totals exact again; here 5 of 8 rows were deleted or re-indexed.
    it('scores after many deletes and a compaction as a fresh index of the same documents would', () =>
      withStore(open, async (churned) => {
        const docs = fruitCorpus();
        const extra = ['apple tart crumble', 'storm cloud rain', 'granite apple quarry', 'long '.repeat(40).trim()].map(
          (body, i) => makeDoc('filesystem:corpus', `x${i}.md`, [body]),
        );
        await putAll(churned, [...docs, ...extra]);
        await churned.deleteDocuments(extra.map((d) => d.doc.id));
        const renamed = makeDoc('filesystem:corpus', 'd5.md', ['harbor ferry boat'], { title: 'renamed' });
        await churned.upsertDocument(renamed.doc, renamed.chunks, null); // a title change re-indexes the kept chunk
        await churned.upsertDocument(docs[5]!.doc, docs[5]!.chunks, null);
        await churned.compact();
        await withStore(open, async (fresh) => {
          await putAll(fresh, docs);
          const raw = async (store: Store): Promise<[string, number][]> =>
            (await search(store, 'apple cherry storm')).hits.map((h) => [h.document.id, Number(h.raw.toFixed(9))]);
          assert.deepEqual(await raw(churned), await raw(fresh));
        });
      }));

    it('filters by source label, source type and since, before the cut', () =>
      withStore(open, async (store) => {
        const fs = makeDoc('filesystem:notes', 'fs.md', ['kestrel kestrel kestrel hover'], {
          updatedAt: '2026-03-01T00:00:00.000Z',
        });
        const gitDocs = makeDoc('git:docs', 'g1.md', ['kestrel kestrel over hills'], {
          updatedAt: '2025-01-01T00:00:00.000Z',
        });
        const gitWiki = makeDoc('git:wiki', 'g2.md', ['one kestrel seen today'], { updatedAt: '2026-02-01T00:00:00Z' });
        const ticket = makeDoc('script:tracker', 'T-9', ['kestrel nest report filed'], {
          source: 'tickets',
          updatedAt: '2026-02-01T01:00:00+02:00',
        });
        const filler = Array.from({ length: 6 }, (_, i) =>
          makeDoc('filesystem:notes', `f${i}.md`, [`unrelated filler text ${i}`]),
        );
        await putAll(store, [fs, gitDocs, gitWiki, ticket, ...filler]);
        const id = (d: TestDoc): string => d.doc.id;
        assert.deepEqual(await ids(store, 'kestrel', 1), [id(fs)]);
        assert.deepEqual(await ids(store, 'kestrel', 1, { source: 'git:wiki' }), [id(gitWiki)], 'a connector label');
        assert.deepEqual(
          (await ids(store, 'kestrel', 10, { source: 'git' })).sort(),
          [id(gitDocs), id(gitWiki)].sort(),
          'a connector type',
        );
        assert.deepEqual(await ids(store, 'kestrel', 1, { source: 'git' }), [id(gitDocs)]);
        assert.deepEqual(
          await ids(store, 'kestrel', 10, { source: 'tickets' }),
          [id(ticket)],
          'a document source label',
        );
        assert.deepEqual(await ids(store, 'kestrel', 10, { source: 'gi' }), [], 'a type is matched whole');
        assert.deepEqual(await ids(store, 'kestrel', 10, { source: 'nowhere' }), []);
        const since = (await ids(store, 'kestrel', 10, { since: '2026-02-01T00:00:00.000Z' })).sort();
        assert.deepEqual(
          since,
          [id(fs), id(gitWiki)].sort(),
          'at or after the instant, whatever the stored precision; +02:00 is before it',
        );
        assert.deepEqual(
          await ids(store, 'kestrel', 10, { since: '2026-01-31T23:00:00.000Z', source: 'script' }),
          [id(ticket)],
          'both filters hold',
        );
        assert.deepEqual(await ids(store, 'kestrel', 10, { since: '2026-03-01T00:00:00.001Z' }), []);
      }));
  });
}
