// The LanceDB store (ADR 0125): one Lance table in the folder at [db] path (rows.ts). Durability and
// atomicity are Lance's: every write is one commit (a document with its chunks and the embeddings it
// drops: one merge-insert). Reads are answered from an in-memory model of the table (model.ts); keyword
// search reads the project's own postings from a Lance table of their own (postings-table.ts, ADR 0234);
// vectors are searched by Lance's own query on `vector_<dims>` columns (lance-vectors.ts, ADR 0227);
// document bodies are read from Lance.
//
// 1. Freshness: every commit writes the table version to `kbctx.generation` in the folder (on object storage:
//    the table's latest version is asked for, table-place.ts); a process that finds a version it did not
//    write reloads the model (readers see whole commits only).
// 2. Bulk mode groups upserts into one commit per GROUP_SIZE documents (a crash loses the open group at most);
//    other writes commit the group first. A group of new documents only is appended when no other commit came
//    since the model's: a merge-insert joins the whole table on `row_key`, a cost growing with it (ADR 0252).
// 3. compact() (after every sync that wrote) compacts Lance's fragments and drops versions older than
//    KEEP_VERSIONS_MS once there are MAX_FRAGMENTS small fragments or MAX_VERSIONS commits since the
//    last compaction; a commit that reaches MAX_VERSIONS starts one itself (a watcher's syncs never
//    call compact()). So the file count stays bounded after thousands of small syncs.
// 4. Postings: every commit is followed, under the same write lock, by the postings table's (store-postings.ts),
//    so its version is the main table's; a gap is caught up at the next writable open.
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
  type SourceFilter,
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
import {
  backfillStamps,
  type EmbStamp,
  restampRows,
  STAMP_INDEXES,
  StampIndex,
  stampOf,
  stampWhere,
} from './emb-stamp.ts';
import { lanceDocumentScores, lanceVectorSearch, vectorColumns } from './lance-vectors.ts';
import {
  DEFAULT_VECTOR_INDEX,
  refreshVectorIndex as refreshLanceVectorIndex,
  vectorIndexSettings,
  type VectorIndexSettings,
} from './vector-index.ts';
import { VectorIndexStates } from './vector-index-states.ts';
import { chunkMeta, chunkTerms, Model, type ChunkMeta } from './model.ts';
import { loadModel } from './model-load.ts';
import { StorePostings } from './store-postings.ts';
import type { PostingsChange, PostingsDoc } from './postings-changes.ts';
import { RowReader, type HeadRef } from './row-reader.ts';
import { planUpsert } from './upsert-plan.ts';
import { headSignature } from './head-signature.ts';
import { DocumentFilters } from './doc-filter.ts';
import { encodeRowTerms, type RowTerms } from './keyword-index.ts';
import { tableIntegrity } from './integrity.ts';
import { upgradeLayout as upgradeTableLayout } from './layout-upgrade.ts';
import { documentsWithChunks, embeddingsOf, exportOrder, rowsWhere } from './table-export.ts';
import * as queries from './model-queries.ts';
import * as embeddingState from './embedding-state.ts';
import { compare } from './model-queries.ts';
import {
  chunkRow,
  docKey,
  docRow,
  embKey,
  embRow,
  headOf,
  plainRows,
  sqlList,
  runRow,
  sqlString,
  stateRow,
  toDocument,
  toHead,
  vectorColumn,
  vectorColumnType,
  type LanceRow,
} from './rows.ts';

/** Documents per bulk commit: each commit's postings write still joins their table, so fewer pay less (ADR 0252). */
const GROUP_SIZE = 2_000;
const MAX_FRAGMENTS = 32;
const MAX_VERSIONS = 64;
/** Versions older than this are dropped by compaction (a reader in another process may still be on one). */
const KEEP_VERSIONS_MS = 10_000;

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
  // The postings' open (a catch-up, maybe) and the model's load read different tables: at once.
  await Promise.all([store.openPostings(), store.reload()]);
  return store;
}

