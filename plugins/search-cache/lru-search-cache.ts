// The search-cache plugin's cache: a small LRU of search responses, valid only for the index generation they were
// computed on: any write to the index (by this process or another: see Store.generation) makes every entry stale. It
// holds the engine's candidates and, when the `rank` taps allow it, ranked pages (ADR 0197). Never mutates a response.
import { searchFilter } from '../../core/api/algorithms.ts';
import type { RetrievalConfig, SourceFilter } from '../../core/api/plugin.ts';
import type { SearchCache, SearchParams, SearchResponse } from '../../core/api/use-cases.ts';

export class LruSearchCache implements SearchCache {
  private readonly capacity: number;
  private readonly entries = new Map<string, { generation: string; response: SearchResponse }>();
  hits = 0;
  misses = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /**
   * Everything that shapes a response: the parameters and the retrieval settings in force; with `rankParts` (the `rank`
   * taps' parts, Pipeline.rankCacheKey) a ranked page's, never equal to one without.
   */
  key(params: SearchParams, retrieval: RetrievalConfig, rankParts?: string): string {
    const { hybridAlpha, fusion, candidateKKeyword, candidateKVector, maxLimit } = retrieval;
    const key = JSON.stringify([
      params.mode,
      params.query,
      params.limit,
      filterKey(searchFilter(params)),
      params.explain,
      hybridAlpha,
      fusion,
      candidateKKeyword,
      candidateKVector,
      maxLimit,
    ]);
    return rankParts === undefined ? key : JSON.stringify(['ranked', key, rankParts]);
  }

  get(key: string, generation: string): SearchResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.generation !== generation) {
      this.misses++;
      return undefined;
    }
    this.entries.delete(key); // re-insert: Map order is the LRU order
    this.entries.set(key, entry);
    this.hits++;
    return entry.response;
  }

  set(key: string, generation: string, response: SearchResponse): void {
    if (this.capacity <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { generation, response });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** The filter in a fixed field order (the parser builds it in one order, but a query tap may rebuild it). */
function filterKey(filter: SourceFilter | undefined): unknown {
  if (filter === undefined) return null;
  const { source, since, until, path, lang, type, tags, tagsAll, meta, scope } = filter;
  const sorted =
    meta === undefined
      ? null
      : Object.keys(meta)
          .sort()
          .map((k) => [k, meta[k]]);
  return [
    source ?? null,
    since ?? null,
    until ?? null,
    path ?? null,
    lang ?? null,
    type ?? null,
    tags ?? null,
    tagsAll ?? null,
    sorted,
    // Two tokens never share a page: scope-filter.ts builds the scope in one order (meta keys sorted).
    scope ?? null,
  ];
}
