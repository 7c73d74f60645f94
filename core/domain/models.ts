// Domain records shared by every layer. Field names are camelCase here; wire names (snake_case)
// are produced only at the surfaces (see plugins/tools-builtin/wire.ts).
import type { SourceFilter } from '../store/store.ts';

/** One item as a connector delivers it, before normalisation. */
export interface SourceItem {
  sourceId: string;
  title?: string | undefined;
  body: string;
  sourceUrl?: string | undefined;
  /** ISO 8601 UTC. */
  updatedAt?: string | undefined;
  contentType?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

export interface Document {
  id: string;
  source: string;
  sourceId: string;
  sourceUrl: string | null;
  title: string;
  body: string;
  contentType: string;
  metadata: Record<string, unknown>;
  updatedAt: string;
  contentHash: string;
}

export interface Chunk {
  id: string;
  documentId: string;
  chunkIndex: number;
  text: string;
  contentHash: string;
  /** 1-based, inclusive lines of the document body the chunk came from; null (or absent) when unknown. */
  lineStart?: number | null | undefined;
  lineEnd?: number | null | undefined;
  /** The symbol path a code chunker gave the chunk (`ClassName.method`); null when none. */
  symbol?: string | null | undefined;
  /** The chunk's language (`typescript`); null when none. */
  lang?: string | null | undefined;
}

/** A chunk under the snake_case names the stores give its columns (SQLite, PostgreSQL and its read mirror alike). */
export interface ChunkRecord {
  id: string;
  document_id: string;
  chunk_index: number;
  text: string;
  content_hash: string;
  line_start: number | null;
  line_end: number | null;
  symbol: string | null;
  lang: string | null;
}

export const chunkFromRecord = (row: ChunkRecord): Chunk => ({
  id: row.id,
  documentId: row.document_id,
  chunkIndex: row.chunk_index,
  text: row.text,
  contentHash: row.content_hash,
  lineStart: row.line_start,
  lineEnd: row.line_end,
  symbol: row.symbol,
  lang: row.lang,
});

export type SearchMode = 'keyword' | 'semantic' | 'hybrid';
export const SEARCH_MODES: readonly SearchMode[] = ['keyword', 'semantic', 'hybrid'];

/** A search as the engine runs it: checked, defaults applied (the search tool's parameters, app/search-params.ts). */
export interface SearchParams {
  query: string;
  mode: SearchMode;
  limit: number;
  /** The source when one is given (`query` taps may set or clear it; several sources live in `filter.source`). */
  source: string | undefined;
  /** ISO 8601 instant (resolved from a date or a duration): only documents updated at or after it. */
  since?: string | undefined;
  /**
   * Everything that scopes the search (source, since, until, path, lang, type, tags, meta), instants resolved;
   * undefined when nothing does. `source` and `since` above win over theirs here (app/search.ts searchFilter), so a
   * tap that edits them is obeyed. Applied inside the store's candidate retrieval (ADR 0213).
   */
  filter?: SourceFilter | undefined;
  explain: boolean;
  /** False: a reranker (the `rerank` plugin) leaves this search in its fused order; undefined: as configured. */
  rerank?: boolean | undefined;
}

export interface SearchResult {
  id: string;
  source: string;
  sourceId: string;
  title: string;
  score: number;
  snippet: string;
  sourceUrl: string | null;
  updatedAt: string;
  /** The matched chunk's 1-based, inclusive lines in the document (null: unknown, e.g. not synced since lines came). */
  lineStart?: number | null | undefined;
  lineEnd?: number | null | undefined;
  /** The matched chunk's symbol path and language, from a code chunker (null: none). */
  symbol?: string | null | undefined;
  lang?: string | null | undefined;
  /** The full text of the chunk that matched, for `rank` taps (a reranker); never part of the wire output. */
  chunkText?: string | undefined;
  explain?: SearchExplain | undefined;
}

export interface SearchExplain {
  keywordScore: number | null;
  semanticScore: number | null;
  hybridScore: number;
  chunkId: string;
  chunkIndex: number;
  /** Set by a reranker: the 1-based rank in the fused order, before reranking. */
  fusedRank?: number | undefined;
  /** Set by a reranker: its score for this hit (null when it did not score it: past `candidates`, or failed open). */
  rerankScore?: number | null | undefined;
  /** Set by a reranker that failed open: why the fused order was kept. */
  rerankNote?: string | undefined;
}

export interface SourceStats {
  source: string;
  documentCount: number;
  chunkCount: number;
  embeddedCount: number;
  lastSyncAt: string | null;
}
