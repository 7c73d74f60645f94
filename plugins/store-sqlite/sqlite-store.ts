// The SQLite index: one file in WAL mode, opened through Node's built-in node:sqlite (no native
// build). The only module, with its siblings, that speaks SQL.
import {
  requireOwn,
  type IndexAccess,
  type Chunk,
  type SourceStats,
  type ConnectorState,
  type ConnectorSyncRun,
  type DocumentHead,
  type DocumentState,
  type KeywordQuery,
  type KeywordResult,
  type SourceState,
  type Store,
  type StoreCounts,
  type StoredDocument,
  type UpsertOutcome,
  type EmbeddingClaim,
  type EmbeddingSpace,
  type EmbeddingSpaceCount,
  type EmbeddingWrite,
  type IntegrityReport,
  type PendingChunk,
  type StoredEmbedding,
  type SyncRun,
  type VectorIndexReport,
  type VectorQuery,
  type VectorResult,
} from '../../core/api/plugin.ts';
import { statSync } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type * as Writer from './document-writer.ts';
import type * as Embeddings from './embedding-rows.ts';
import type * as ExportRows from './export-rows.ts';
import type * as CompactFts from './compact-fts.ts';
import type * as StoreChecks from './store-checks.ts';
import type * as SyncStateRows from './sync-state-rows.ts';
import type * as Transaction from './transaction.ts';
import type * as DocumentScores from './vector/document-scores.ts';
import type * as DocumentReads from './document-reads.ts';
import type * as Vectors from './vector-search.ts';
import { KeywordSearcher } from './keyword-search.ts';
import { PostingsEngine } from './postings-search.ts';
import { openDatabase } from './open-database.ts';
import { registerFilterFunctions } from './filter-sql.ts';

/**
 * Everything but keyword search loads on first use: a search reads keywords only (ADR 0130). The SQL lives in the
 * siblings: keyword-search.ts, document-reads.ts, document-writer.ts, sync-state-rows.ts, embedding-rows.ts,
 * vector-search.ts, export-rows.ts, compact-fts.ts, store-checks.ts.
 */
const own = <T>(specifier: string): T => requireOwn<T>(import.meta.url, specifier);
/** A sibling module of functions, required once on first use. */
function lazy<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= own<T>(specifier));
}
const reads = lazy<typeof DocumentReads>('./document-reads.ts');
const syncState = lazy<typeof SyncStateRows>('./sync-state-rows.ts');
const compactFts = lazy<typeof CompactFts>('./compact-fts.ts');
const storeChecks = lazy<typeof StoreChecks>('./store-checks.ts');
const exportRows = lazy<typeof ExportRows>('./export-rows.ts');
const documentScores = lazy<typeof DocumentScores>('./vector/document-scores.ts');

export interface OpenSqliteStoreOptions {
  /** What the command needs (StoreOptions.access; default `create`). */
  access?: IndexAccess | undefined;
  /** `postings` (default): block-max MaxScore over postings beside the file; `fts5`: FTS5 ranks every match. */
  keywordEngine?: 'postings' | 'fts5';
}

export function openSqliteStore(file: string, options: OpenSqliteStoreOptions = {}): SqliteStore {
  const { db, readOnly } = openDatabase(file, options.access);
  registerFilterFunctions(db);
  return new SqliteStore(db, file, options.keywordEngine ?? 'postings', readOnly);
}

export class SqliteStore implements Store {
  readonly path: string;
  private readonly db: DatabaseSync;
  private readonly keyword: KeywordSearcher;
  private unitOfWork: Transaction.UnitOfWork | undefined;
  private writerOf: Writer.DocumentWriter | undefined;
  private embeddingRows: Embeddings.EmbeddingRows | undefined;
  private vectorSearcher: Vectors.VectorSearcher | undefined;
  private readonly statements = new Map<string, StatementSync>();

  /** The statement cache the sibling modules' functions take (document-reads.ts `Sql`). */
  private readonly sql = (text: string): StatementSync => {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  };

