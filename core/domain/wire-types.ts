// The JSON shapes the library answers with: the REST bodies of SPEC §4 as TypeScript types, for
// callers. Produced by tools-builtin's wire.ts (plugins/tools-builtin/wire.ts); these types only describe them.

export interface SearchHit {
  id: string;
  score: number;
  title: string;
  source: string;
  source_id: string;
  source_url: string | null;
  updated_at: string;
  snippet: string;
  /** The matched chunk's 1-based, inclusive lines in the document (null: unknown; a sync fills them in). */
  line_start: number | null;
  line_end: number | null;
  /** The matched chunk's symbol path (`ClassName.method`) and language, from a code chunker; null otherwise. */
  symbol: string | null;
  lang: string | null;
  /** With `explain: true`. */
  explain?: {
    keyword_score: number | null;
    semantic_score: number | null;
    hybrid_score: number;
    chunk_id: string;
    chunk_index: number;
    /** With a reranker: the 1-based rank before reranking, its score, and why it kept the fused order. */
    fused_rank?: number;
    rerank_score?: number | null;
    rerank_note?: string;
  };
}

export interface SearchOutput {
  results: SearchHit[];
  /** With `explain: true`. */
  explain?: {
    mode: string;
    alpha: number | null;
    keyword_candidates: number;
    vector_candidates: number;
    terms: string[];
  };
}

export interface KbctxDocument {
  id: string;
  source: string;
  source_id: string;
  source_url: string | null;
  title: string;
  body: string;
  updated_at: string;
  content_type: string;
  metadata: Record<string, unknown>;
  /** Context Harness's fields: `metadata.created_at` or `updated_at`; `metadata.author` when a string. */
  created_at: string;
  author?: string;
  /** With `lines`: the lines `body` holds (1-based, inclusive; the end capped at the document's last line). */
  line_start?: number;
  line_end?: number;
}

export interface SourceInfo {
  source: string;
  document_count: number;
  chunk_count: number;
  /** `failed`: the last sync run stopped as a whole; `errors`: it could not read some items (see last_run). */
  status: 'ok' | 'not synced' | 'failed' | 'errors';
  /** How the last sync run ended; null when none is recorded. */
  last_run: { ended_at: string; errors: number; failure: string | null } | null;
  /** Context Harness's fields: `name` is `source`; `healthy` is configured and neither failed nor with errors. */
  name: string;
  configured: boolean;
  healthy: boolean;
  notes?: string;
}
