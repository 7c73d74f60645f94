// The PostgreSQL store (ADR 0111): PostgreSQL holds the truth; each replica answers reads from its own
// SQLite mirror (mirror.ts), kept in step by the change feed (feed.ts → catch-up.ts). Writes go to
// PostgreSQL (transactions.ts, writer.ts) and, outside bulk mode, return after the mirror caught up
// (read your writes). While PostgreSQL does not answer, every method throws KbctxError `unavailable`.
import {
  KbctxError,
  type Chunk,
  type SourceStats,
  type ConnectorLocks,
  type ConnectorState,
  type ConnectorSyncRun,
  type DocumentHead,
  type DocumentState,
  type EmbeddingClaim,
  type EmbeddingSpace,
  type EmbeddingSpaceCount,
  type EmbeddingWrite,
  type IntegrityReport,
  type KeywordQuery,
  type KeywordResult,
  type PendingChunk,
  type SourceState,
  type Store,
  type StoreCounts,
  type StoredDocument,
  type StoredEmbedding,
  type SyncRun,
  type UpsertOutcome,
  type VectorIndexReport,
  type VectorQuery,
  type VectorResult,
} from '../../core/api/plugin.ts';
import { redactUrl } from './redact-url.ts';
import type pg from 'pg';
import { catchUp, type CatchUpReport } from './catch-up.ts';
import * as claims from './claims.ts';
import { ChangeFeed } from './feed.ts';
import { postgresLocks } from './locks.ts';
import { migrate } from './migrations.ts';
import { Mirror } from './mirror.ts';
import { connect, createPool, toKbctxError, unavailable } from './pool.ts';
import * as reads from './reads.ts';
import { PgTransactions, type BatchKind, type WriteTx } from './transactions.ts';
import * as syncRuns from './sync-runs.ts';
import * as writer from './writer.ts';

const CLOSE_WAIT_MS = 2_000;
/** Commit records and deletion events are kept this long: a mirror last caught up before that rebuilds (ADR 0111). */
const HISTORY_DAYS = 7;
/** Document writes queued together in bulk mode share one statement (transactions.ts). */
const DOCUMENT_WRITES: BatchKind<writer.DocumentWrite, UpsertOutcome> = {
  apply: writer.upsertDocuments,
  key: writer.documentKey,
};

export interface OpenPostgresStoreOptions {
  /** The mirror's SQLite file (a cache: safe to delete while kbctx is stopped); `:memory:` for tests. */
  mirrorPath: string;
  poolSize?: number | undefined;
  /** Opens the mirror's local store at a file (the plugin asks the `sqlite` store plugin for it). */
  openMirror: (file: string) => Store;
}

/** Opens the store at once; connecting, migrating and the first catch-up happen behind every method's first await. */
export function openPostgresStore(url: string, options: OpenPostgresStoreOptions): PgStore {
  return new PgStore(url, options);
}

/** Creates or upgrades the schema (`kbctx init`). */
export async function migratePostgres(url: string): Promise<void> {
  const pool = createPool(url, { poolSize: 1 });
  try {
    await migrate(pool, url);
  } catch (error) {
    throw toKbctxError(url, error);
  } finally {
    await pool.end();
  }
}

export class PgStore implements Store {
  readonly path: string;
  readonly capabilities = { pgvector: false };
  /** Connector locks over this store's pool (session advisory locks). */
  readonly locks: ConnectorLocks;
  /** The last catch-up that applied anything (for tests and `kbctx doctor`). */
  lastCatchUp: CatchUpReport | null = null;
  private readonly url: string;
  private readonly pool: pg.Pool;
  private readonly tx: PgTransactions;
  private readonly mirror: Mirror;
  private readonly feed: ChangeFeed;
  private starting: Promise<void> | null = null;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private closed = false;

  constructor(url: string, options: OpenPostgresStoreOptions) {
    this.url = url;
    this.path = redactUrl(url);
    this.pool = createPool(url, { poolSize: options.poolSize });
    this.tx = new PgTransactions(this.pool, url);
    this.locks = postgresLocks(this.pool, url);
    this.mirror = Mirror.open(options.mirrorPath, options.openMirror);
    this.feed = new ChangeFeed(url, () => void this.requestCatchUp().catch(() => undefined));
    void this.ready().catch(() => undefined);
  }

  /** Connects, migrates and catches up once; after a failure the next call tries again. */
  private ready(): Promise<void> {
    if (this.closed) return Promise.reject(new KbctxError('internal', `the index at ${this.path} is closed`));
    this.starting ??= (async () => {
      await migrate(this.pool, this.url);
      this.capabilities.pgvector = await reads.hasPgvector(this.pool);
      await this.feed.start();
      await this.requestCatchUp();
    })().catch((error: unknown) => {
      this.starting = null;
      throw toKbctxError(this.url, error);
    });
    return this.starting;
  }

