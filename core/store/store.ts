// The index contract. Two implementations: sqlite/ (the embedded default) and postgres/ (shared by
// replicas); the contract suite in store.contract.ts runs against both. Every data method is
// asynchronous (ADR 0110): a network engine cannot answer synchronously. generation() stays
// synchronous: it must be a cheap local read, asked before every cached search.
import type { Chunk, Document, SourceStats } from '../domain/models.ts';
import type { QueryTerm } from '../search/analyze-query.ts';

/** What sync needs to know about a stored document to decide whether to touch it. */
export interface DocumentState {
  id: string;
  /** The document's source label (usually the connector label; script items may override it). */
  source: string;
  sourceId: string;
  /** Cheap change token from the connector (size+mtime, blob sha, ETag); null when none. */
  fingerprint: string | null;
  contentHash: string;
}

export interface StoredDocument extends Document {
  /** The connector instance (`<type>:<name>`) that owns the document. */
  connector: string;
}

/**
 * Restricts search candidates inside retrieval (before the cut, so `limit` hits come back when that many
 * match). Every field is optional; all set fields must hold (ADR 0213). The document-level fields (path,
 * lang, type, tags, tagsAll, meta) are decided by core/search/document-filter.ts, the one reference
 * implementation every store calls or mirrors.
 */
export interface SourceFilter {
  /** Labels (`git:docs`) or types (`git`): any of them. */
  source?: string | readonly string[] | undefined;
  /** ISO 8601 instant: only documents whose updated_at is at or after it. */
  since?: string | undefined;
  /** ISO 8601 instant: only documents whose updated_at is before it. */
  until?: string | undefined;
  /** Globs on the document's path (source id) or web URL; `!glob` excludes. */
  path?: readonly string[] | undefined;
  /** Languages by file extension (core/domain/languages.ts): any of them. */
  lang?: readonly string[] | undefined;
  /** Content types (`text/markdown`) or their subtype (`markdown`): any of them. */
  type?: readonly string[] | undefined;
  /** Tags (metadata `tags`, case-insensitive): any of them. */
  tags?: readonly string[] | undefined;
  /** Tags: all of them. */
  tagsAll?: readonly string[] | undefined;
  /** Metadata key → accepted values (compared as text): every key must hold one of its values. */
  meta?: Readonly<Record<string, readonly string[]>> | undefined;
  /**
   * The caller's data scope (a token's, ADR 0225), ANDed with every other field: they narrow it, never widen it.
   * Set by the search use-case from the request origin, never read from a caller's parameters.
   */
  scope?: ScopeFilter | undefined;
}

