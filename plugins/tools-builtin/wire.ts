// The built-in tools' answers in the contract's JSON names (snake_case, SPEC §1, §3, §4, §6): documents, chunks,
// search hits, sources and stats. Every surface serialises through these functions, so field names cannot drift
// between them. Light (types only): tools-builtin's contract entry re-exports it as it is.
import type {
  Chunk,
  KbctxDocument,
  SearchHit,
  SearchOutput,
  SourceInfo,
  StoredDocument,
} from '../../core/api/plugin.ts';
import type { SearchResponse, SearchResult } from '../../core/api/use-cases.ts';
import type { SourceRow, Stats } from './sources.ts';

export function documentToWire(doc: StoredDocument): KbctxDocument {
  return {
    id: doc.id,
    source: doc.source,
    source_id: doc.sourceId,
    source_url: doc.sourceUrl,
    title: doc.title,
    body: doc.body,
    updated_at: doc.updatedAt,
    content_type: doc.contentType,
    metadata: doc.metadata,
    // Context Harness's document fields, so its scripts and clients never read nil.
    created_at: typeof doc.metadata['created_at'] === 'string' ? doc.metadata['created_at'] : doc.updatedAt,
    ...(typeof doc.metadata['author'] === 'string' ? { author: doc.metadata['author'] } : {}),
  };
}

export function chunkToWire(chunk: Chunk): Record<string, unknown> {
  return {
    id: chunk.id,
    document_id: chunk.documentId,
    chunk_index: chunk.chunkIndex,
    text: chunk.text,
    ...placeToWire(chunk),
  };
}

/** A chunk's (or a hit's) lines, symbol and language as the wire names them; null when unknown (ADR 0210). */
function placeToWire(
  c: Pick<Chunk, 'lineStart' | 'lineEnd' | 'symbol' | 'lang'>,
): Pick<SearchHit, 'line_start' | 'line_end' | 'symbol' | 'lang'> {
  return {
    line_start: c.lineStart ?? null,
    line_end: c.lineEnd ?? null,
    symbol: c.symbol ?? null,
    lang: c.lang ?? null,
  };
}

export function searchResultToWire(r: SearchResult): SearchHit {
  return {
    id: r.id,
    source: r.source,
    source_id: r.sourceId,
    title: r.title,
    score: r.score,
    snippet: r.snippet,
    source_url: r.sourceUrl,
    updated_at: r.updatedAt,
    ...placeToWire(r),
    ...(r.explain
      ? {
          explain: {
            keyword_score: r.explain.keywordScore,
            semantic_score: r.explain.semanticScore,
            hybrid_score: r.explain.hybridScore,
            chunk_id: r.explain.chunkId,
            chunk_index: r.explain.chunkIndex,
            ...(r.explain.fusedRank === undefined ? {} : { fused_rank: r.explain.fusedRank }),
            ...(r.explain.rerankScore === undefined ? {} : { rerank_score: r.explain.rerankScore }),
            ...(r.explain.rerankNote === undefined ? {} : { rerank_note: r.explain.rerankNote }),
          },
        }
      : {}),
  };
}

export function searchResponseToWire(response: SearchResponse, explain: boolean): SearchOutput {
  return {
    results: response.results.map(searchResultToWire),
    ...(explain
      ? {
          explain: {
            mode: response.explain.mode,
            alpha: response.explain.alpha,
            keyword_candidates: response.explain.keywordCandidates,
            vector_candidates: response.explain.vectorCandidates,
            terms: response.explain.terms,
          },
        }
      : {}),
  };
}

export function sourcesToWire(rows: readonly SourceRow[]): { sources: SourceInfo[] } {
  return {
    sources: rows.map((s) => ({
      source: s.source,
      document_count: s.documentCount,
      chunk_count: s.chunkCount,
      status: s.status,
      last_run: s.lastRun
        ? { ended_at: s.lastRun.endedAt, errors: s.lastRun.errors, failure: s.lastRun.failure }
        : null,
      // Context Harness's source fields (name, configured, healthy, notes), for its scripts and clients.
      name: s.source,
      configured: s.configured,
      healthy: s.configured && s.status !== 'failed' && s.status !== 'errors',
      ...sourceNotes(s),
    })),
  };
}

function sourceNotes(s: SourceRow): { notes?: string } {
  if (!s.configured) return { notes: 'no longer configured; its documents stay searchable until removed' };
  if (s.status === 'not synced') return { notes: 'configured, not synced yet' };
  if (s.status === 'failed' || s.status === 'errors') return { notes: `last sync ${describeStatus(s)}` };
  return {};
}

export function statsToWire(stats: Stats): Record<string, unknown> {
  return {
    db_path: stats.dbPath,
    db_size_bytes: stats.dbSizeBytes,
    documents: stats.counts.documents,
    chunks: stats.counts.chunks,
    embedded_chunks: stats.counts.embedded,
    embedded_percent: stats.embeddedPercent,
    sources: stats.sources.map((s) => ({
      source: s.source,
      documents: s.documentCount,
      chunks: s.chunkCount,
      embedded: s.embeddedCount,
      last_sync: s.lastSyncAt,
      status: s.status,
      last_run: s.lastRun
        ? { ended_at: s.lastRun.endedAt, errors: s.lastRun.errors, failure: s.lastRun.failure }
        : null,
    })),
    embeddings: stats.embeddings.map((e) => ({ model: e.model, dims: e.dims, count: e.count, current: e.current })),
  };
}

/** The status in words: `ok`, `not synced`, `failed: <why>`, `2 errors`. */
export function describeStatus(row: Pick<SourceRow, 'status' | 'lastRun'>): string {
  if (row.status === 'failed') return `failed: ${row.lastRun?.failure ?? 'unknown'}`;
  if (row.status === 'errors') return `${row.lastRun?.errors} error${row.lastRun?.errors === 1 ? '' : 's'}`;
  return row.status;
}

/**
 * Where a hit is, as `path:12-48` (`path:12` for one line; just the path when the lines are unknown): the path is
 * the document's file path for a `file:` URL, else its URL, else its source id.
 */
export function citation(hit: {
  sourceUrl: string | null;
  sourceId: string;
  lineStart?: number | null | undefined;
  lineEnd?: number | null | undefined;
}): string {
  const url = hit.sourceUrl;
  const where =
    url === null ? hit.sourceId : url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const { lineStart: start, lineEnd: end } = hit;
  if (start == null) return where;
  return end == null || end === start ? `${where}:${start}` : `${where}:${start}-${end}`;
}
