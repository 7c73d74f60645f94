// A token's scope as a filter conjunct and as a check on one document or source (core/search/scope-filter.ts); its
// round trip through the SQLite store's SQL function key is test/plugins/store-sqlite/filter-sql.test.ts's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { documentInScope, scopedFilter, scopeFilter, sourceInScope } from '../../../core/search/scope-filter.ts';

const doc = (connector: string, sourceId: string, metadata: Record<string, unknown> = {}) => ({
  source: connector,
  connector,
  sourceId,
  sourceUrl: null,
  contentType: 'text/markdown',
  metadata,
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('scopeFilter', () => {
  it('keeps the data fields, meta values as text with keys sorted; nothing to limit is undefined', () => {
    assert.deepEqual(scopeFilter({ sources: ['git:*'], meta: { z: 1, a: true }, tools: ['search'], admin: true }), {
      sources: ['git:*'],
      meta: { a: 'true', z: '1' },
    });
    assert.deepEqual(Object.keys(scopeFilter({ meta: { z: 1, a: 'x' } })!.meta!), ['a', 'z']);
    assert.equal(scopeFilter({ tools: ['search'], admin: false }), undefined);
    assert.equal(scopeFilter(undefined), undefined);
  });

  it('rides along as its own conjunct: the filter is kept as given', () => {
    const filter = { source: ['filesystem'], path: ['docs/**'] };
    assert.deepEqual(scopedFilter(filter, { paths: ['public/**'] }), { ...filter, scope: { paths: ['public/**'] } });
    assert.equal(scopedFilter(filter, { admin: true }), filter);
    assert.deepEqual(scopedFilter(undefined, { sources: ['s3'] }), { scope: { sources: ['s3'] } });
  });
});

describe('documentInScope', () => {
  it('reads sources (globs on the connector, or its type), paths with excludes and meta pairs', () => {
    assert.equal(documentInScope(doc('git:docs', 'a.md'), { sources: ['git:*'] }), true);
    assert.equal(documentInScope(doc('git:docs', 'a.md'), { sources: ['git'] }), true);
    assert.equal(documentInScope(doc('filesystem:git', 'a.md'), { sources: ['git:*', 'git'] }), false);
    assert.equal(documentInScope(doc('git:docs', 'public/a.md'), { paths: ['public/**', '!**/secret*'] }), true);
    assert.equal(documentInScope(doc('git:docs', 'public/secret.md'), { paths: ['public/**', '!**/secret*'] }), false);
    assert.equal(documentInScope(doc('git:docs', 'a.md', { team: 'infra' }), { meta: { team: 'infra' } }), true);
    assert.equal(
      documentInScope(doc('git:docs', 'a.md', { team: ['web', 'infra'] }), { meta: { team: 'infra' } }),
      true,
    );
    assert.equal(documentInScope(doc('git:docs', 'a.md', { tier: 1 }), { meta: { tier: 1 } }), true, 'as text');
    assert.equal(documentInScope(doc('git:docs', 'a.md'), { meta: { team: 'infra' } }), false, 'a missing key');
    assert.equal(documentInScope(doc('git:docs', 'a.md'), { tools: [] }), true, 'no data scope');
    assert.equal(documentInScope(doc('git:docs', 'a.md'), undefined), true);
  });
});

describe('sourceInScope', () => {
  it('matches connector labels by glob or type; no sources field lists every source', () => {
    assert.equal(sourceInScope('git:docs', { sources: ['git:*'] }), true);
    assert.equal(sourceInScope('git:docs', { sources: ['git'] }), true);
    assert.equal(sourceInScope('filesystem:notes', { sources: ['git:*'] }), false);
    assert.equal(sourceInScope('filesystem:notes', { sources: [] }), false);
    assert.equal(sourceInScope('filesystem:notes', { paths: ['public/**'] }), true);
  });
});

describe('empty lists', () => {
  it('admit nothing', () => {
    assert.equal(documentInScope(doc('git:docs', 'a.md'), { paths: [] }), false);
    assert.equal(documentInScope(doc('git:docs', 'a.md'), { sources: [] }), false);
  });
});
