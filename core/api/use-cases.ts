// The use-cases the surfaces share, a light entry of the public API (ADR 0130): search and its cache's contract, the
// request origin and a token's scope. The built-in tools' answers — documents, sources, stats and their wire shapes —
// are tools-builtin's (its api.ts, ADR 0238); a sync report's the cli plugin's (sync-wire.ts, ADR 0251). The commands
// plugins contribute import this, not the whole API (core/index.ts).
import type * as ScopeFilter from '../search/scope-filter.ts';
import { requireOwn } from '../load/require-own.ts';
// A token's scope on one source or document; loaded only when asked (start-up).
const scopeFilters = (): typeof ScopeFilter =>
  requireOwn<typeof ScopeFilter>(import.meta.url, '../search/scope-filter.ts');
export const sourceInScope: typeof ScopeFilter.sourceInScope = (...args) => scopeFilters().sourceInScope(...args);
export const documentInScope: typeof ScopeFilter.documentInScope = (...args) => scopeFilters().documentInScope(...args);
// The search tool's parameters (`parseSearchParams`, `SEARCH_PARAMS`) are tools-builtin's (its api.ts; ADR 0232).
export { SEARCH_MODES, type SearchMode, type SearchParams, type SearchResult } from '../domain/models.ts';
export { search } from '../app/search.ts';
export { requestOrigin, withRequestOrigin, type RequestOrigin, type Surface } from '../app/request-origin.ts';
export type { SearchCache, SearchDeps, SearchResponse } from '../app/search.ts';
// A path's problem in words (the commands' helpers, tables and progress lines, are plugins/cli/api.ts's).
export { pathProblem } from '../domain/path-problem.ts';
// A body's line offsets (tools-builtin's `get` with `lines`; citing a hit and reading a range are its own, ADR 0249).
export { lineStarts } from '../domain/line-ranges.ts';
