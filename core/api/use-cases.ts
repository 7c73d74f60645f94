// The use-cases the surfaces share, a light entry of the public API (ADR 0130): search, documents,
// sources and the wire shapes of every answer. The built-in tools and the
// commands plugins contribute (`kbctx search`, `stats`, …) import this, not the whole API (core/index.ts).
import type * as Documents from '../app/documents.ts';
import { requireOwn } from '../load/require-own.ts';
// Imported on the first `get` (a search does not read whole documents: start-up, ADR 0130); the module is kept, so
// later calls do not go through the loader's resolution again.
let documents: Promise<typeof Documents> | undefined;
const documentsModule = (): Promise<typeof Documents> => (documents ??= import('../app/documents.ts'));
export const getDocument: typeof Documents.getDocument = async (...args) =>
  (await documentsModule()).getDocument(...args);
export const getDocumentWithChunks: typeof Documents.getDocumentWithChunks = async (...args) =>
  (await documentsModule()).getDocumentWithChunks(...args);
export const documentLines: typeof Documents.documentLines = (...args) =>
  requireOwn<typeof Documents>(import.meta.url, '../app/documents.ts').documentLines(...args);
export { parseSearchParams, SEARCH_PARAMS, toSearchParams } from '../app/search-params.ts';
export type { SearchParams } from '../domain/models.ts';
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
export { rejectUnknownParams } from '../tools/unknown-params.ts';
export { validateParams } from '../tools/param-spec.ts';
// A path's problem in words (the commands' helpers, tables and progress lines, are plugins/cli/api.ts's).
export { pathProblem } from '../domain/path-problem.ts';
// A hit's `path:12-48` (the CLI's results, the web page).
export { citation } from '../domain/line-ranges.ts';