  private readonly dataVersion: StatementSync;

  private readonly postings: PostingsEngine | null;
  private readonly readOnlyReason: string | null;

  /** `readOnly`: why the database was opened read-only (null: writable). */
  constructor(
    db: DatabaseSync,
    file: string,
    keywordEngine: 'postings' | 'fts5' = 'postings',
    readOnly: string | null = null,
  ) {
    this.db = db;
    this.path = file;
    this.readOnlyReason = readOnly;
    this.dataVersion = db.prepare('PRAGMA data_version');
    // A read-only open of a database from before migration 3 has no keyword log: FTS5 answers.
    const logged = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'keyword_state'").get() !== undefined;
    this.postings =
      keywordEngine === 'postings' && logged
        ? new PostingsEngine(db, file === ':memory:' ? null : `${file}.keyword`, () => this.generation())
        : null;
    this.keyword = new KeywordSearcher(db, () => this.generation(), this.postings);
  }

  private get unit(): Transaction.UnitOfWork {
    return (this.unitOfWork ??= new (own<typeof Transaction>('./transaction.ts').UnitOfWork)(this.db, this.path));
  }

  private get writer(): Writer.DocumentWriter {
    return (this.writerOf ??= new (own<typeof Writer>('./document-writer.ts').DocumentWriter)(this.db, this.unit));
  }

  private get embeddings(): Embeddings.EmbeddingRows {
    return (this.embeddingRows ??= new (own<typeof Embeddings>('./embedding-rows.ts').EmbeddingRows)(
      this.db,
      this.unit,
    ));
  }

  private get vectors(): Vectors.VectorSearcher {
    const file = this.path === ':memory:' ? null : `${this.path}.vectors`;
    return (this.vectorSearcher ??= new (own<typeof Vectors>('./vector-search.ts').VectorSearcher)(
      this.db,
      this.embeddings,
      file,
    ));
  }

  async documentStates(connector: string): Promise<Map<string, DocumentState>> {
    return reads().documentStates(this.sql, connector);
  }

  async upsertDocument(
    doc: StoredDocument,
    chunks: readonly Chunk[],
    fingerprint: string | null,
  ): Promise<UpsertOutcome> {
    return this.writer.upsert(doc, chunks, fingerprint);
  }

  async touchDocument(id: string, fingerprint: string | null): Promise<void> {
    this.writer.touchFingerprint(id, fingerprint);
  }

  async deleteDocuments(ids: readonly string[]): Promise<number> {
    return this.writer.delete(ids);
  }

  async beginBulk(): Promise<void> {
    this.unit.begin();
  }

  async endBulk(): Promise<void> {
    this.unit.end();
  }

  async compact(): Promise<void> {
    compactFts().compactFts(this.db, this.unit, reads().countRows(this.sql).chunks);
    this.refreshKeywordIndex();
  }

  /** Brings the postings file in step with the index; the log entries it covers are then dropped. */
  refreshKeywordIndex(): void {
    if (!this.postings || this.db.isTransaction) return;
    const seq = this.postings.refresh();
    this.unit.run(() => this.sql('DELETE FROM keyword_log WHERE seq <= ?').run(seq));
  }

  async sourceState(connector: string): Promise<SourceState> {
    return syncState().readSourceState(this.sql, connector);
  }

  async setSourceState(connector: string, state: SourceState): Promise<void> {
    syncState().writeSourceState(this.sql, this.unit, connector, state);
  }

  async sourceStates(): Promise<ConnectorState[]> {
    return syncState().readSourceStates(this.sql);
  }

  async recordSyncRun(connector: string, run: SyncRun): Promise<void> {
    syncState().writeSyncRun(this.sql, this.unit, connector, run);
  }

  async syncRuns(): Promise<ConnectorSyncRun[]> {
    return syncState().readSyncRuns(this.sql);
  }

  async getDocument(id: string): Promise<StoredDocument | null> {
    return reads().getDocument(this.sql, id);
  }