interface Pending {
  rows: LanceRow[];
  docIds: string[];
  /** Whether a document of the group was in the model before it (then the commit must merge, not append). */
  replaces: boolean;
  droppedEmbeddings: string[];
  /** Documents rewritten with a new head: their kept emb rows get its stamp in the same commit (emb-stamp.ts). */
  stamps: Map<string, EmbStamp>;
  /** The documents' postings (the last put of an id wins). */
  postings: Map<string, PostingsDoc>;
}

const noPending = (): Pending => ({
  rows: [],
  docIds: [],
  replaces: false,
  droppedEmbeddings: [],
  stamps: new Map(),
  postings: new Map(),
});

export class LanceStore implements Store {
  readonly path: string;
  private readonly db: Connection;
  private readonly table: Table;
  private model = new Model();
  private readonly rowReader = new RowReader();
  private readonly filters = new DocumentFilters();
  /** The keyword postings kept in step with the table (set at open). */
  private postings: StorePostings | null = null;
  private knownVersion = -1;
  private writes = 0;
  private closed = false;
  private bulkDepth = 0;
  private pending: Pending = noPending();
  private queue: Promise<unknown> = Promise.resolve();
  private commitsSinceCompaction = 0;
  private stale = false;
  /** The table's `vector_<dims>` columns. */
  private columns = new Set<string>();
  /** Each vector column's index state, read once per loaded model. */
  private readonly indexStates = new VectorIndexStates();
  /** Whether the emb stamps are indexed, read once per loaded model. */
  private readonly stampIndex = new StampIndex();
  /** embeddingSpaces() at one table version and count of writes. */
  private spaces: { key: string; spaces: Promise<EmbeddingSpaceCount[]> } | null = null;

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

