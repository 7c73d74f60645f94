// The `searched` hook's value (ADR 0220): one search that answered, as observers (the query log, metrics) see it.
// Types only: nothing here runs.
import type { RequestOrigin } from '../app/request-origin.ts';
import type { SearchParams, SearchResult } from './models.ts';

/**
 * What a `searched` tap receives once per search that answered (ADR 0220): the request after the `query` taps, the
 * page as returned (scores in [0, 1], best first), the time the whole search took (ms, `query` and `rank` taps
 * included) and who asked (`surface`, `token`'s name; absent: unknown). Read-only: a tap observes, it changes nothing.
 */
export interface SearchRecord {
  request: SearchParams;
  results: readonly SearchResult[];
  latencyMs: number;
  origin: RequestOrigin;
}