/** A token's data scope as one more conjunct of a SourceFilter (core/search/scope-filter.ts builds it). */
export interface ScopeFilter {
  /** Globs on the document's connector label (`git:*`, `git:docs`) or connector types (`git`): any of them. */
  sources?: readonly string[] | undefined;
  /** Globs on the document's path, read like `path` (`!glob` excludes); both must hold when both are set. */
  paths?: readonly string[] | undefined;
  /** Metadata key → value compared as text (or one element of a list value): every pair must hold. */
  meta?: Readonly<Record<string, string>> | undefined;
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
export type DocumentHead = Pick<
  StoredDocument,
  'id' | 'source' | 'connector' | 'sourceId' | 'sourceUrl' | 'title' | 'updatedAt'
>;

export interface KeywordHit {
  document: DocumentHead;
  chunk: Chunk;
  /** Positive BM25 of the best chunk. */
  raw: number;
  /** raw scaled to [0, 1] (see store-sqlite's keyword/bm25.ts). */
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

/** Which vectors belong together: the embedder's identity (`<provider>:<model>`) and the vector length. */
export interface EmbeddingSpace {
  model: string;
  dims: number;
}

/** A chunk that has no current embedding for a space. */
export interface PendingChunk {
  rowid: number;
  text: string;
  contentHash: string;
}

export interface EmbeddingWrite {
  rowid: number;
  /** The chunk content hash the vector was computed from; a chunk changed since is skipped. */
  contentHash: string;
  vector: Float32Array;
}

/** Who leases pending chunks, for how long, and optionally only which documents' (`claimPendingEmbeddings`). */
export interface EmbeddingClaim {
  /** One embedding run, unique across processes and replicas (host, pid, random). */
  owner: string;
  /** The lease: after it, another embedder may take the chunks over (the owner crashed or hangs). */
  leaseMs: number;
  /** Only chunks of these documents (a sync embeds what it wrote); absent: any pending chunk. */
  documentIds?: readonly string[] | undefined;
}

export interface EmbeddingSpaceCount extends EmbeddingSpace {
  count: number;
}

export interface VectorQuery {
  /** Unit-length query vector, `space.dims` long. */
  vector: Float32Array;
  space: EmbeddingSpace;
  /** Number of documents wanted. */
  limit: number;
  /** Chunk candidates fetched before grouping per document. */
  candidateK: number;
  filter?: SourceFilter | undefined;
}

export interface VectorHit {
  document: DocumentHead;
  chunk: Chunk;
  /** Cosine similarity of the best chunk, in [-1, 1]. */
  score: number;
}

export interface VectorResult {
  hits: VectorHit[];
  candidateCount: number;
  /** True when the approximate index answered (scores are still exact cosines). */
  approximate: boolean;
}

export interface VectorIndexReport {
  vectors: number;
  /** What happened to the approximate index: none (too few vectors), fresh, updated or rebuilt. */
  index: 'none' | 'fresh' | 'updated' | 'rebuilt' | 'unavailable';
}

/** What `kbctx doctor` reads about the index's health (Store.checkIntegrity). */
export interface IntegrityReport {
  /** SQLite quick_check problems (empty: ok). */
  sqlite: string[];
  /** The keyword index's integrity-check error, null when it is consistent. */
  fts: string | null;
  chunks: number;
  /** Rows in the keyword index: must equal `chunks`. */
  ftsRows: number;
  documentsWithoutChunks: number;
  orphanEmbeddings: number;
  /**
   * Approximate vector indexes of spaces large enough to use one: fresh, stale (rebuilt at the next use) or missing.
   */
  vectorIndexes?: { model: string; dims: number; vectors: number; state: 'fresh' | 'stale' | 'missing' }[];
}

/** An embedding as stored, keyed by chunk id (portable between stores: `kbctx migrate`). */
export interface StoredEmbedding {
  chunkId: string;
  model: string;
  dims: number;
  /** The chunk content hash the vector was computed from. */
  contentHash: string;
  vector: Float32Array;
}

export interface ConnectorState extends SourceState {
  connector: string;
}

/** How a connector's last sync run ended (`kbctx sources`, `doctor`, the web page). */
export interface SyncRun {
  /** ISO 8601 instant the run ended. */
  endedAt: string;
  /** Items the run could not read or write (its report has one note each). */
  errors: number;
  /** Why the run failed as a whole (nothing was deleted, the checkpoint was kept); null when it completed. */
  failure: string | null;
}

export interface ConnectorSyncRun extends SyncRun {
  connector: string;
}

export interface Store {
  /** Where the index lives: a file path, or the database URL with the password left out. */
  readonly path: string;

  /** Stored documents of one connector, keyed by document id. */
  documentStates(connector: string): Promise<Map<string, DocumentState>>;
  /**
   * Writes a document and its chunks in one transaction: chunks whose id is unchanged are kept
   * (their embeddings too), new ones inserted, missing ones deleted. Idempotent.
   */
  upsertDocument(doc: StoredDocument, chunks: readonly Chunk[], fingerprint: string | null): Promise<UpsertOutcome>;
  /** Records a new fingerprint for a document whose content is unchanged. */
  touchDocument(id: string, fingerprint: string | null): Promise<void>;
  /** Deletes documents (chunks, index rows and embeddings with them). Returns how many existed. */
  deleteDocuments(ids: readonly string[]): Promise<number>;

  /**
   * Bulk mode (nestable): writes are grouped into fewer commits until the matching endBulk().
   * Each write stays atomic on its own; a crash loses at most the last uncommitted group.
   */
  beginBulk(): Promise<void>;
  endBulk(): Promise<void>;

  /**
   * Tidies the keyword index after bulk writes (merges FTS segments: fewer to read per query term).
   * Bounded work on very large indexes. Safe to call any time; readers are never blocked.
   */
  compact(): Promise<void>;

  sourceState(connector: string): Promise<SourceState>;
  setSourceState(connector: string, state: SourceState): Promise<void>;
  /** Every connector with a recorded state (checkpoints), by connector. */
  sourceStates(): Promise<ConnectorState[]>;
  /**
   * Optional (a store without it shows no last run): replaces the connector's recorded last run. Kept
   * apart from sourceState, which only a completed run advances; a failed run records its failure here
   * and leaves the checkpoint alone. A write like the others (grouped in bulk mode).
   */
  recordSyncRun?(connector: string, run: SyncRun): Promise<void>;
  /** Every connector's last recorded run, by connector. Required with recordSyncRun. */
  syncRuns?(): Promise<ConnectorSyncRun[]>;

  getDocument(id: string): Promise<StoredDocument | null>;
  getChunks(documentId: string): Promise<Chunk[]>;
  /**
   * Documents in insertion order after position `after` (0: from the start), at most `limit`; `last` is the position to
   * continue from.
   */
  listDocuments(after: number, limit: number): Promise<{ documents: DocumentHead[]; last: number | null }>;
  keywordSearch(query: KeywordQuery): Promise<KeywordResult>;

