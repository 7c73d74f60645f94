// The search cache key holds everything that shapes a response, filters included: two searches that differ
// only in a filter never share an entry.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RetrievalConfig } from '../../../core/config/types.ts';
import { testRetrieval } from '../../helpers/retrieval.ts';
import { documentId } from '../../../core/domain/ids.ts';
import { parseSearchParams } from '../../../plugins/tools-builtin/search-params.ts';
import { search } from '../../../core/app/search.ts';
import { LruSearchCache } from '../../../plugins/search-cache/lru-search-cache.ts';
import { toDocument } from '../../../core/app/sync.ts';
import { openSqliteStore, type SqliteStore } from '../../../plugins/store-sqlite/sqlite-store.ts';
import { toChunks } from '../../helpers/chunks.ts';

const retrieval = testRetrieval(16);
const params = (filters?: Record<string, unknown>) => parseSearchParams({ query: 'heron', filters }, retrieval);
let store: SqliteStore;
const keyOf = (p: ReturnType<typeof params>, r: RetrievalConfig): string => new LruSearchCache(1).key(p, r);

before(async () => {
  store = openSqliteStore(':memory:');
  const files: [string, Record<string, unknown>][] = [
    ['docs/a.md', { tags: ['x'], team: 'infra' }],
    ['src/b.ts', { tags: ['y'], team: 'web' }],
  ];
  for (const [sourceId, metadata] of files) {
    const doc = toDocument({ sourceId, body: 'heron', metadata }, documentId('fs:n', sourceId), 'fs:n', 'fs:n');
    await store.upsertDocument(doc, toChunks(doc, { maxTokens: 700, overlapTokens: 0 }), null);
  }
});
after(() => store.close());

describe('search cache key', () => {
  it('differs for every filter field, and is the same for the same filter', () => {
    const keys = [
      undefined,
      { path: 'docs/**' },
      { path: '!docs/**' },
      { lang: 'markdown' },
      { type: 'markdown' },
      { tags: 'x' },
      { tags_all: 'x' },
      { meta: { team: 'infra' } },
      { meta: { team: ['infra', 'web'] } },
      { source: ['fs', 'git'] },
      { until: '2026-01-01' },
    ].map((f) => keyOf(params(f), retrieval));
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(
      keyOf(params({ meta: { team: 'infra', tier: '1' } }), retrieval),
      keyOf(params({ meta: { tier: '1', team: 'infra' } }), retrieval),
      'meta keys in any order',
    );
  });

  it('a cached search never answers a search with another filter', async () => {
    const cache = new LruSearchCache(16);
    const deps = { store, retrieval, cache };
    const ids = async (filters?: Record<string, unknown>) =>
      (await search(deps, params(filters))).results.map((r) => r.sourceId).sort();
    assert.deepEqual(await ids(), ['docs/a.md', 'src/b.ts']);
    assert.deepEqual(await ids({ path: 'docs/**' }), ['docs/a.md']);
    assert.deepEqual(await ids({ meta: { team: 'web' } }), ['src/b.ts']);
    assert.deepEqual(await ids({ path: 'docs/**' }), ['docs/a.md']);
    assert.equal(cache.hits, 1);
  });
});

describe('the LRU', () => {
  const response = (n: number) => ({
    results: [],
    explain: { mode: 'keyword' as const, alpha: null, keywordCandidates: n, vectorCandidates: 0, terms: [] },
  });

  it("a ranked page's key never equals the search's, and differs by the taps' parts", () => {
    const cache = new LruSearchCache(4);
    const plain = cache.key(params(), retrieval);
    const ranked = cache.key(params(), retrieval, '[["rerank","v1"]]');
    assert.notEqual(plain, ranked);
    assert.notEqual(ranked, cache.key(params(), retrieval, '[["rerank","off"]]'));
  });

  it('answers only under the generation it was stored with, and drops the least recently used entry', () => {
    const cache = new LruSearchCache(2);
    cache.set('a', 'g1', response(1));
    cache.set('b', 'g1', response(2));
    assert.equal(cache.get('a', 'g2'), undefined, 'a write since (another generation): stale');
    assert.equal(cache.get('a', 'g1')?.explain.keywordCandidates, 1);
    cache.set('c', 'g1', response(3)); // 'b' is the least recently used now
    assert.equal(cache.get('b', 'g1'), undefined);
    assert.equal(cache.get('c', 'g1')?.explain.keywordCandidates, 3);
    assert.deepEqual([cache.hits, cache.misses], [2, 2]);
  });

  it('keeps nothing with capacity 0 ([retrieval] cache_size = 0)', () => {
    const cache = new LruSearchCache(0);
    cache.set('a', 'g1', response(1));
    assert.equal(cache.get('a', 'g1'), undefined);
  });
});