  async listDocuments(after: number, limit: number): Promise<{ documents: DocumentHead[]; last: number | null }> {
    return reads().listDocuments(this.sql, after, limit);
  }

  async getChunks(documentId: string): Promise<Chunk[]> {
    return reads().getChunks(this.sql, documentId);
  }

  async keywordSearch(query: KeywordQuery): Promise<KeywordResult> {
    return this.keyword.search(query);
  }

  generation(): string {
    // data_version moves when another connection commits; our own writes are counted by the unit of work.
    return `${(this.dataVersion.get() as { data_version: number }).data_version}:${this.unitOfWork?.writes ?? 0}`;
  }

  async pendingEmbeddings(
    space: { model: string; dims: number | null },
    afterRowid: number,
    limit: number,
  ): Promise<PendingChunk[]> {
    return this.embeddings.pendingChunks(space, afterRowid, limit);
  }

  async countPendingEmbeddings(space: { model: string; dims: number | null }): Promise<number> {
    return this.embeddings.countPending(space);
  }

  async claimPendingEmbeddings(
    space: { model: string; dims: number | null },
    afterRowid: number,
    limit: number,
    claim: EmbeddingClaim,
  ): Promise<PendingChunk[]> {
    return this.embeddings.claim(space, afterRowid, limit, claim);
  }

  async releaseEmbeddingClaims(owner: string): Promise<void> {
    this.embeddings.release(owner);
  }

  async writeEmbeddings(space: EmbeddingSpace, rows: readonly EmbeddingWrite[]): Promise<number> {
    return this.embeddings.write(space, rows);
  }

  async importEmbeddings(rows: readonly StoredEmbedding[]): Promise<number> {
    return this.embeddings.importRows(rows);
  }

  async *iterateEmbeddings(): AsyncGenerator<StoredEmbedding> {
    yield* this.embeddings.iterate();
  }

  async clearEmbeddings(): Promise<number> {
    return this.embeddings.clear();
  }

  async embeddingSpaces(): Promise<EmbeddingSpaceCount[]> {
    return this.embeddings.spaces();
  }

  async vectorSearch(query: VectorQuery): Promise<VectorResult> {
    return this.vectors.search(query);
  }

  async documentVectorScores(
    vector: Float32Array,
    space: EmbeddingSpace,
    documentIds: readonly string[],
  ): Promise<Map<string, number>> {
    return documentScores().documentVectorScores(this.db, vector, space, documentIds);
  }

  async refreshVectorIndex(space: EmbeddingSpace): Promise<VectorIndexReport> {
    return this.vectors.refresh(space);
  }

  async sources(): Promise<SourceStats[]> {
    return reads().sourceStats(this.sql);
  }

  async checkIntegrity(): Promise<IntegrityReport> {
    const writable = this.readOnlyReason === null;
    return storeChecks().checkStore(this.db, this.path, this.embeddings, writable);
  }

  async readOnly(): Promise<string | null> {
    return this.readOnlyReason;
  }

  async counts(): Promise<StoreCounts> {
    return reads().countRows(this.sql);
  }

  async sizeBytes(): Promise<number> {
    const size = (f: string): number => {
      try {
        return statSync(f).size;
      } catch {
        return 0;
      }
    };
    return size(this.path) + size(`${this.path}-wal`);
  }

  async exportAll(): Promise<{ documents: StoredDocument[]; chunks: Chunk[] }> {
    const rows = exportRows();
    return { documents: [...rows.documentRows(this.db)], chunks: [...rows.chunkRows(this.db)] };
  }

  async *iterateDocuments(): AsyncGenerator<StoredDocument> {
    yield* exportRows().documentRows(this.db);
  }

  async *iterateChunks(): AsyncGenerator<Chunk> {
    yield* exportRows().chunkRows(this.db);
  }

  async close(): Promise<void> {
    this.closeNow();
  }

  /** Closes synchronously (process exit paths that cannot await). */
  closeNow(): void {
    if (!this.db.isOpen) return;
    this.unitOfWork?.commit();
    this.postings?.close();
    this.db.close();
  }
}
