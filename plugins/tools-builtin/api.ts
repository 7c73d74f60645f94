// tools-builtin's contract entry: what the surfaces (rest, mcp-server, web, cli, lua-bridge, store-commands) and the
// library share of the built-in tools' use cases — reading documents, listing sources and stats, their wire shapes
// (ADR 0238) — and the search tool's parameters, which eval and the Lua bridge's `context.search` parse as the tool
// does (ADR 0232). Light: the wire shapes are types-only functions; the rest is required on first call.
import { requireOwn } from '../../core/api/plugin.ts';
import type * as SearchParams from './search-params.ts';
import type * as Since from './since.ts';
import type * as Documents from './documents.ts';
import type * as Sources from './sources.ts';

export {
  chunkToWire,
  citation,
  describeStatus,
  documentToWire,
  searchResponseToWire,
  searchResultToWire,
  sourcesToWire,
  statsToWire,
} from './wire.ts';
export type { SourceRow, SourceStatus, Stats } from './sources.ts';

const own = (): typeof SearchParams => requireOwn<typeof SearchParams>(import.meta.url, './search-params.ts');
const documents = (): typeof Documents => requireOwn<typeof Documents>(import.meta.url, './documents.ts');
const sources = (): typeof Sources => requireOwn<typeof Sources>(import.meta.url, './sources.ts');

/** Validates raw input against the search tool's parameters, then applies the search rules and defaults. */
export const parseSearchParams: typeof SearchParams.parseSearchParams = (...args) => own().parseSearchParams(...args);
/** The search rules for parameters already checked against the tool's spec (`ToolRegistry.call` validates input). */
export const toSearchParams: typeof SearchParams.toSearchParams = (...args) => own().toSearchParams(...args);
/** A `since`/`until` value (date, date-time or duration back from now) as an ISO instant; required on first use. */
export const parseSince: typeof Since.parseSince = (...args) =>
  requireOwn<typeof Since>(import.meta.url, './since.ts').parseSince(...args);

/** The document, or not_found (also for one outside the caller's token scope, ADR 0225). */
export const getDocument: typeof Documents.getDocument = (...args) => documents().getDocument(...args);
/** The document and its chunks (the web page, Lua's `context.get`). */
export const getDocumentWithChunks: typeof Documents.getDocumentWithChunks = (...args) =>
  documents().getDocumentWithChunks(...args);
/** The heads of a listing's page that exist for the caller (MCP `resources/list`). */
export const visibleHeads: typeof Documents.visibleHeads = (...args) => documents().visibleHeads(...args);
/** The document cut to a line range (`get` with `lines`, ADR 0210); bad_request naming `lines`. */
export const documentLines: typeof Documents.documentLines = (...args) => documents().documentLines(...args);

/** Configured and indexed sources, with counts and the last run's status (only those the caller's scope lets in). */
export const listSources: typeof Sources.listSources = (...args) => sources().listSources(...args);
/** The index's counts, sizes and embedding spaces, per source (`kbctx stats`, the web page). */
export const indexStats: typeof Sources.indexStats = (...args) => sources().indexStats(...args);
