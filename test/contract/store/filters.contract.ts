// Store contract: the search filters of ADR 0213 (several sources, until, path globs, lang, type, tags
// any/all, meta equality and `in`) applied inside keyword and vector candidate retrieval: with
// candidateK = limit and a crowd of stronger documents outside the filter (filter-corpus.ts), a filter applied
// after the cut would return nothing, so `limit` hits back prove it is applied before.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seedFilterCorpus } from './filter-corpus.ts';
import { withStore, type OpenStore } from './fixtures.ts';

export function filterCases(open: OpenStore): void {
  describe('search filters (before the cut)', () => {
    it('keyword: path, lang, type, tags, tags_all, meta, several sources and until', () =>
      withStore(open, async (store) => {
        const { keyword, all } = await seedFilterCorpus(store);
        assert.equal((await keyword({}, 3)).filter((k) => k.startsWith('n')).length, 3, 'the crowd ranks first');

        assert.deepEqual(await all({ path: ['docs/**'] }), ['a', 'b', 'd']);
        assert.deepEqual(await all({ path: ['docs/**', '!**/*.test.ts'] }), ['a', 'd'], 'an exclude');
        assert.deepEqual(await all({ path: ['!notes/**'] }), ['a', 'b', 'c', 'd', 'e'], 'only an exclude');
        assert.deepEqual(await all({ path: ['https://github.com/**'] }), ['d'], 'a web URL');
        assert.deepEqual(await all({ path: ['s3://bucket/reports/**'] }), ['e'], 'an s3 URL');
        assert.deepEqual(await all({ path: ['/home/me/**', '**/home/**'] }), [], 'file:// URLs are not matched');
        assert.deepEqual(await all({ lang: ['python'] }), ['c']);
        assert.deepEqual(await all({ lang: ['typescript', 'python'] }), ['b', 'c']);
        assert.deepEqual(await all({ type: ['pdf'] }), ['d'], 'a subtype');
        assert.deepEqual(await all({ type: ['text/plain', 'text/x-python'] }), ['b', 'c'], 'parameters ignored');
        assert.deepEqual(await all({ tags: ['ops'] }), ['a', 'b'], 'case-insensitive; a comma-separated string');
        assert.deepEqual(await all({ tags: ['db', 'nope'] }), ['b', 'c'], 'any of');
        assert.deepEqual(await all({ tagsAll: ['ops', 'db'] }), ['b'], 'all of');
        assert.deepEqual(await all({ tags: ['ops'], tagsAll: ['infra', 'ops'] }), ['a']);
        assert.deepEqual(await all({ meta: { team: ['infra'] } }), ['a', 'b', 'c'], 'a list value holds one');
        assert.deepEqual(await all({ meta: { team: ['data'] } }), ['c']);
        assert.deepEqual(await all({ meta: { tier: ['1'] } }), ['a'], 'a number compared as text');
        assert.deepEqual(await all({ meta: { team: ['infra'], tier: ['2', '3'] } }), ['b'], 'every key holds');
        assert.deepEqual(await all({ meta: { draft: ['false'] } }), ['c'], 'a boolean compared as text');
        assert.deepEqual(await all({ meta: { owner: ['x'] } }), [], 'a missing key never holds');
        assert.deepEqual(await all({ source: ['git:docs', 's3'] }), ['d', 'e'], 'several sources: any of');
        assert.deepEqual(await all({ since: '2026-02-01T00:00:00.000Z', until: '2026-03-01T00:00:00.000Z' }), ['a']);
        assert.deepEqual(await all({ until: '2026-01-15T10:00:00.000Z', path: ['docs/**'] }), [], 'until excludes');
        assert.deepEqual(await all({ path: ['docs/**'], lang: ['markdown'], source: 'filesystem' }), ['a']);

        // limit respected: the crowd outranks every match, and candidateK is the limit.
        const two = await keyword({ meta: { team: ['infra'] } }, 2);
        assert.equal(two.length, 2);
        assert.ok(
          two.every((k) => ['a', 'b', 'c'].includes(k)),
          two.join(),
        );
        const one = await keyword({ path: ['!notes/**'] }, 1);
        assert.equal(one.length, 1);
      }));

    it('vector: the same filters before the cut, limit respected', () =>
      withStore(open, async (store) => {
        const { vector } = await seedFilterCorpus(store, { embedded: true });
        const two = await vector({ tags: ['db', 'ops'] }, 2);
        assert.deepEqual(two.sort(), ['a', 'b', 'c'].filter((k) => two.includes(k)).sort());
        assert.equal(two.length, 2);
        assert.deepEqual((await vector({ path: ['docs/**', '!**/*.test.ts'], type: ['pdf'] }, 5)).sort(), ['d']);
        assert.deepEqual((await vector({ meta: { team: ['data'] }, lang: ['python'] }, 5)).sort(), ['c']);
      }));
  });
}
