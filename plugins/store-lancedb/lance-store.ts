// The LanceDB store (ADR 0125): one Lance table in the folder at [db] path (rows.ts). Durability and
// atomicity are Lance's: every write is one commit (a document with its chunks and the embeddings it
// drops: one merge-insert). Reads are answered from an in-memory model of the table (model.ts) with
// the project's own keyword postings; vectors are searched by Lance's own query on `vector_<dims>`
// columns (lance-vectors.ts, ADR 0227); document bodies are read from Lance.
//
// 1. Freshness: every commit writes the table version to `kbctx.generation` in the folder (on object storage:
//    the table's latest version is asked for, table-place.ts); a process that finds a version it did not
//    write reloads the model (readers see whole commits only).
// 2. Bulk mode groups upserts into one merge-insert per GROUP_SIZE documents (a crash loses the
//    open group at most); other writes commit the group first.
// 3. compact() (after every sync that wrote) compacts Lance's fragments and drops versions older than
//    KEEP_VERSIONS_MS once there are MAX_FRAGMENTS small fragments or MAX_VERSIONS commits since the
//    last compaction; a commit that reaches MAX_VERSIONS starts one itself (a watcher's syncs never
//    call compact()). So the file count stays bounded after thousands of small syncs.
// Writes are serialised: one commit at a time per process, and across processes by the table's write
// lock (write-lock.ts; in a bucket a lease claim, ADR 0230): two connections' merge-inserts of the same new key
// would otherwise both insert it. With readConsistencyInterval 0 every commit starts from the latest version (no
// stale handle, lancedb#3377), and no scalar index is kept on the merge key (lancedb#3177).
import {
  KbctxError,
  type IndexAccess,
  type Chunk,
  type ConnectorLocks,
  type ConnectorState,
  type ConnectorSyncRun,
  type DocumentHead,
  type DocumentState,
  type EmbeddingSpace,
  type EmbeddingSpaceCount,
  type EmbeddingWrite,
  type IntegrityReport,
  type KeywordQuery,
  type KeywordResult,
  type PendingChunk,
  type SourceState,
  type SourceStats,
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
import type { Connection, Table } from '@lancedb/lancedb';
import { loadLance } from './lance-module.ts';
import { openTablePlace, type StorageSettings, type TablePlace } from './table-place.ts';
import { lanceDocumentScores, lanceVectorSearch, vectorColumns } from './lance-vectors.ts';
import {
  DEFAULT_VECTOR_INDEX,
  refreshVectorIndex as refreshLanceVectorIndex,
  vectorIndexSettings,
  vectorIndexState,
  type VectorIndexSettings,
  type VectorIndexState,
} from './vector-index.ts';
import { chunkTerms, Model } from './model.ts';
import { decodeRowTerms, encodeRowTerms, type RowTerms } from './keyword-index.ts';
import { tableIntegrity } from './integrity.ts';
import * as queries from './model-queries.ts';
import { compare } from './model-queries.ts';
import {
  chunkRow,
  COLUMNS,
  docKey,
  docRow,
  embKey,
  embRow,
  headOf,
  plainRows,
  sameHead,
  sqlList,
  runRow,
  sqlString,
  stateRow,
  toChunk,
  toDocument,
  toHead,
  toSyncRun,
  parseMetadata,
  vectorColumn,
  vectorColumnType,
  type LanceRow,
} from './rows.ts';

const GROUP_SIZE = 500;
const MAX_FRAGMENTS = 32;
const MAX_VERSIONS = 64;
/** Versions older than this are dropped by compaction (a reader in another process may still be on one). */
const KEEP_VERSIONS_MS = 10_000;
const EXPORT_PAGE = 500;
const LOAD_COLUMNS = COLUMNS.filter((c) => c !== 'body');

/**
 * `access`: what the command needs (StoreOptions.access): only `create` makes the folder and table; a reader of a
 * folder it cannot write opens it read-only. `dir` may be an object-storage URL (`s3://bucket/prefix`, ADR 0231).
 */
export async function openLanceStore(
  dir: string,
  access: IndexAccess = 'create',
  storage: StorageSettings = {},
  vectorIndex: Partial<VectorIndexSettings> = {},
): Promise<LanceStore> {
  const lance = await loadLance();
  const place = await openTablePlace(lance, dir, access, storage);
  const store = new LanceStore(dir, place.db, place.table, place.readOnly, place, vectorIndexSettings(vectorIndex));
  if (place.readOnly === null) await store.upgradeLayout();
  await store.reload();
  return store;
}

interface Pending {
  rows: LanceRow[];
  docIds: string[];
  droppedEmbeddings: string[];
}

export class LanceStore implements Store {
  readonly path: string;
  private readonly db: Connection;
  private readonly table: Table;
  private model = new Model();
  private knownVersion = -1;
  private writes = 0;
  private closed = false;
  private bulkDepth = 0;
  private pending: Pending = { rows: [], docIds: [], droppedEmbeddings: [] };
  private queue: Promise<unknown> = Promise.resolve();
  private commitsSinceCompaction = 0;
  private stale = false;
  /** The table's `vector_<dims>` columns. */
  private columns = new Set<string>();
  /** Each vector column's index state and the model it was read for. */
  private readonly indexStates = new Map<string, { model: Model; state: VectorIndexState | null }>();

  private readonly readOnlyReason: string | null;
  private readonly place: TablePlace;
  private readonly vectorIndex: VectorIndexSettings;

  constructor(
    dir: string,
    db: Connection,
    table: Table,
    readOnly: string | null,
    place: TablePlace,
    vectorIndex: VectorIndexSettings = DEFAULT_VECTOR_INDEX,
  ) {
    this.path = dir;
    this.vectorIndex = vectorIndex;
    this.readOnlyReason = readOnly;
    this.db = db;
    this.table = table;
    this.place = place;
  }

  /** The sync locks of an index in a bucket (ADR 0230); null for a local folder (lock files beside it). */
  connectorLocks(): ConnectorLocks | null {
    return this.place.connectorLocks;
  }

  // ---- freshness ----

  private writtenVersion(): number {
    return this.place.writtenVersion();
  }

  /**
   * Moves vectors of the first layout (one variable-length `vector` column) into `vector_<dims>` columns:
   * one commit per length, then one that clears `vector` (a crash in between: the next open does it again;
   * one update setting both loses the cast value in Lance 0.31). A table without such rows is left alone.
   */
  async upgradeLayout(): Promise<void> {
    if (!(await this.table.schema()).fields.some((f) => f.name === 'terms'))
      await this.commit((t) => t.addColumns([{ name: 'terms', valueSql: 'CAST(NULL AS STRING)' }]));
    const old = "kind = 'emb' AND vector IS NOT NULL";
    if ((await this.table.countRows(old)) === 0) return;
    const rows = await this.table.query().where(old).select(['dims']).toArrow();
    const dims = new Set<number>();
    for (let i = 0; i < rows.numRows; i++) dims.add(rows.getChild('dims')?.get(i) as number);
    for (const d of dims) {
      await this.addVectorColumn(d);
      await this.commit((t) =>
        t.update({
          where: `${old} AND dims = ${d}`,
          valuesSql: { [vectorColumn(d)]: `arrow_cast(vector, '${vectorColumnType(d)}')` },
        }),
      );
    }
    await this.commit((t) => t.update({ where: old, valuesSql: { vector: 'NULL' } }));
  }

  /** Adds the column for vectors of `dims` dimensions unless the table has it (another process may have added it). */
  private async addVectorColumn(dims: number): Promise<void> {
    const column = vectorColumn(dims);
    if (this.columns.has(column)) return;
    await this.flush();
    await this.queue;
    this.columns = await vectorColumns(this.table);
    if (this.columns.has(column)) return;
    await this.commit(async (t) => {
      if ((await vectorColumns(t)).has(column)) return { version: await t.version() };
      return t.addColumns([{ name: column, valueSql: `arrow_cast(NULL, '${vectorColumnType(dims)}')` }]);
    });
    this.columns.add(column);
  }

  /** Loads the model from the latest table version. */
  async reload(): Promise<void> {
    const version = await this.table.version();
    this.columns = await vectorColumns(this.table);
    // A read-only table of the first layout has no `terms` column: its chunks are analysed here.
    const names = new Set((await this.table.schema()).fields.map((f) => f.name));
    const columns = LOAD_COLUMNS.filter((c) => names.has(c));
    const rows = plainRows(await this.table.query().select(columns).toArrow(), columns);
    const model = new Model();
    const chunksOf = new Map<string, { chunk: Chunk; seq: number; terms: RowTerms | undefined }[]>();
    const embeddings: [string, Record<string, unknown>][] = [];
    const docs: Record<string, unknown>[] = [];
    // Documents with chunks written before chunks had lines: an empty content hash makes the next sync rewrite them.
    const unplaced = new Set<string>();
    for (const r of rows) {
      switch (r['kind']) {
        case 'doc':
          docs.push(r);
          break;
        case 'chunk': {
          const documentId = r['doc_id'] as string;
          const list = chunksOf.get(documentId) ?? [];
          const { chunk, placed } = toChunk(r);
          list.push({ chunk, seq: r['seq'] as number, terms: decodeRowTerms((r['terms'] as string | null) ?? null) });
          if (!placed) unplaced.add(documentId);
          chunksOf.set(documentId, list);
          break;
        }
        case 'emb':
          embeddings.push([(r['row_key'] as string).slice(2), r]);
          break;
        case 'state':
          model.states.set(r['connector'] as string, {
            checkpoint: (r['checkpoint'] as string | null) ?? null,
            lastSyncAt: (r['last_sync_at'] as string | null) ?? null,
          });
          break;
        case 'run':
          model.runs.set(r['connector'] as string, toSyncRun(r));
          break;
      }
    }
    docs.sort((a, b) => (a['seq'] as number) - (b['seq'] as number));
    for (const r of docs) {
      const id = r['doc_id'] as string;
      const chunks = (chunksOf.get(id) ?? []).sort((a, b) => a.chunk.chunkIndex - b.chunk.chunkIndex);
      model.putDocument(
        {
          head: toHead(r),
          contentType: r['content_type'] as string,
          metadata: parseMetadata(r['metadata']),
          fingerprint: unplaced.has(id) ? null : ((r['fingerprint'] as string | null) ?? null),
          contentHash: unplaced.has(id) ? '' : (r['content_hash'] as string),
          seq: r['seq'] as number,
        },
        chunks,
      );
    }
    for (const [chunkId, r] of embeddings) {
      model.setEmbedding(chunkId, {
        model: r['model'] as string,
        dims: r['dims'] as number,
        contentHash: r['content_hash'] as string,
      });
    }
    this.model = model;
    this.knownVersion = version;
    this.stale = false;
  }

  /** The model, reloaded first when another process committed since (or a write of ours failed). */
  private async fresh(): Promise<Model> {
    this.assertOpen();
    if (this.pending.docIds.length === 0 && this.bulkDepth === 0) {
      await this.queue;
      await this.place.refresh();
      if (this.stale || this.writtenVersion() > this.knownVersion) await this.reload();
    }
    return this.model;
  }

  /**
   * The model at the latest commit even inside a bulk group: a connector's sync starts here (after it
   * took the connector's lock, maybe while another process synced it), so it compares against what was
   * committed meanwhile instead of its opening snapshot. The group's open writes are committed first.
   */
  private async latest(): Promise<Model> {
    this.assertOpen();
    if (this.bulkDepth > 0) {
      await this.flush();
      await this.place.refresh();
      if (this.stale || this.writtenVersion() > this.knownVersion) await this.reload();
      return this.model;
    }
    return this.fresh();
  }

  generation(): string {
    return `${this.writtenVersion()}:${this.writes}`;
  }

  private assertOpen(): void {
    if (this.closed) throw new KbctxError('internal', `the LanceDB index at ${this.path} is closed`);
  }

  // ---- writing ----

  /** Runs one commit after the ones before it; records the version it made. */
  private commit(write: (table: Table) => Promise<{ version: number }>): Promise<void> {
    const run = this.queue.then(async () => {
      try {
        const { version } = await this.place.withWriteLock(() => write(this.table));
        // Another process committed in between: its rows are not in the model.
        if (version !== this.knownVersion + 1) this.stale = true;
        this.knownVersion = version;
        this.commitsSinceCompaction++;
        // Syncs that never call compact() (a watcher's few-path syncs) still get compaction.
        if (this.commitsSinceCompaction >= MAX_VERSIONS && this.bulkDepth === 0)
          void this.compact().catch(() => undefined);
        this.place.wrote(version);
      } catch (error) {
        this.stale = true;
        throw error;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private flush(): Promise<void> {
    const { rows, docIds, droppedEmbeddings } = this.pending;
    if (docIds.length === 0) return this.queue.then(() => undefined);
    this.pending = { rows: [], docIds: [], droppedEmbeddings: [] };
    let where = `(kind IN ('doc', 'chunk') AND doc_id IN ${sqlList(docIds)})`;
    if (droppedEmbeddings.length > 0)
      where += ` OR (kind = 'emb' AND row_key IN ${sqlList(droppedEmbeddings.map(embKey))})`;
    // The last row written for a key wins (a document upserted twice in one group).
    const byKey = new Map(rows.map((r) => [r.row_key, r]));
    return this.commit((t) =>
      t
        .mergeInsert('row_key')
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .whenNotMatchedBySourceDelete({ where })
        .execute([...byKey.values()]),
    );
  }

  private nextSeq(): number {
    // Above every seq seen, and unlikely to meet another process's (time-based, microsecond steps).
    const seq = Math.max(this.model.maxSeq + 1, Date.now() * 1000);
    this.model.maxSeq = seq;
    return seq;
  }

  async documentStates(connector: string): Promise<Map<string, DocumentState>> {
    const model = await this.latest();
    const out = new Map<string, DocumentState>();
    for (const d of model.docs.values()) {
      if (d.head.connector === connector)
        out.set(d.head.id, {
          id: d.head.id,
          source: d.head.source,
          sourceId: d.head.sourceId,
          fingerprint: d.fingerprint,
          contentHash: d.contentHash,
        });
    }
    return out;
  }

  async upsertDocument(
    doc: StoredDocument,
    chunks: readonly Chunk[],
    fingerprint: string | null,
  ): Promise<UpsertOutcome> {
    const model = await this.fresh();
    const old = model.docs.get(doc.id);
    const oldChunks = new Map((old?.chunkIds ?? []).map((id) => [id, model.chunks.get(id)!]));
    const newIds = new Set(chunks.map((c) => c.id));
    const removed = [...oldChunks.keys()].filter((id) => !newIds.has(id));
    const written = chunks.filter((c) => !oldChunks.has(c.id));
    const changed = chunks.filter((c) => {
      const was = oldChunks.get(c.id)?.chunk;
      return (
        was !== undefined &&
        (was.chunkIndex !== c.chunkIndex ||
          was.text !== c.text ||
          was.contentHash !== c.contentHash ||
          (was.lineStart ?? null) !== (c.lineStart ?? null) ||
          (was.lineEnd ?? null) !== (c.lineEnd ?? null) ||
          (was.symbol ?? null) !== (c.symbol ?? null) ||
          (was.lang ?? null) !== (c.lang ?? null))
      );
    });
    if (
      old &&
      written.length === 0 &&
      changed.length === 0 &&
      removed.length === 0 &&
      old.fingerprint === fingerprint &&
      old.contentHash === doc.contentHash &&
      sameHead(old.head, doc)
    ) {
      return { chunksWritten: 0, chunksDeleted: 0 };
    }
    this.writes++;
    const seq = old?.seq ?? this.nextSeq();
    const withSeqs = chunks.map((chunk) => ({
      chunk: { ...chunk },
      seq: oldChunks.get(chunk.id)?.seq ?? this.nextSeq(),
      terms: chunkTerms(doc.title, chunk),
    }));
    // A kept chunk whose content hash changed loses its vector (pending again); removed ones lose theirs.
    const dropped = [
      ...removed,
      ...changed.filter((c) => c.contentHash !== oldChunks.get(c.id)!.chunk.contentHash).map((c) => c.id),
    ].filter((id) => model.embeddings.has(id));
    const keptEmbeddings = new Map(
      [...oldChunks.keys()]
        .filter((id) => newIds.has(id) && !dropped.includes(id))
        .map((id) => [id, model.embeddings.get(id)]),
    );
    model.putDocument(
      {
        head: headOf(doc),
        contentType: doc.contentType,
        metadata: doc.metadata,
        fingerprint,
        contentHash: doc.contentHash,
        seq,
      },
      withSeqs,
    );
    for (const [id, e] of keptEmbeddings) if (e) model.setEmbedding(id, e);
    this.pending.rows.push(
      docRow(doc, fingerprint, seq),
      ...withSeqs.map((c) => chunkRow(c.chunk, c.seq, encodeRowTerms(c.terms))),
    );
    this.pending.docIds.push(doc.id);
    this.pending.droppedEmbeddings.push(...dropped);
    const outcome = { chunksWritten: written.length, chunksDeleted: removed.length };
    if (this.bulkDepth === 0 || this.pending.docIds.length >= GROUP_SIZE) await this.flush();
    return outcome;
  }

  async touchDocument(id: string, fingerprint: string | null): Promise<void> {
    const model = await this.fresh();
    const doc = model.docs.get(id);
    if (!doc) return;
    this.writes++;
    doc.fingerprint = fingerprint;
    await this.flush();
    await this.commit((t) =>
      t.update({
        where: `row_key = ${sqlString(docKey(id))}`,
        valuesSql: { fingerprint: fingerprint === null ? 'NULL' : sqlString(fingerprint) },
      }),
    );
  }

  async deleteDocuments(ids: readonly string[]): Promise<number> {
    const model = await this.fresh();
    const existing = ids.filter((id) => model.deleteDocument(id));
    if (existing.length === 0) return 0;
    this.writes++;
    await this.flush();
    await this.commit((t) => t.delete(`doc_id IN ${sqlList(existing)}`));
    return existing.length;
  }

  async beginBulk(): Promise<void> {
    this.assertOpen();
    this.bulkDepth++;
  }

  async endBulk(): Promise<void> {
    this.bulkDepth = Math.max(0, this.bulkDepth - 1);
    if (this.bulkDepth === 0) await this.flush();
  }

  async compact(): Promise<void> {
    this.assertOpen();
    if (this.bulkDepth > 0) return;
    await this.flush();
    await this.queue;
    if (this.commitsSinceCompaction === 0) return;
    const stats = await this.table.stats();
    if (stats.fragmentStats.numSmallFragments < MAX_FRAGMENTS && this.commitsSinceCompaction < MAX_VERSIONS) return;
    const run = this.queue.then(async () => {
      // optimize() also folds rows added since into the vector index, if there is one (vector-index.ts).
      await this.place.withWriteLock(() =>
        this.table.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_MS) }),
      );
      this.commitsSinceCompaction = 0;
      // Compaction commits a version with the same rows: the model stays as it is.
      this.knownVersion = await this.table.version();
    });
    this.queue = run.catch(() => undefined);
    await run;
  }

  async sourceState(connector: string): Promise<SourceState> {
    const model = await this.latest();
    return { ...(model.states.get(connector) ?? { checkpoint: null, lastSyncAt: null }) };
  }

  async setSourceState(connector: string, state: SourceState): Promise<void> {
    const model = await this.fresh();
    this.writes++;
    model.states.set(connector, { checkpoint: state.checkpoint, lastSyncAt: state.lastSyncAt });
    await this.flush();
    await this.commit((t) =>
      t
        .mergeInsert('row_key')
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .execute([stateRow(connector, state.checkpoint, state.lastSyncAt)]),
    );
  }

  async sourceStates(): Promise<ConnectorState[]> {
    const model = await this.fresh();
    return [...model.states.entries()].sort(([a], [b]) => compare(a, b)).map(([connector, s]) => ({ connector, ...s }));
  }

  async recordSyncRun(connector: string, run: SyncRun): Promise<void> {
    const model = await this.fresh();
    this.writes++;
    model.runs.set(connector, { ...run });
    await this.flush();
    await this.commit((t) =>
      t
        .mergeInsert('row_key')
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .execute([runRow(connector, run)]),
    );
  }

  async syncRuns(): Promise<ConnectorSyncRun[]> {
    const model = await this.fresh();
    return [...model.runs.entries()].sort(([a], [b]) => compare(a, b)).map(([connector, r]) => ({ connector, ...r }));
  }

  // ---- reading ----

  async getDocument(id: string): Promise<StoredDocument | null> {
    const model = await this.fresh();
    if (!model.docs.has(id)) return null;
    await this.flush();
    const [row] = await this.readRows(`row_key = ${sqlString(docKey(id))}`);
    return row ? toDocument(row) : null;
  }

  async getChunks(documentId: string): Promise<Chunk[]> {
    const model = await this.fresh();
    return (model.docs.get(documentId)?.chunkIds ?? []).map((id) => ({ ...model.chunks.get(id)!.chunk }));
  }

  async listDocuments(after: number, limit: number): Promise<{ documents: DocumentHead[]; last: number | null }> {
    const model = await this.fresh();
    const docs = [...model.docs.values()]
      .filter((d) => d.seq > after)
      .sort((a, b) => a.seq - b.seq)
      .slice(0, limit);
    return { documents: docs.map((d) => ({ ...d.head })), last: docs.length === limit ? docs.at(-1)!.seq : null };
  }

  async keywordSearch(query: KeywordQuery): Promise<KeywordResult> {
    return queries.keywordSearch(await this.fresh(), query);
  }

  async pendingEmbeddings(
    space: { model: string; dims: number | null },
    afterRowid: number,
    limit: number,
  ): Promise<PendingChunk[]> {
    return queries.pendingEmbeddings(await this.fresh(), space, afterRowid, limit);
  }

  async countPendingEmbeddings(space: { model: string; dims: number | null }): Promise<number> {
    return queries.countPendingEmbeddings(await this.fresh(), space);
  }

  async writeEmbeddings(space: EmbeddingSpace, rows: readonly EmbeddingWrite[]): Promise<number> {
    const model = await this.fresh();
    const writes: LanceRow[] = [];
    for (const r of rows) {
      const entry = model.chunkBySeq(r.rowid);
      if (!entry || entry.chunk.contentHash !== r.contentHash || r.vector.length !== space.dims) continue;
      model.setEmbedding(entry.chunk.id, { model: space.model, dims: space.dims, contentHash: r.contentHash });
      writes.push(embRow(entry.chunk.id, entry.chunk.documentId, space.model, r.contentHash, r.vector));
    }
    return this.writeEmbeddingRows(writes);
  }

  async importEmbeddings(rows: readonly StoredEmbedding[]): Promise<number> {
    const model = await this.fresh();
    const writes: LanceRow[] = [];
    for (const r of rows) {
      const entry = model.chunks.get(r.chunkId);
      if (!entry || entry.chunk.contentHash !== r.contentHash || r.vector.length !== r.dims) continue;
      model.setEmbedding(r.chunkId, { model: r.model, dims: r.dims, contentHash: r.contentHash });
      writes.push(embRow(r.chunkId, entry.chunk.documentId, r.model, r.contentHash, r.vector));
    }
    return this.writeEmbeddingRows(writes);
  }

  private async writeEmbeddingRows(rows: LanceRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    for (const d of new Set(rows.map((r) => r.dims!))) await this.addVectorColumn(d);
    this.writes++;
    await this.flush();
    await this.commit((t) => t.mergeInsert('row_key').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows));
    return rows.length;
  }

  /** Pages of EXPORT_PAGE embeddings by chunk id, each read from Lance in one query. */
  async *iterateEmbeddings(): AsyncGenerator<StoredEmbedding> {
    const model = await this.fresh();
    await this.flush();
    const ids = [...model.embeddings.keys()].sort(compare);
    const columns = [...this.columns];
    for (let i = 0; i < ids.length; i += EXPORT_PAGE) {
      const page = ids.slice(i, i + EXPORT_PAGE);
      const rows = await this.table
        .query()
        .where(`row_key IN ${sqlList(page.map(embKey))}`)
        .select(['row_key', 'model', 'dims', 'content_hash', ...columns])
        .toArrow();
      const found = new Map<string, StoredEmbedding>();
      for (let r = 0; r < rows.numRows; r++) {
        const dims = rows.getChild('dims')?.get(r) as number;
        const vector = (rows.getChild(vectorColumn(dims))?.get(r) as { toArray(): Float32Array } | null)?.toArray();
        if (!vector) continue;
        const chunkId = (rows.getChild('row_key')?.get(r) as string).slice(2);
        found.set(chunkId, {
          chunkId,
          model: rows.getChild('model')?.get(r) as string,
          dims,
          contentHash: rows.getChild('content_hash')?.get(r) as string,
          vector: Float32Array.from(vector),
        });
      }
      for (const id of page) {
        const e = found.get(id);
        if (e) yield e;
      }
    }
  }

  async clearEmbeddings(): Promise<number> {
    const model = await this.fresh();
    const n = model.clearEmbeddings();
    this.writes++;
    await this.flush();
    await this.commit((t) => t.delete("kind = 'emb'"));
    return n;
  }

  async embeddingSpaces(): Promise<EmbeddingSpaceCount[]> {
    return queries.embeddingSpaces(await this.fresh());
  }

  async vectorSearch(query: VectorQuery): Promise<VectorResult> {
    const model = await this.fresh();
    const column = vectorColumn(query.space.dims);
    const index = this.columns.has(column) ? await this.indexStateOf(column) : null;
    return lanceVectorSearch(this.table, this.columns, model, query, index);
  }

  /** The column's ANN index (vector-index.ts), read once per loaded model (a commit reloads it), not per query. */
  private async indexStateOf(column: string): Promise<VectorIndexState | null> {
    const known = this.indexStates.get(column);
    if (known && known.model === this.model) return known.state;
    const state = await vectorIndexState(this.table, column);
    this.indexStates.set(column, { model: this.model, state });
    return state;
  }

  async documentVectorScores(
    vector: Float32Array,
    space: EmbeddingSpace,
    documentIds: readonly string[],
  ): Promise<Map<string, number>> {
    return lanceDocumentScores(this.table, this.columns, await this.fresh(), vector, space, documentIds);
  }

  async refreshVectorIndex(space: EmbeddingSpace): Promise<VectorIndexReport> {
    const model = await this.fresh();
    const vectors = model.spaceSize(space.model, space.dims);
    if (this.readOnlyReason !== null || vectors < this.vectorIndex.threshold) return { vectors, index: 'none' };
    // The Lance ANN index (ADR 0229) on the space's `vector_<dims>` column, trained with the `cosine` distance the
    // vector query uses (lance-vectors.ts).
    const target = { column: vectorColumn(space.dims), distance: 'cosine', dims: space.dims } as const;
    if (!this.columns.has(target.column)) return { vectors, index: 'none' };
    const index = await refreshLanceVectorIndex(
      await loadLance(),
      this.table,
      target,
      this.vectorIndex,
      () =>
        this.place.withWriteLock(() =>
          this.table.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_MS) }),
        ),
      // lance-vectors.ts's prefilter is `doc_id IN (...)`: a BTREE makes it an index lookup (ADR 0235).
      [{ column: 'doc_id', index: 'btree' }],
    );
    this.indexStates.clear();
    return { vectors, index };
  }

  async sources(): Promise<SourceStats[]> {
    return queries.sources(await this.fresh());
  }

  async counts(): Promise<StoreCounts> {
    return queries.counts(await this.fresh());
  }

  /** Reads the table afresh and compares it with the keyword index the searches use. */
  async readOnly(): Promise<string | null> {
    return this.readOnlyReason;
  }

  async checkIntegrity(): Promise<IntegrityReport> {
    const model = await this.fresh();
    await this.flush();
    return tableIntegrity(model, await this.table.query().select(['row_key', 'kind', 'doc_id']).toArrow());
  }

  async sizeBytes(): Promise<number> {
    this.assertOpen();
    return this.place.sizeBytes();
  }

  async exportAll(): Promise<{ documents: StoredDocument[]; chunks: Chunk[] }> {
    const documents: StoredDocument[] = [];
    const chunks: Chunk[] = [];
    for await (const d of this.documentsWithChunks()) {
      documents.push(d.document);
      chunks.push(...d.chunks);
    }
    return { documents, chunks };
  }

  async *iterateDocuments(): AsyncGenerator<StoredDocument> {
    for await (const d of this.documentsWithChunks()) yield d.document;
  }

  async *iterateChunks(): AsyncGenerator<Chunk> {
    for await (const d of this.documentsWithChunks()) yield* d.chunks;
  }

  /**
   * Documents in export order with their chunks, EXPORT_PAGE documents per query: a document and its
   * chunks come from one query, so from one table version, whatever another process commits meanwhile.
   */
  private async *documentsWithChunks(): AsyncGenerator<{ document: StoredDocument; chunks: Chunk[] }> {
    const ids = await this.exportOrder();
    for (let i = 0; i < ids.length; i += EXPORT_PAGE) {
      const page = ids.slice(i, i + EXPORT_PAGE);
      const found = new Map<string, { document?: StoredDocument; chunks: Chunk[] }>();
      const entry = (id: string) => found.get(id) ?? found.set(id, { chunks: [] }).get(id)!;
      for (const r of await this.readRows(`kind IN ('doc', 'chunk') AND doc_id IN ${sqlList(page)}`)) {
        const id = r['doc_id'] as string;
        if (r['kind'] === 'doc') entry(id).document = toDocument(r);
        else entry(id).chunks.push(toChunk(r).chunk);
      }
      for (const id of page) {
        const d = found.get(id);
        if (d?.document) yield { document: d.document, chunks: d.chunks.sort((a, b) => a.chunkIndex - b.chunkIndex) };
      }
    }
  }

  /** Document ids by source, then source id. */
  private async exportOrder(): Promise<string[]> {
    const model = await this.fresh();
    await this.flush();
    return [...model.docs.values()]
      .sort((a, b) => compare(a.head.source, b.head.source) || compare(a.head.sourceId, b.head.sourceId))
      .map((d) => d.head.id);
  }

  private async readRows(where: string): Promise<Record<string, unknown>[]> {
    return plainRows(
      await this.table
        .query()
        .where(where)
        .select([...COLUMNS])
        .toArrow(),
      COLUMNS,
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.bulkDepth = 0;
    try {
      await this.flush();
      await this.queue;
    } finally {
      this.closed = true;
      await this.place.close();
      this.table.close();
      this.db.close();
    }
  }
}
