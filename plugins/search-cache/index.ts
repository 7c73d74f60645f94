// First-party plugin: the search cache (ADR 0197, 0251) — an LRU of search responses, `[retrieval] cache_size` entries,
// each valid for the index generation it was computed on. Provided as the `kbctx.search-cache` service the engine's
// search reads; dropped ("!search-cache"), every search runs the store (and the `rank` taps) again.
import { definePlugin, requireOwn, searchCacheService } from '../../core/api/plugin.ts';
// Required when the index host first builds its search dependencies, not with this index (ADR 0130).
import type * as Lru from './lru-search-cache.ts';

const plugin = definePlugin({
  name: 'search-cache',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['service:kbctx.search-cache'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.provide(searchCacheService, {
      createCache: (capacity) =>
        new (requireOwn<typeof Lru>(import.meta.url, './lru-search-cache.ts').LruSearchCache)(capacity),
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
