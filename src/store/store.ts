// The index contract. One implementation today (sqlite/); the contract tests in store.contract.ts
// run against any implementation. All methods are synchronous: SQLite answers in microseconds and an
// async API would only add scheduling cost to every search.
import type { Chunk, Document, SourceStats } from '../core/models.ts';
import type { QueryTerm } from '../core/search/analyze-query.ts';

/** What sync needs to know about a stored document to decide whether to touch it. */
export interface DocumentState {
  id: string;
  sourceId: string;
  /** Cheap change token from the connector (size+mtime, blob sha, ETag); null when none. */
  fingerprint: string | null;
  contentHash: string;
}

export interface StoredDocument extends Document {
  /** The connector instance (`<type>:<name>`) that owns the document. */
  connector: string;
}

export interface SourceFilter {
  /** A label (`git:docs`) or a type (`git`). */
  source: string;
}

export interface KeywordQuery {
  terms: readonly QueryTerm[];
  /** Number of documents wanted. */
  limit: number;
  /** Chunk candidates fetched before grouping per document (more are fetched when grouping leaves too few). */
  candidateK: number;
  filter?: SourceFilter | undefined;
}

/** The fields of a document a search result shows (no body: results never need it). */
export type DocumentHead = Pick<StoredDocument, 'id' | 'source' | 'connector' | 'sourceId' | 'sourceUrl' | 'title' | 'updatedAt'>;

export interface KeywordHit {
  document: DocumentHead;
  chunk: Chunk;
  /** Positive BM25 of the best chunk. */
  raw: number;
  /** raw scaled to [0, 1] (see core/search/bm25-normalize.ts). */
  score: number;
}

export interface KeywordResult {
  hits: KeywordHit[];
  /** Terms actually sent to the index (very common terms may be left out). */
  matchedTerms: readonly QueryTerm[];
  candidateCount: number;
}

export interface UpsertOutcome {
  chunksWritten: number;
  chunksDeleted: number;
}

export interface StoreCounts {
  documents: number;
  chunks: number;
  embedded: number;
}

export interface SourceState {
  checkpoint: string | null;
  lastSyncAt: string | null;
}

export interface Store {
  readonly path: string;

  /** Stored documents of one connector, keyed by document id. */
  documentStates(connector: string): Map<string, DocumentState>;
  /**
   * Writes a document and its chunks in one transaction: chunks whose id is unchanged are kept
   * (their embeddings too), new ones inserted, missing ones deleted. Idempotent.
   */
  upsertDocument(doc: StoredDocument, chunks: readonly Chunk[], fingerprint: string | null): UpsertOutcome;
  /** Records a new fingerprint for a document whose content is unchanged. */
  touchDocument(id: string, fingerprint: string | null): void;
  /** Deletes documents (chunks, index rows and embeddings with them). Returns how many existed. */
  deleteDocuments(ids: readonly string[]): number;

  /**
   * Bulk mode (nestable): writes are grouped into fewer commits until the matching endBulk().
   * Each write stays atomic on its own; a crash loses at most the last uncommitted group.
   */
  beginBulk(): void;
  endBulk(): void;

  /**
   * Tidies the keyword index after bulk writes (merges FTS segments: fewer to read per query term).
   * Bounded work on very large indexes. Safe to call any time; readers are never blocked (WAL).
   */
  compact(): void;

  sourceState(connector: string): SourceState;
  setSourceState(connector: string, state: SourceState): void;

  getDocument(id: string): StoredDocument | null;
  getChunks(documentId: string): Chunk[];
  keywordSearch(query: KeywordQuery): KeywordResult;

  /** Changes whenever the index may have changed, through this connection or any other (another process). */
  generation(): string;

  sources(): SourceStats[];
  counts(): StoreCounts;
  /** Database size on disk in bytes (main file plus WAL). */
  sizeBytes(): number;
  /** Every document and chunk, in a stable order. */
  exportAll(): { documents: StoredDocument[]; chunks: Chunk[] };

  close(): void;
}
