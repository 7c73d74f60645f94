// A small LRU of search responses, valid only for the index generation they were computed on: any
// write to the index (by this process or another: see Store.generation) makes every entry stale. It holds
// the engine's candidates (key) and, when the `rank` taps allow it, ranked pages (rankedKey, ADR 0197).
import type { RetrievalConfig } from '../config/types.ts';
import type { SearchParams } from '../domain/models.ts';
import type { SearchResponse } from './search.ts';

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
      params.source ?? null,
      params.since ?? null,
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
