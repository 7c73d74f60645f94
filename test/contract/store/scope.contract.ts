// Store contract: a token's data scope (SourceFilter.scope, ADR 0225) applied inside keyword and vector candidate
// retrieval, ANDed with the caller's own filter. The corpus's crowd outranks every other document, so `limit` hits
// back prove the scope is applied before the cut; the intersections prove a filter narrows the scope, never widens it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seedFilterCorpus } from './filter-corpus.ts';
import { withStore, type OpenStore } from './fixtures.ts';

export function scopeCases(open: OpenStore): void {
  describe('a token scope (before the cut, ANDed with the filter)', () => {
    it('keyword: sources globs and types, path globs, meta pairs; intersections; limit filled', () =>
      withStore(open, async (store) => {
        const { keyword, all } = await seedFilterCorpus(store);

        assert.deepEqual(await all({ scope: { sources: ['git:*'] } }), ['d'], 'a glob on the connector');
        assert.deepEqual(await all({ scope: { sources: ['git:*', 's3'] } }), ['d', 'e'], 'a glob or a type');
        assert.deepEqual(await all({ scope: { sources: [] } }), [], 'no sources: nothing');
        assert.deepEqual(await all({ scope: { sources: ['git:*'] }, source: 'filesystem' }), [], 'never widened');
        assert.deepEqual(await all({ scope: { sources: ['git:*', 's3'] }, source: ['s3'] }), ['e'], 'narrowed');
        // Two include sets: both must hold (one list would take either).
        assert.deepEqual(await all({ scope: { paths: ['docs/**'] }, path: ['**/*.md'] }), ['a']);
        assert.deepEqual(await all({ scope: { paths: ['docs/**', '!**/*.pdf'] }, path: ['!**/*.test.ts'] }), ['a']);
        assert.deepEqual(await all({ scope: { paths: ['!notes/**'] }, path: ['notes/**'] }), [], 'an exclude holds');
        // Meta pairs are ANDed, not intersected as value sets: c's team list holds both.
        assert.deepEqual(await all({ scope: { meta: { team: 'infra' } }, meta: { team: ['data'] } }), ['c']);
        assert.deepEqual(await all({ scope: { meta: { team: 'infra', tier: '1' } } }), ['a'], 'every pair');
        assert.deepEqual(await all({ scope: { meta: { team: 'nope' } }, meta: { team: ['nope', 'infra'] } }), []);
        assert.deepEqual(
          await all({ scope: { sources: ['filesystem:*'], paths: ['docs/**'], meta: { team: 'infra' } } }),
          ['a', 'b'],
        );

        const two = await keyword({ scope: { paths: ['!notes/**'] } }, 2);
        assert.equal(two.length, 2, 'limit filled from what the scope lets through');
        assert.ok(
          two.every((k) => ['a', 'b', 'c', 'd', 'e'].includes(k)),
          two.join(),
        );
      }));

    it('vector: the scope before the cut, limit filled', () =>
      withStore(open, async (store) => {
        const seeded = await seedFilterCorpus(store, { embedded: true });
        const vector = async (...args: Parameters<typeof seeded.vector>): Promise<string[]> =>
          (await seeded.vector(...args)).sort();
        assert.deepEqual(await vector({ scope: { sources: ['filesystem'], paths: ['docs/**'] } }, 2), ['a', 'b']);
        assert.deepEqual(await vector({ scope: { sources: ['git:*', 's3:*'] } }, 5), ['d', 'e']);
        assert.deepEqual(await vector({ scope: { meta: { team: 'infra' } }, lang: ['python'] }, 5), ['c']);
        assert.deepEqual(await vector({ scope: { sources: ['git:*'] }, source: 's3' }, 5), []);
      }));
  });
}
