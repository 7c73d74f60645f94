// The use-cases the surfaces share, a light entry of the public API (ADR 0130): search, documents,
// sources and the wire shapes of every answer. The built-in tools and the
// commands plugins contribute (`kbctx search`, `stats`, …) import this, not the whole API (core/index.ts).
import type * as Documents from '../app/documents.ts';
import type * as ScopeFilter from '../search/scope-filter.ts';
import { requireOwn } from '../load/require-own.ts';
// Imported on the first `get` (a search does not read whole documents: start-up, ADR 0130); the module is kept, so
// later calls do not go through the loader's resolution again.
let documents: Promise<typeof Documents> | undefined;
const documentsModule = (): Promise<typeof Documents> => (documents ??= import('../app/documents.ts'));
export const getDocument: typeof Documents.getDocument = async (...args) =>
  (await documentsModule()).getDocument(...args);
export const getDocumentWithChunks: typeof Documents.getDocumentWithChunks = async (...args) =>
  (await documentsModule()).getDocumentWithChunks(...args);
export const visibleHeads: typeof Documents.visibleHeads = async (...args) =>
  (await documentsModule()).visibleHeads(...args);
// A token's scope on one source (the MCP listen streams' notifications); loaded only when asked (start-up).
const scopeFilters = (): typeof ScopeFilter =>
  requireOwn<typeof ScopeFilter>(import.meta.url, '../search/scope-filter.ts');
export const sourceInScope: typeof ScopeFilter.sourceInScope = (...args) => scopeFilters().sourceInScope(...args);
// A token's broken scope glob, for `[server.tokens.<name>]`'s reader (ADR 0225).
export const scopeProblem: typeof ScopeFilter.scopeProblem = (...args) => scopeFilters().scopeProblem(...args);
export const documentLines: typeof Documents.documentLines = (...args) =>
  requireOwn<typeof Documents>(import.meta.url, '../app/documents.ts').documentLines(...args);
// The search tool's parameters (`parseSearchParams`, `SEARCH_PARAMS`) are tools-builtin's (its api.ts; ADR 0232).
export { SEARCH_MODES, type SearchMode, type SearchParams } from '../domain/models.ts';
export { search } from '../app/search.ts';
export { requestOrigin, withRequestOrigin, type RequestOrigin, type Surface } from '../app/request-origin.ts';
export type { SearchDeps, SearchResponse } from '../app/search.ts';
export { describeStatus, indexStats, listSources, type SourceRow, type Stats } from '../app/sources.ts';
export {
  agentsToWire,
  chunkToWire,
  documentToWire,
  searchResponseToWire,
  searchResultToWire,
  sourcesToWire,
  statsToWire,
  syncReportToWire,
  toolsToWire,
} from '../app/wire.ts';
export { validateParams } from '../tools/param-spec.ts';
// A path's problem in words (the commands' helpers, tables and progress lines, are plugins/cli/api.ts's).
export { pathProblem } from '../domain/path-problem.ts';
// A hit's `path:12-48` (the CLI's results, the web page).
export { citation } from '../domain/line-ranges.ts';
