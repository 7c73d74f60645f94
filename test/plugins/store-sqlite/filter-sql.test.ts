// A filter's document-level fields through the SQL function's key (filter-sql.ts facetsKey / parseFacetsKey) and back
// into core's reference predicate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileFacets, type DocumentFacets } from '../../../core/api/algorithms.ts';
import { facetsKey, parseFacetsKey } from '../../../plugins/store-sqlite/filter-sql.ts';

describe('facetsKey with a scope', () => {
  it('round-trips through the SQL function key and orders meta keys', () => {
    const facets = (connector: string, sourceId: string, metadata: Record<string, unknown>): DocumentFacets => ({
      connector,
      sourceId,
      sourceUrl: null,
      contentType: 'text/plain',
      metadata: () => metadata,
    });
    const filter = { path: ['**/*.md'], scope: { sources: ['git:*'], paths: ['docs/**'], meta: { b: '2', a: '1' } } };
    const key = facetsKey(filter);
    assert.equal(key, facetsKey({ ...filter, scope: { ...filter.scope, meta: { a: '1', b: '2' } } }));
    const passes = compileFacets(parseFacetsKey(key));
    assert.equal(passes(facets('git:d', 'docs/x.md', { a: '1', b: '2' })), true);
    assert.equal(passes(facets('git:d', 'docs/x.ts', { a: '1', b: '2' })), false, 'the filter');
    assert.equal(passes(facets('s3:d', 'docs/x.md', { a: '1', b: '2' })), false, 'the scope sources');
    assert.equal(passes(facets('git:d', 'src/x.md', { a: '1', b: '2' })), false, 'the scope paths');
    assert.equal(passes(facets('git:d', 'docs/x.md', { a: '1' })), false, 'the scope meta');
    assert.equal(parseFacetsKey(facetsKey({ path: ['a'] })).scope, undefined);
  });
});
