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
import { dotAt } from './vector/vector-topk.ts';
import { statSync } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type * as Integrity from './integrity.ts';
import type * as FtsTotals from './fts-totals.ts';
import type * as Ann from './vector/ann-index.ts';
import type * as Writer from './document-writer.ts';
import type * as Embeddings from './embedding-rows.ts';
import type * as Vectors from './vector-search.ts';
import type * as Transaction from './transaction.ts';
import { KeywordSearcher } from './keyword-search.ts';
import { PostingsEngine } from './postings-search.ts';
import { openDatabase } from './open-database.ts';
import { registerFilterFunctions } from './filter-sql.ts';
import {
  CHUNK_COLUMNS,
  DOCUMENT_COLUMNS,
  HEAD_COLUMNS,
  toChunk,
  toDocument,
  toHead,
  type ChunkRow,
  type DocumentRow,
  type HeadRow,
} from './rows.ts';

const COMPACT_FULL_MAX = 200_000;
/** FTS5 is rebuilt for exact BM25 totals once its deleted rows exceed this share of the live ones (ADR 0113). */
const REINDEX_RATIO = 0.1;
/** The write path, vectors and checks load on first use: a search reads keywords only (ADR 0130). */
const own = <T>(specifier: string): T => requireOwn<T>(import.meta.url, specifier);

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

  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  async documentStates(connector: string): Promise<Map<string, DocumentState>> {
    const rows = this.sql(
      'SELECT id, source, source_id, fingerprint, content_hash FROM documents WHERE connector = ?',
    ).all(connector) as {
      id: string;
      source: string;
      source_id: string;
      fingerprint: string | null;
      content_hash: string;
    }[];
    return new Map(
      rows.map((r) => [
        r.id,
        { id: r.id, source: r.source, sourceId: r.source_id, fingerprint: r.fingerprint, contentHash: r.content_hash },
      ]),
    );
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
    // 'optimize' rewrites the whole FTS index into one segment (~90 ms for SciFact's 5.5k chunks);
    // past COMPACT_FULL_MAX chunks only a bounded incremental merge is done per sync. Once deletions left
    // FTS5's BM25 totals counting more than REINDEX_RATIO rows that are gone, the index is rebuilt first
    // (fts-totals.ts, ADR 0113): exact totals again, at a cost amortised over the deletions.
    const chunks = this.countRows().chunks;
    const full = chunks <= COMPACT_FULL_MAX;
    const { reindexFts, staleFtsRows } = own<typeof FtsTotals>('./fts-totals.ts');
    const reindex = staleFtsRows(this.db, chunks) > REINDEX_RATIO * chunks;
    const sql = full
      ? "INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')"
      : "INSERT INTO chunks_fts(chunks_fts, rank) VALUES('merge', 4000)";
    this.unit.run(() => {
      if (reindex) reindexFts(this.db);
      this.db.exec(sql);
    });
    this.refreshKeywordIndex();
  }

  /** Brings the postings file in step with the index; the log entries it covers are then dropped. */
  refreshKeywordIndex(): void {
    if (!this.postings || this.db.isTransaction) return;
    const seq = this.postings.refresh();
    this.unit.run(() => this.sql('DELETE FROM keyword_log WHERE seq <= ?').run(seq));
  }

  async sourceState(connector: string): Promise<SourceState> {
    const row = this.sql('SELECT checkpoint, last_sync_at FROM sync_state WHERE connector = ?').get(connector) as
      | { checkpoint: string | null; last_sync_at: string | null }
      | undefined;
    return { checkpoint: row?.checkpoint ?? null, lastSyncAt: row?.last_sync_at ?? null };
  }

  async setSourceState(connector: string, state: SourceState): Promise<void> {
    this.unit.run(() =>
      this.sql(
        `INSERT INTO sync_state (connector, checkpoint, last_sync_at) VALUES (?, ?, ?)
       ON CONFLICT(connector) DO UPDATE SET checkpoint = excluded.checkpoint, last_sync_at = excluded.last_sync_at`,
      ).run(connector, state.checkpoint, state.lastSyncAt),
    );
  }

  async sourceStates(): Promise<ConnectorState[]> {
    const rows = this.sql('SELECT connector, checkpoint, last_sync_at FROM sync_state ORDER BY connector').all() as {
      connector: string;
      checkpoint: string | null;
      last_sync_at: string | null;
    }[];
    return rows.map((r) => ({ connector: r.connector, checkpoint: r.checkpoint, lastSyncAt: r.last_sync_at }));
  }

  async recordSyncRun(connector: string, run: SyncRun): Promise<void> {
    this.unit.run(() =>
      this.sql(
        `INSERT INTO sync_runs (connector, ended_at, errors, failure) VALUES (?, ?, ?, ?)
       ON CONFLICT(connector) DO UPDATE SET ended_at = excluded.ended_at, errors = excluded.errors, failure = excluded.failure`,
      ).run(connector, run.endedAt, run.errors, run.failure),
    );
  }

  async syncRuns(): Promise<ConnectorSyncRun[]> {
    const rows = this.sql('SELECT connector, ended_at, errors, failure FROM sync_runs ORDER BY connector').all() as {
      connector: string;
      ended_at: string;
      errors: number;
      failure: string | null;
    }[];
    return rows.map((r) => ({
      connector: r.connector,
      endedAt: r.ended_at,
      errors: Number(r.errors),
      failure: r.failure,
    }));
  }

  async getDocument(id: string): Promise<StoredDocument | null> {
    const row = this.sql(`SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.id = ?`).get(id) as
      | DocumentRow
      | undefined;
    return row ? toDocument(row) : null;
  }

  async listDocuments(after: number, limit: number): Promise<{ documents: DocumentHead[]; last: number | null }> {
    const rows = this.sql(
      `SELECT d.rowid AS position, ${HEAD_COLUMNS} FROM documents d WHERE d.rowid > ? ORDER BY d.rowid LIMIT ?`,
    ).all(after, limit) as unknown as (HeadRow & { position: number })[];
    return { documents: rows.map(toHead), last: rows.length === limit ? Number(rows.at(-1)!.position) : null };
  }

  async getChunks(documentId: string): Promise<Chunk[]> {
    const rows = this.sql(
      `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.rowid = c.document_rowid WHERE d.id = ? ORDER BY c.chunk_index`,
    ).all(documentId) as unknown as ChunkRow[];
    return rows.map(toChunk);
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
    const best = new Map<string, number>();
    for (const row of own<typeof Embeddings>('./embedding-rows.ts').documentVectors(this.db, space, documentIds)) {
      if (row.vector.byteLength !== space.dims * 4) continue;
      const v = new Float32Array(
        row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength),
      );
      const score = dotAt(v, 0, vector, space.dims);
      if (score > (best.get(row.documentId) ?? -Infinity)) best.set(row.documentId, score);
    }
    return best;
  }

  async refreshVectorIndex(space: EmbeddingSpace): Promise<VectorIndexReport> {
    return this.vectors.refresh(space);
  }

  async sources(): Promise<SourceStats[]> {
    const rows = this.sql(
      `SELECT s.connector AS source,
         (SELECT count(*) FROM documents d WHERE d.connector = s.connector) AS documents,
         (SELECT count(*) FROM chunks c JOIN documents d ON d.rowid = c.document_rowid WHERE d.connector = s.connector) AS chunks,
         (SELECT count(*) FROM embeddings e JOIN chunks c ON c.rowid = e.chunk_rowid JOIN documents d ON d.rowid = c.document_rowid
            WHERE d.connector = s.connector) AS embedded,
         (SELECT last_sync_at FROM sync_state t WHERE t.connector = s.connector) AS last_sync_at
       FROM (SELECT connector FROM documents UNION SELECT connector FROM sync_state) s ORDER BY s.connector`,
    ).all() as { source: string; documents: number; chunks: number; embedded: number; last_sync_at: string | null }[];
    return rows.map((r) => ({
      source: r.source,
      documentCount: Number(r.documents),
      chunkCount: Number(r.chunks),
      embeddedCount: Number(r.embedded),
      lastSyncAt: r.last_sync_at,
    }));
  }

  async checkIntegrity(): Promise<IntegrityReport> {
    const { ANN_MIN_VECTORS, annStamp } = own<typeof Ann>('./vector/ann-index.ts');
    const generation = this.embeddings.generation();
    const vectorIndexes =
      this.path === ':memory:'
        ? []
        : this.embeddings
            .spaces()
            .filter((s) => s.count >= ANN_MIN_VECTORS)
            .map((s) => {
              const stamp = annStamp(`${this.path}.vectors`, s);
              const state =
                stamp === null
                  ? ('missing' as const)
                  : stamp.generation === generation && stamp.size === s.count
                    ? ('fresh' as const)
                    : ('stale' as const);
              return { model: s.model, dims: s.dims, vectors: s.count, state };
            });
    return {
      ...own<typeof Integrity>('./integrity.ts').checkIntegrity(this.db, this.readOnlyReason === null),
      vectorIndexes,
    };
  }

  async readOnly(): Promise<string | null> {
    return this.readOnlyReason;
  }

  async counts(): Promise<StoreCounts> {
    return this.countRows();
  }

  private countRows(): StoreCounts {
    const row = this.sql(
      'SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM chunks) AS chunks, (SELECT count(*) FROM embeddings) AS embedded',
    ).get() as { documents: number; chunks: number; embedded: number };
    return { documents: Number(row.documents), chunks: Number(row.chunks), embedded: Number(row.embedded) };
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
    return { documents: [...this.documentRows()], chunks: [...this.chunkRows()] };
  }

  async *iterateDocuments(): AsyncGenerator<StoredDocument> {
    yield* this.documentRows();
  }

  async *iterateChunks(): AsyncGenerator<Chunk> {
    yield* this.chunkRows();
  }

  private *documentRows(): Generator<StoredDocument> {
    // Own statements (not the cache): the caller may run other queries while it iterates.
    const one = this.db.prepare(`SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.rowid = ?`);
    for (const rowid of this.exportOrder()) {
      const row = one.get(rowid) as unknown as DocumentRow | undefined;
      if (row) yield toDocument(row);
    }
  }

  private *chunkRows(): Generator<Chunk> {
    const ofDocument = this.db.prepare(
      `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.rowid = c.document_rowid WHERE c.document_rowid = ? ORDER BY c.chunk_index`,
    );
    for (const rowid of this.exportOrder()) {
      for (const row of ofDocument.iterate(rowid)) yield toChunk(row as unknown as ChunkRow);
    }
  }

  /**
   * Document rowids in export order. Sorting only the keys (8 bytes per document kept) instead of
   * whole rows: an ORDER BY over bodies and chunk texts made SQLite's sorter hold the index in memory.
   */
  private exportOrder(): number[] {
    return (this.db.prepare('SELECT rowid FROM documents ORDER BY source, source_id').all() as { rowid: number }[]).map(
      (r) => r.rowid,
    );
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
