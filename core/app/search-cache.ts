// A small LRU of search responses, valid only for the index generation they were computed on: any
// write to the index (by this process or another: see Store.generation) makes every entry stale. It holds
// the engine's candidates (key) and, when the `rank` taps allow it, ranked pages (rankedKey, ADR 0197).
import type { RetrievalConfig } from '../config/types.ts';
import type { SearchParams } from '../domain/models.ts';
import type { SourceFilter } from '../store/store.ts';
import type { SearchResponse } from './search.ts';
import { searchFilter } from '../search/document-filter.ts';

export class SearchCache {
  private readonly capacity: number;
  private readonly entries = new Map<string, { generation: string; response: SearchResponse }>();
  hits = 0;
  misses = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Everything that shapes a response: the parameters and the retrieval settings in force. */
  static key(params: SearchParams, retrieval: RetrievalConfig): string {
    const { hybridAlpha, fusion, candidateKKeyword, candidateKVector, maxLimit } = retrieval;
    return JSON.stringify([
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
  }

  /** A ranked page: the search's key plus the `rank` taps' parts (Pipeline.rankCacheKey), never equal to a key(). */
  static rankedKey(params: SearchParams, retrieval: RetrievalConfig, rankParts: string): string {
    return JSON.stringify(['ranked', SearchCache.key(params, retrieval), rankParts]);
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