  /** Brings a table of an earlier layout to this one (layout-upgrade.ts). */
  async upgradeLayout(): Promise<void> {
    await upgradeTableLayout(
      this.table,
      (write) => this.commit(write),
      (dims) => this.addVectorColumn(dims),
    );
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

  /** Opens the keyword postings and catches them up (store-postings.ts). */
  async openPostings(): Promise<void> {
    this.postings = await StorePostings.open(this.db, this.table, this.place, this.readOnlyReason);
  }

  /** Runs a write that changes no document; the postings' version follows (store-postings.ts). */
  private postingsKept<T>(run: () => Promise<T>): Promise<T> {
    return this.postings ? this.postings.keeping(run) : run();
  }

  /** Loads the model from the latest table version (model-load.ts). */
  async reload(): Promise<void> {
    const version = await this.table.version();
    this.columns = await vectorColumns(this.table);
    this.model = await loadModel(this.db, version);
    await this.postings?.table?.refresh();
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
  private commit(
    write: (table: Table) => Promise<{ version: number }>,
    change: PostingsChange | null = null,
  ): Promise<void> {
    const run = this.queue.then(async () => {
      try {
        const { version } = await this.place.withWriteLock(async () => {
          const made = await write(this.table);
          await this.postings?.keep(change, made.version, this.bulkDepth > 0);
          return made;
        });
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
    const { rows, docIds, droppedEmbeddings, stamps, postings, replaces } = this.pending;
    if (docIds.length === 0) return this.queue.then(() => undefined);
    this.pending = noPending();
    const docs = [...postings.values()];
    const change: PostingsChange = {
      put: docs.filter((d) => d.chunks.length > 0),
      remove: docs.filter((d) => d.chunks.length === 0).map((d) => d.id),
    };
    const appendable = !replaces && droppedEmbeddings.length === 0 && stamps.size === 0 && change.remove.length === 0;
    const held = this.rowReader.seal();
    let where = `(kind IN ('doc', 'chunk') AND doc_id IN ${sqlList(docIds)})`;
    if (droppedEmbeddings.length > 0)
      where += ` OR (kind = 'emb' AND row_key IN ${sqlList(droppedEmbeddings.map(embKey))})`;
    // The last row written for a key wins (a document upserted twice in one group).
    const byKey = new Map(rows.map((r) => [r.row_key, r]));
    const model = this.model;
    return this.commit(async (t) => {
      // Under the write lock: at the model's version no row of these new documents exists, so an append adds
      // exactly what the merge-insert would, without joining the table (ADR 0252).
      if (appendable && !this.stale && model === this.model && (await t.version()) === this.knownVersion) {
        change.appended = true;
        return t.add([...byKey.values()]);
      }
      // Read under the write lock, so no other writer changes these emb rows before the commit.
      const restamped = await restampRows(t, stamps, new Set(droppedEmbeddings.map(embKey)));
      return t
        .mergeInsert('row_key')
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .whenNotMatchedBySourceDelete({ where })
        .execute([...byKey.values(), ...restamped]);
    }, change).finally(() => this.rowReader.committed(held));
  }

  private nextSeq(): number {
    // Above every seq seen, and unlikely to meet another process's (time-based, microsecond steps).
    const seq = Math.max(this.model.maxSeq + 1, Date.now() * 1000);
    this.model.maxSeq = seq;
    return seq;
  }

  async documentStates(connector: string): Promise<Map<string, DocumentState>> {
    const model = await this.latest();
    // This connector's documents' heads, read from Lance (ADR 0233); the heads' signatures the model lacks are
    // set here, so the sync's upserts need not read them one by one (ADR 0243).
    const columns = ['doc_id', 'source', 'connector', 'source_id', 'source_url', 'title', 'updated_at'];
    const where = `kind = 'doc' AND connector = ${sqlString(connector)}`;
    const rows = plainRows(await this.table.query().where(where).select(columns).toArrow(), columns);
    const out = new Map<string, DocumentState>();
    for (const r of rows) {
      const d = model.docs.get(r['doc_id'] as string);
      if (d?.connector !== connector) continue;
      d.headSig ??= headSignature(toHead(r));
      out.set(d.id, {
        id: d.id,
        source: r['source'] as string,
        sourceId: r['source_id'] as string,
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
    const known = model.docs.get(doc.id);
    // A loaded model does not know the heads' signatures (ADR 0243): reading the head sets it.
    if (known?.headSig === null) await this.readRows([], [known]);
    const plan = planUpsert(model, doc, chunks, fingerprint);
    if (!plan) return { chunksWritten: 0, chunksDeleted: 0 };
    this.writes++;
    const old = model.docs.get(doc.id);
    if (old) this.pending.replaces = true;
    const seq = old?.seq ?? this.nextSeq();
    // The document's kept vectors carry its head's source and time (emb-stamp.ts): a new head restamps them.
    if (old && old.headSig !== plan.headSig) this.pending.stamps.set(doc.id, stampOf(doc));
    const oldSeqs = new Map((old?.chunkIds ?? []).map((id) => [id, model.chunks.get(id)!.seq]));
    const withSeqs = chunks.map((chunk) => ({
      chunk: chunkMeta(chunk),
      seq: oldSeqs.get(chunk.id) ?? this.nextSeq(),
      terms: storedTerms(chunkTerms(doc.title, chunk)),
    }));
    model.putDocument(
      { id: doc.id, connector: doc.connector, headSig: plan.headSig, fingerprint, contentHash: doc.contentHash, seq },
      withSeqs,
    );
    this.pending.rows.push(
      docRow(doc, fingerprint, seq),
      ...chunks.map((c, i) => chunkRow(c, withSeqs[i]!.seq, withSeqs[i]!.terms.stored!)),
    );
    this.rowReader.hold(headOf(doc), chunks);
    this.pending.docIds.push(doc.id);
    this.pending.postings.set(doc.id, {
      id: doc.id,
      chunks: chunks.map((c, i) => ({ id: c.id, terms: withSeqs[i]!.terms })),
    });
    this.pending.droppedEmbeddings.push(...plan.dropped);
    const outcome = { chunksWritten: plan.written, chunksDeleted: plan.removed.length };
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
    await this.commit((t) => t.delete(`doc_id IN ${sqlList(existing)}`), { put: [], remove: existing });
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
    await this.tidyKeywordIndexes();
    const stats = await this.table.stats();
    if (stats.fragmentStats.numSmallFragments < MAX_FRAGMENTS && this.commitsSinceCompaction < MAX_VERSIONS) return;
    const run = this.queue.then(async () => {
      // optimize() also folds rows added since into the vector index, if there is one (vector-index.ts).
      await this.postingsKept(() =>
        this.place.withWriteLock(() =>
          this.table.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_MS) }),
        ),
      );
      this.commitsSinceCompaction = 0;
      // Compaction commits a version with the same rows: the model stays as it is.
      this.knownVersion = await this.table.version();
    });
    this.queue = run.catch(() => undefined);
    await run;
  }

  /** The indexes keyword search reads through, brought up to date (store-postings.ts, ADR 0245). */
  private async tidyKeywordIndexes(): Promise<void> {
    const postings = this.postings;
    if (!postings) return;
    const run = this.queue.then(async () => {
      const moved = await postings.tidyIndexes();
      // Creating the main table's index commits a version with the same rows: the model stays as it is unless
      // another commit came in between.
      if (moved && this.knownVersion === moved.before && moved.after === moved.before + 1)
        this.knownVersion = moved.after;
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
    const [row] = await rowsWhere(this.table, `row_key = ${sqlString(docKey(id))}`);
    return row ? toDocument(row) : null;
  }

  async getChunks(documentId: string): Promise<Chunk[]> {
    const model = await this.fresh();
    const chunks = (model.docs.get(documentId)?.chunkIds ?? []).map((id) => model.chunks.get(id)!.chunk);
    const read = await this.readRows(chunks);
    return chunks.flatMap((c) => read.chunks.get(c.id) ?? []);
  }

  private readonly readRows = (chunks: readonly ChunkMeta[], docs: readonly HeadRef[] = []) =>
    this.rowReader.read(this.table, chunks, docs);

  /** The documents the search filter lets through (doc-filter.ts), judged at the model's version. */
  private allowed(filter: SourceFilter | undefined): Promise<ReadonlySet<string> | undefined> {
    const uncommitted = this.pending.rows.filter((r) => r.kind === 'doc');
    return this.filters.allowed(this.table, this.knownVersion, filter, uncommitted);
  }

  async listDocuments(after: number, limit: number): Promise<{ documents: DocumentHead[]; last: number | null }> {
    const model = await this.fresh();
    const docs = [...model.docs.values()]
      .filter((d) => d.seq > after)
      .sort((a, b) => a.seq - b.seq)
      .slice(0, limit);
    const { heads } = await this.readRows([], docs);
    return {
      documents: docs.flatMap((d) => heads.get(d.id) ?? []),
      last: docs.length === limit ? docs.at(-1)!.seq : null,
    };
  }

  async keywordSearch(query: KeywordQuery): Promise<KeywordResult> {
    const model = await this.fresh();
    // The bulk group's documents are searched too: it is committed (with its postings) first.
    await this.flush();
    const source = await this.postings!.source(this.knownVersion, this.path, this.readOnlyReason);
    return queries.keywordSearch(model, source, query, await this.allowed(query.filter), this.readRows);
  }

  async pendingEmbeddings(
    space: { model: string; dims: number | null },
    afterRowid: number,
    limit: number,
  ): Promise<PendingChunk[]> {
    const model = await this.fresh();
    return embeddingState.pendingEmbeddings(this.table, model, space, afterRowid, limit, this.readRows);
  }

  async countPendingEmbeddings(space: { model: string; dims: number | null }): Promise<number> {
    return embeddingState.countPendingEmbeddings(this.table, await this.fresh(), space);
  }

  async writeEmbeddings(space: EmbeddingSpace, rows: readonly EmbeddingWrite[]): Promise<number> {
    const model = await this.fresh();
    const found = rows.map((r) => ({ ...r, ...space, entry: model.chunkBySeq(r.rowid) }));
    return this.writeEmbeddingRows(await this.stampedEmbRows(model, found));
  }

  async importEmbeddings(rows: readonly StoredEmbedding[]): Promise<number> {
    const model = await this.fresh();
    return this.writeEmbeddingRows(
      await this.stampedEmbRows(
        model,
        rows.map((r) => ({ ...r, entry: model.chunks.get(r.chunkId) })),
      ),
    );
  }

  /**
   * The emb rows of the vectors whose chunk is current (same content hash, the space's dims), each with its
   * document's stamp (emb-stamp.ts) from its head, read through the row reader's cache.
   */
  private async stampedEmbRows(
    model: Model,
    rows: readonly (Omit<StoredEmbedding, 'chunkId'> & { entry: { chunk: ChunkMeta } | undefined })[],
  ): Promise<LanceRow[]> {
    const ids = new Set(rows.flatMap((r) => (r.entry ? [r.entry.chunk.documentId] : [])));
    const { heads } = await this.readRows(
      [],
      [...ids].flatMap((id) => model.docs.get(id) ?? []),
    );
    const stamps = new Map([...heads].map(([id, head]) => [id, stampOf(head)]));
    return rows.flatMap(({ entry, ...r }) => {
      const stamp = entry && stamps.get(entry.chunk.documentId);
      if (!entry || !stamp || entry.chunk.contentHash !== r.contentHash || r.vector.length !== r.dims) return [];
      return [embRow(entry.chunk.id, entry.chunk.documentId, r.model, r.contentHash, r.vector, stamp)];
    });
  }

  private async writeEmbeddingRows(rows: LanceRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    for (const d of new Set(rows.map((r) => r.dims!))) await this.addVectorColumn(d);
    this.writes++;
    await this.flush();
    await this.commit((t) => t.mergeInsert('row_key').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows));
    return rows.length;
  }

  /** The stored embeddings by chunk id, read from Lance in pages (table-export.ts). */
  async *iterateEmbeddings(): AsyncGenerator<StoredEmbedding> {
    await this.fresh();
    await this.flush();
    yield* embeddingsOf(this.table, await embeddingState.embeddedChunkIds(this.table), [...this.columns]);
  }

  async clearEmbeddings(): Promise<number> {
    await this.fresh();
    this.writes++;
    await this.flush();
    await this.queue;
    const n = await this.table.countRows("kind = 'emb'");
    await this.commit((t) => t.delete("kind = 'emb'"));
    return n;
  }

  /** Vectors per space (embedding-state.ts), read once per table version and write of ours. */
  async embeddingSpaces(): Promise<EmbeddingSpaceCount[]> {
    await this.fresh();
    const key = `${this.knownVersion}:${this.writes}`;
    if (this.spaces?.key !== key) this.spaces = { key, spaces: embeddingState.embeddingSpaces(this.table) };
    const { spaces } = this.spaces;
    return spaces.then(
      (list) => list.map((s) => ({ ...s })),
      (error: unknown) => {
        if (this.spaces?.spaces === spaces) this.spaces = null;
        throw error;
      },
    );
  }

  /** How many vectors `space` has, and whether another model's share its `vector_<dims>` column. */
  private async spaceOf(space: EmbeddingSpace): Promise<{ size: number; shared: boolean }> {
    const spaces = await this.embeddingSpaces();
    return {
      size: spaces.find((s) => s.model === space.model && s.dims === space.dims)?.count ?? 0,
      shared: spaces.some((s) => s.dims === space.dims && s.model !== space.model),
    };
  }

  async vectorSearch(query: VectorQuery): Promise<VectorResult> {
    const model = await this.fresh();
    const column = vectorColumn(query.space.dims);
    const index = this.columns.has(column) ? await this.indexStates.of(this.table, column, model) : null;
    const reads = {
      allowed: await this.allowed(query.filter),
      // Before refreshVectorIndex stamped the emb rows and indexed `source`, every row would pass it (ADR 0246).
      prefilter: (await this.stampIndex.indexed(this.table, model)) ? stampWhere(query.filter) : undefined,
      exactMax: this.vectorIndex.exactFilterMax,
      readRows: this.readRows,
      space: await this.spaceOf(query.space),
    };
    return lanceVectorSearch(this.table, this.columns, model, query, reads, index);
  }

  async documentVectorScores(
    vector: Float32Array,
    space: EmbeddingSpace,
    documentIds: readonly string[],
  ): Promise<Map<string, number>> {
    return lanceDocumentScores(this.table, this.columns, await this.fresh(), vector, space, documentIds);
  }

  async refreshVectorIndex(space: EmbeddingSpace): Promise<VectorIndexReport> {
    const vectors = (await this.spaceOf(space)).size;
    if (this.readOnlyReason !== null || vectors < this.vectorIndex.threshold) return { vectors, index: 'none' };
    // The Lance ANN index (ADR 0229) on the space's `vector_<dims>` column, trained with the `cosine` distance the
    // vector query uses (lance-vectors.ts).
    const target = { column: vectorColumn(space.dims), distance: 'cosine', dims: space.dims } as const;
    if (!this.columns.has(target.column)) return { vectors, index: 'none' };
    const lance = await loadLance();
    // Emb rows written before they carried their document's stamp get it here (ADR 0246): `kbctx embed` and migrate
    // run this after writing vectors.
    await this.fresh();
    await this.flush();
    await backfillStamps(this.table, (write) => this.commit(write));
    const index = await this.postingsKept(() =>
      refreshLanceVectorIndex(
        lance,
        this.table,
        target,
        this.vectorIndex,
        () =>
          this.place.withWriteLock(() =>
            this.table.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_MS) }),
          ),
        // lance-vectors.ts's narrow prefilter is `doc_id IN (...)`: a BTREE makes it an index lookup (ADR 0235);
        // its wider one reads the emb rows' stamps (ADR 0246).
        [{ column: 'doc_id', index: 'btree' }, ...STAMP_INDEXES],
      ),
    );
    this.indexStates.clear();
    this.stampIndex.forget();
    return { vectors, index };
  }

  async sources(): Promise<SourceStats[]> {
    return embeddingState.sources(this.table, await this.fresh());
  }

  async counts(): Promise<StoreCounts> {
    const model = await this.fresh();
    return queries.counts(model, await this.table.countRows("kind = 'emb'"));
  }

  async readOnly(): Promise<string | null> {
    return this.readOnlyReason;
  }

  /** Reads the table afresh and compares it with the keyword postings the searches read (their differences()). */
  async checkIntegrity(): Promise<IntegrityReport> {
    const model = await this.fresh();
    await this.flush();
    const check = (await this.postings?.check()) ?? null;
    return tableIntegrity(model, await this.table.query().select(['row_key', 'kind', 'doc_id']).toArrow(), check);
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

  /** Documents by source, then source id, with their chunks (table-export.ts). */
  private async *documentsWithChunks(): AsyncGenerator<{ document: StoredDocument; chunks: Chunk[] }> {
    const model = await this.fresh();
    await this.flush();
    yield* documentsWithChunks(this.table, await exportOrder(this.table, (id) => model.docs.has(id)));
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

/** A row's terms with their encoding (written in the chunk row and kept by the postings for removal). */
function storedTerms(terms: RowTerms): RowTerms {
  return { ...terms, stored: encodeRowTerms(terms) };
}