  /**
   * Changes whenever the index may have changed, through this connection or any other (another
   * process, another replica). Synchronous and cheap: asked before every cached search. Throws
   * KbctxError `unavailable` when the store cannot vouch for freshness (PostgreSQL unreachable).
   */
  generation(): string;
  /**
   * Chunks with no current embedding in `space` (none, another model or dims, or an older content
   * hash), ordered by rowid, starting after `afterRowid`. `dims` null: any dims of the model count.
   */
  pendingEmbeddings(
    space: { model: string; dims: number | null },
    afterRowid: number,
    limit: number,
  ): Promise<PendingChunk[]>;
  countPendingEmbeddings(space: { model: string; dims: number | null }): Promise<number>;
  /**
   * Optional (ADR 0126): like pendingEmbeddings, but leases the chunks it returns to `claim.owner`
   * for `claim.leaseMs`, skipping chunks another owner holds an unexpired lease on (an expired lease
   * is taken over; the owner's own leases are renewed). Committed before it returns, so embedders in
   * other processes or replicas see it: two embedders never compute the same chunk. A store without
   * it is embedded through pendingEmbeddings, with no such guarantee.
   */
  claimPendingEmbeddings?(
    space: { model: string; dims: number | null },
    afterRowid: number,
    limit: number,
    claim: EmbeddingClaim,
  ): Promise<PendingChunk[]>;
  /**
   * Ends every lease of `owner` (done, or giving up); also drops expired leases. Required with claimPendingEmbeddings.
   */
  releaseEmbeddingClaims?(owner: string): Promise<void>;
  /**
   * Stores vectors (one transaction); chunks deleted or changed since they were read are skipped. Returns rows written.
   */
  writeEmbeddings(space: EmbeddingSpace, rows: readonly EmbeddingWrite[]): Promise<number>;
  /**
   * Stores vectors by chunk id (`kbctx migrate`); rows whose chunk is missing or has another content hash are skipped.
   * Returns rows written.
   */
  importEmbeddings(rows: readonly StoredEmbedding[]): Promise<number>;
  /** Every stored embedding, one at a time (memory bounded). */
  iterateEmbeddings(): AsyncIterable<StoredEmbedding>;
  /** Deletes every embedding. Returns how many there were. */
  clearEmbeddings(): Promise<number>;
  /** Embedding counts per (model, dims), most numerous first. */
  embeddingSpaces(): Promise<EmbeddingSpaceCount[]>;
  /** Cosine top-k over the vectors of one space, best chunk per document, best first (ties by id). */
  vectorSearch(query: VectorQuery): Promise<VectorResult>;
  /** Best cosine per document (over its chunks' vectors in `space`); documents without vectors are left out. */
  documentVectorScores(
    vector: Float32Array,
    space: EmbeddingSpace,
    documentIds: readonly string[],
  ): Promise<Map<string, number>>;
  /** Brings the approximate index of `space` in step with the stored vectors. */
  refreshVectorIndex(space: EmbeddingSpace): Promise<VectorIndexReport>;

  sources(): Promise<SourceStats[]>;
  counts(): Promise<StoreCounts>;
  /** Read-only consistency checks (optional: an implementation without them is reported as unchecked). */
  checkIntegrity?(): Promise<IntegrityReport>;
  /**
   * Why this store was opened read-only (its folder or file not writable: a shared snapshot, a
   * read-only mount), null when it can be written. Read commands work either way (`kbctx doctor` reports it).
   */
  readOnly?(): Promise<string | null>;
  /** Size of the index in bytes (SQLite: main file plus WAL; PostgreSQL: the database). */
  sizeBytes(): Promise<number>;
  /** Every document and chunk, in a stable order (in memory: for small indexes and tests). */
  exportAll(): Promise<{ documents: StoredDocument[]; chunks: Chunk[] }>;
  /** Every document in exportAll's order, one row at a time (memory bounded regardless of index size). */
  iterateDocuments(): AsyncIterable<StoredDocument>;
  /** Every chunk in exportAll's order, one row at a time. */
  iterateChunks(): AsyncIterable<Chunk>;

  close(): Promise<void>;
}

/** Releases a connector lock (idempotent). */
export type ReleaseLock = () => void;

/**
 * One writer per connector across processes and replicas. SQLite: lock files beside the database (store-sqlite's
 * file-locks.ts); PostgreSQL: session advisory locks, so replicas on different hosts exclude each other.
 */
export interface ConnectorLocks {
  /**
   * Takes the connector's lock for `owner` ("kbctx sync", "kbctx serve"); throws KbctxError `conflict` naming the
   * holder.
   */
  acquire(label: string, owner: string): Promise<ReleaseLock>;
  /** Like acquire, but while another holds the lock waits (up to `timeoutMs`), calling `onWait` once. */
  wait(
    label: string,
    owner: string,
    options: { timeoutMs: number; onWait?: ((message: string) => void) | undefined },
  ): Promise<ReleaseLock>;
}