  /** One catch-up at a time; a request while one runs queues (at most) one more after it. */
  requestCatchUp(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (!this.running) {
      this.running = this.runCatchUp().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.requestCatchUp();
      });
    return this.queued;
  }

  private async runCatchUp(): Promise<void> {
    const client = await connect(this.pool, this.url);
    try {
      const report = await catchUp(client, this.mirror, { deferCompaction: this.tx.inBulk });
      client.release();
      if (report.wiped || report.from !== report.to) this.lastCatchUp = report;
    } catch (error) {
      client.release(error as Error);
      throw toKbctxError(this.url, error);
    }
  }

  /** Ready, and the heartbeat is healthy: reads fail fast (503) while PostgreSQL does not answer. */
  private async live(): Promise<void> {
    await this.ready();
    this.assertHealthy();
  }

  /** Throws `unavailable` once the heartbeat has failed twice in a row (feed.ts). */
  private assertHealthy(): void {
    if (this.feed.healthy()) return;
    throw unavailable(
      this.url,
      `no answer since ${this.feed.lastOk === 0 ? 'start-up' : new Date(this.feed.lastOk).toISOString()}`,
    );
  }

  /** The mirror, for reads. */
  private async reader(): Promise<Store> {
    await this.live();
    return this.mirror.store;
  }

  /** A read answered by PostgreSQL itself. */
  private async query<T>(fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
    await this.live();
    try {
      return await fn(this.pool);
    } catch (error) {
      throw toKbctxError(this.url, error);
    }
  }

  /** Runs a write; outside bulk mode returns once the mirror shows it. */
  private write<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T> {
    return this.settle(() => this.tx.run(fn));
  }

  private async settle<T>(run: () => Promise<T>): Promise<T> {
    await this.ready();
    const result = await run();
    // The write is committed: a failed catch-up is left to the feed, which retries.
    if (!this.tx.inBulk) await this.requestCatchUp().catch(() => undefined);
    return result;
  }

  documentStates(connector: string): Promise<Map<string, DocumentState>> {
    return this.query((db) => reads.documentStates(db, connector));
  }

  upsertDocument(doc: StoredDocument, chunks: readonly Chunk[], fingerprint: string | null): Promise<UpsertOutcome> {
    return this.settle(() => this.tx.runBatched(DOCUMENT_WRITES, { doc, chunks, fingerprint }));
  }

  touchDocument(id: string, fingerprint: string | null): Promise<void> {
    return this.write((tx) => writer.touchDocument(tx, id, fingerprint));
  }

  async deleteDocuments(ids: readonly string[]): Promise<number> {
    return ids.length === 0 ? 0 : this.write((tx) => writer.deleteDocuments(tx, ids));
  }

  async beginBulk(): Promise<void> {
    await this.ready();
    this.tx.begin();
  }

  async endBulk(): Promise<void> {
    await this.tx.end();
    if (!this.tx.inBulk) await this.requestCatchUp().catch(() => undefined);
  }

  async compact(): Promise<void> {
    await this.live();
    await this.mirror.compact();
    await this.query((db) => writer.pruneHistory(db, HISTORY_DAYS));
  }

  sourceState(connector: string): Promise<SourceState> {
    return this.query((db) => reads.sourceState(db, connector));
  }

  setSourceState(connector: string, state: SourceState): Promise<void> {
    return this.write((tx) => writer.setSourceState(tx, connector, state));
  }

  sourceStates(): Promise<ConnectorState[]> {
    return this.query((db) => reads.sourceStates(db));
  }

  recordSyncRun(connector: string, run: SyncRun): Promise<void> {
    return this.query((db) => syncRuns.recordSyncRun(db, connector, run));
  }

  syncRuns(): Promise<ConnectorSyncRun[]> {
    return this.query((db) => syncRuns.syncRuns(db));
  }

  async getDocument(id: string): Promise<StoredDocument | null> {
    return (await this.reader()).getDocument(id);
  }

  async getChunks(documentId: string): Promise<Chunk[]> {
    return (await this.reader()).getChunks(documentId);
  }

  listDocuments(after: number, limit: number): Promise<{ documents: DocumentHead[]; last: number | null }> {
    return this.query((db) => reads.listDocuments(db, after, limit));
  }

  async keywordSearch(query: KeywordQuery): Promise<KeywordResult> {
    return (await this.reader()).keywordSearch(query);
  }

  generation(): string {
    // Asked before every cached search: a replica that lost PostgreSQL must not keep answering from its
    // response cache either (503 like every other read, ADR 0111).
    this.assertHealthy();
    return `pg${this.mirror.incarnation}:${this.mirror.store.generation()}`;
  }

  pendingEmbeddings(
    space: { model: string; dims: number | null },
    afterRowid: number,
    limit: number,
  ): Promise<PendingChunk[]> {
    return this.query((db) => reads.pendingEmbeddings(db, space, afterRowid, limit));
  }

  countPendingEmbeddings(space: { model: string; dims: number | null }): Promise<number> {
    return this.query((db) => reads.countPendingEmbeddings(db, space));
  }

  claimPendingEmbeddings(
    space: { model: string; dims: number | null },
    afterRowid: number,
    limit: number,
    claim: EmbeddingClaim,
  ): Promise<PendingChunk[]> {
    return this.query((db) => claims.claimPendingEmbeddings(db, space, afterRowid, limit, claim));
  }

  releaseEmbeddingClaims(owner: string): Promise<void> {
    return this.query((db) => claims.releaseEmbeddingClaims(db, owner));
  }

  async writeEmbeddings(space: EmbeddingSpace, rows: readonly EmbeddingWrite[]): Promise<number> {
    return rows.length === 0 ? 0 : this.write((tx) => writer.writeEmbeddings(tx, space, rows));
  }

  async importEmbeddings(rows: readonly StoredEmbedding[]): Promise<number> {
    return rows.length === 0 ? 0 : this.write((tx) => writer.importEmbeddings(tx, rows));
  }

  async *iterateEmbeddings(): AsyncIterable<StoredEmbedding> {
    yield* (await this.reader()).iterateEmbeddings();
  }

  clearEmbeddings(): Promise<number> {
    return this.write((tx) => writer.clearEmbeddings(tx));
  }

  async embeddingSpaces(): Promise<EmbeddingSpaceCount[]> {
    return (await this.reader()).embeddingSpaces();
  }

  async vectorSearch(query: VectorQuery): Promise<VectorResult> {
    return (await this.reader()).vectorSearch(query);
  }

  async documentVectorScores(
    vector: Float32Array,
    space: EmbeddingSpace,
    documentIds: readonly string[],
  ): Promise<Map<string, number>> {
    return (await this.reader()).documentVectorScores(vector, space, documentIds);
  }

  async refreshVectorIndex(space: EmbeddingSpace): Promise<VectorIndexReport> {
    return (await this.reader()).refreshVectorIndex(space);
  }

  async sources(): Promise<SourceStats[]> {
    return (await this.reader()).sources();
  }

  async counts(): Promise<StoreCounts> {
    return (await this.reader()).counts();
  }

  /** The mirror's own checks, plus its counts against PostgreSQL's (after a catch-up). */
  async checkIntegrity(): Promise<IntegrityReport> {
    await this.requestCatchUp();
    const mirror = await this.reader();
    const [report, local, remote] = await Promise.all([
      mirrorIntegrity(mirror),
      mirror.counts(),
      this.query((db) => reads.counts(db)),
    ]);
    const differences = (['documents', 'chunks', 'embedded'] as const)
      .filter((k) => local[k] !== remote[k])
      .map((k) => `mirror ${this.mirror.file} has ${local[k]} ${k}, PostgreSQL ${remote[k]}`);
    return { ...report, sqlite: [...report.sqlite, ...differences] };
  }

  sizeBytes(): Promise<number> {
    return this.query((db) => reads.sizeBytes(db));
  }

  async exportAll(): Promise<{ documents: StoredDocument[]; chunks: Chunk[] }> {
    return (await this.reader()).exportAll();
  }

  async *iterateDocuments(): AsyncIterable<StoredDocument> {
    yield* (await this.reader()).iterateDocuments();
  }

  async *iterateChunks(): AsyncIterable<Chunk> {
    yield* (await this.reader()).iterateChunks();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.tx.flush().catch(() => undefined);
    this.closed = true;
    await this.feed.stop();
    await this.running?.catch(() => undefined);
    // pool.end() waits for every borrowed connection: a lock never released must not hang shutdown.
    await Promise.race([
      this.pool.end().catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref()),
    ]);
    await this.mirror.close();
  }
}

/** The mirror's own integrity report (every local store kbctx ships has one). */
function mirrorIntegrity(mirror: Store): Promise<IntegrityReport> {
  if (!mirror.checkIntegrity) throw new KbctxError('internal', 'the replica mirror store cannot check its integrity');
  return mirror.checkIntegrity();
}
