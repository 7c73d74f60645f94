// The use-cases the surfaces share, a light entry of the public API (ADR 0130): search, documents,
// sources and their wire shapes, and the CLI's helpers (tables, progress). The built-in tools and the
// commands plugins contribute (`kbctx search`, `stats`, …) import this, not the whole API (core/index.ts).
export { exportJsonPieces, getDocument, getDocumentWithChunks } from '../app/documents.ts';
export { parseSearchParams, SEARCH_PARAMS, toSearchParams, type SearchParams } from '../app/search-params.ts';
export { search } from '../app/search.ts';
export type { SearchDeps, SearchResponse } from '../app/search.ts';
export { describeStatus, indexStats, listSources, type SourceRow, type Stats } from '../app/sources.ts';
export { chunkToWire, documentToWire, searchResponseToWire, searchResultToWire, sourcesToWire, statsToWire } from '../app/wire.ts';
export { rejectUnknownParams } from '../tools/unknown-params.ts';
export { validateParams } from '../tools/param-spec.ts';
// The CLI's helpers for the commands plugins add: tables, progress lines, a path's problem in words.
export { formatBytes, formatTable } from '../cli/table.ts';
export { createProgress, progressEveryMs } from '../cli/progress.ts';
export { pathProblem } from '../domain/path-problem.ts';
