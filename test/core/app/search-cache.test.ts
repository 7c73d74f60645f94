// The search cache key holds everything that shapes a response, filters included: two searches that differ
// only in a filter never share an entry.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RetrievalConfig } from '../../../core/config/types.ts';
import { documentId } from '../../../core/domain/ids.ts';
import { parseSearchParams } from '../../../plugins/tools-builtin/search-params.ts';
import { search } from '../../../core/app/search.ts';
import { SearchCache } from '../../../core/app/search-cache.ts';
import { toDocument } from '../../../core/app/sync.ts';
import { openSqliteStore, type SqliteStore } from '../../../plugins/store-sqlite/sqlite-store.ts';
import { toChunks } from '../../helpers/chunks.ts';

const retrieval: RetrievalConfig = {
  finalLimit: 10,
  maxLimit: 100,
  hybridAlpha: 0.6,
  candidateKKeyword: 20,
  candidateKVector: 20,
  fusion: 'weighted',
  cacheSize: 16,
};
const params = (filters?: Record<string, unknown>) => parseSearchParams({ query: 'heron', filters }, retrieval);
let store: SqliteStore;

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
    ].map((f) => SearchCache.key(params(f), retrieval));
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(
      SearchCache.key(params({ meta: { team: 'infra', tier: '1' } }), retrieval),
      SearchCache.key(params({ meta: { tier: '1', team: 'infra' } }), retrieval),
      'meta keys in any order',
    );
  });

  it('a cached search never answers a search with another filter', async () => {
    const cache = new SearchCache(16);
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
