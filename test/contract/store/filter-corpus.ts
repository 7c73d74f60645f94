// The filter corpus of the filter and scope cases (ADR 0213, ADR 0225), seeded into a store with searches that
// answer the corpus's names: twelve strong `notes/` matches (the crowd) outrank five weaker documents of several
// sources, paths and metadata, so with candidateK = limit a filter or scope applied after the cut would return
// nothing.
import type { SourceFilter, Store } from '../../../core/store/store.ts';
import { embedChunks, makeDoc, putAll, SPACE, terms, unit, type TestDoc } from './fixtures.ts';

const QUERY = unit([1, 0, 0, 0]);

/** Twelve strong `notes/` matches (the crowd) and five weaker documents of several sources, paths and metadata. */
function corpus(): Record<string, TestDoc> {
  const crowd = Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [
      `n${i}`,
      makeDoc('filesystem:notes', `notes/n${i}.md`, [`falcon falcon falcon crowd ${i}`], {
        sourceUrl: `file:///home/me/docs/notes/n${i}.md`,
        metadata: { tags: ['misc'], team: 'web' },
      }),
    ]),
  );
  return {
    ...crowd,
    a: makeDoc('filesystem:notes', 'docs/guide/a.md', ['falcon alpha'], {
      sourceUrl: 'file:///home/me/docs/guide/a.md',
      metadata: { tags: ['Ops', 'infra'], team: 'infra', tier: 1 },
      updatedAt: '2026-02-10T00:00:00.000Z',
    }),
    b: makeDoc('filesystem:notes', 'docs/b.test.ts', ['falcon bravo'], {
      sourceUrl: null,
      contentType: 'text/plain; charset=utf-8',
      metadata: { tags: 'ops, db', team: 'infra', tier: 2 },
    }),
    c: makeDoc('filesystem:notes', 'src/c.py', ['falcon charlie'], {
      contentType: 'text/x-python',
      metadata: { tags: ['db'], team: ['infra', 'data'], draft: false },
    }),
    d: makeDoc('git:docs', 'docs/d.pdf', ['falcon delta'], {
      sourceUrl: 'https://github.com/o/r/blob/main/docs/d.pdf',
      contentType: 'application/pdf',
      updatedAt: '2026-03-05T00:00:00.000Z',
    }),
    e: makeDoc('s3:reports', 'reports/2026/e.md', ['falcon echo'], { sourceUrl: 's3://bucket/reports/2026/e.md' }),
  };
}

export interface SeededCorpus {
  /** The names (`a`…`e`, `n0`…`n11`) of the keyword hits for `falcon` under `filter`, in rank order. */
  keyword(filter: SourceFilter, limit?: number): Promise<string[]>;
  /** The same names, sorted: every match (limit 20). */
  all(filter: SourceFilter): Promise<string[]>;
  /** The names of the vector hits under `filter` in rank order (`embedded` seeding only). */
  vector(filter: SourceFilter, limit: number): Promise<string[]>;
}

/**
 * Writes the corpus into `store`; with `embedded`, also a vector per chunk in SPACE: the crowd closest to the query,
 * the rest further away.
 */
export async function seedFilterCorpus(store: Store, options: { embedded?: boolean } = {}): Promise<SeededCorpus> {
  const docs = corpus();
  await putAll(store, Object.values(docs));
  if (options.embedded)
    await embedChunks(store, SPACE, (text) =>
      text.includes('crowd') ? unit([1, 0.01, 0, 0]) : unit([1, 0.5 + text.length / 100, 0, 0]),
    );
  const name = new Map(Object.entries(docs).map(([k, d]) => [d.doc.id, k]));
  const keyword = async (filter: SourceFilter, limit = 20): Promise<string[]> =>
    (await store.keywordSearch({ terms: terms('falcon'), limit, candidateK: limit, filter })).hits.map(
      (h) => name.get(h.document.id)!,
    );
  return {
    keyword,
    all: async (filter) => (await keyword(filter)).sort(),
    vector: async (filter, limit) =>
      (await store.vectorSearch({ vector: QUERY, space: SPACE, limit, candidateK: limit, filter })).hits.map(
        (h) => name.get(h.document.id)!,
      ),
  };
}
