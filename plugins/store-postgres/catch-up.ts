// Brings a mirror (mirror.ts) in step with PostgreSQL, in one REPEATABLE READ snapshot:
//
// 1. Read kbctx_meta (epoch, committed version = the target). Another epoch, a watermark no longer in
//    kbctx_commits with its token (a restored database, commits lost in a crash), or data without a
//    state: wipe the mirror.
// 2. In mirror bulk mode, for changes with watermark < version <= target: delete tombstoned documents;
//    clear embeddings if a clear happened; upsert changed documents with their chunks (in position order,
//    batches of DOC_BATCH); sync states; import changed embeddings by chunk id (batches of EMBEDDING_BATCH).
// 3. Commit the mirror (endBulk), then move its watermark to the target (never before: crash-safe).
// 4. Compact the mirror's keyword index when COMPACT_AFTER documents changed, unless told to wait:
//    while this replica's own bulk write runs, its catch-ups only count what they applied, and the first
//    catch-up after the bulk compacts once (one compaction per sync, as on SQLite, not one per catch-up).
import { chunkFromRecord, type Chunk, type ChunkRecord, type StoredEmbedding } from '../../core/api/plugin.ts';
import type pg from 'pg';
import type { Mirror, MirrorState } from './mirror.ts';

const DOC_BATCH = 500;
const EMBEDDING_BATCH = 2000;
/** After this many changed documents the mirror's keyword index is compacted (what sync does on SQLite). */
const COMPACT_AFTER = 1000;

export interface CatchUpReport {
  from: string;
  to: string;
  documents: number;
  deleted: number;
  embeddings: number;
  wiped: boolean;
}

interface DocRow {
  id: string;
  position: string;
  connector: string;
  source: string;
  source_id: string;
  source_url: string | null;
  title: string;
  body: string;
  content_type: string;
  metadata: string;
  updated_at: string;
  content_hash: string;
  fingerprint: string | null;
}

export async function catchUp(
  client: pg.PoolClient,
  mirror: Mirror,
  options: { deferCompaction: boolean },
): Promise<CatchUpReport> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const report = await apply(client, mirror);
    await client.query('COMMIT');
    if (options.deferCompaction) mirror.deferred += report.documents;
    else if (report.documents + mirror.deferred >= COMPACT_AFTER) await mirror.compact();
    return report;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function apply(client: pg.PoolClient, mirror: Mirror): Promise<CatchUpReport> {
  const meta = (
    await client.query<{ epoch: string; version: string; token: string | null }>(
      `SELECT m.epoch, m.version::text AS version, c.token FROM kbctx_meta m LEFT JOIN kbctx_commits c ON ` +
        `c.version = m.version WHERE m.id = 1`,
    )
  ).rows[0]!;
  const state = mirror.state();
  // No state: a new mirror (nothing to wipe) or one whose first catch-up was cut short (wiped).
  const wiped =
    state === null ? !(await mirror.isEmpty()) : state.epoch !== meta.epoch || !(await inHistory(client, state));
  if (wiped) await mirror.wipe();
  const from = state === null || wiped ? '0' : state.version;
  const report: CatchUpReport = { from, to: meta.version, documents: 0, deleted: 0, embeddings: 0, wiped };
  if (!wiped && from === meta.version) return report;
  const range = [from, meta.version];
  const store = mirror.store;
  await store.beginBulk();
  try {
    const events = (
      await client.query<{ kind: string; document_id: string | null }>(
        'SELECT kind, document_id FROM kbctx_events WHERE version > $1 AND version <= $2 ORDER BY version',
        range,
      )
    ).rows;
    const tombstones = events
      .filter((e) => e.kind === 'delete_document' && e.document_id !== null)
      .map((e) => e.document_id!);
    if (tombstones.length > 0) report.deleted = await store.deleteDocuments(tombstones);
    if (events.some((e) => e.kind === 'clear_embeddings')) await store.clearEmbeddings();
    report.documents = await applyDocuments(client, mirror, range);
    const states = (
      await client.query<{ connector: string; checkpoint: string | null; last_sync_at: string | null }>(
        'SELECT connector, checkpoint, last_sync_at FROM kbctx_sync_state WHERE version > $1 AND version <= $2',
        range,
      )
    ).rows;
    for (const s of states)
      await store.setSourceState(s.connector, { checkpoint: s.checkpoint, lastSyncAt: s.last_sync_at });
    report.embeddings = await applyEmbeddings(client, mirror, range);
  } finally {
    await store.endBulk();
  }
  mirror.setState({ epoch: meta.epoch, version: meta.version, token: meta.token });
  return report;
}

/** Whether the version the mirror holds is still in PostgreSQL's history (not lost to a restore or a crash). */
async function inHistory(client: pg.PoolClient, state: MirrorState): Promise<boolean> {
  if (state.version === '0') return true;
  const row = (
    await client.query<{ token: string }>('SELECT token FROM kbctx_commits WHERE version = $1', [state.version])
  ).rows[0];
  return row !== undefined && row.token === state.token;
}

async function applyDocuments(client: pg.PoolClient, mirror: Mirror, range: string[]): Promise<number> {
  let after = '0';
  let applied = 0;
  for (;;) {
    const docs = (
      await client.query<DocRow>(
        `SELECT id, position::text AS position, connector, source, source_id, source_url, title, body, content_type,
          metadata,
         updated_at, content_hash, fingerprint
       FROM kbctx_documents d WHERE d.version > $1 AND d.version <= $2 AND d.position > $3 ORDER BY d.position
         LIMIT $4`,
        [...range, after, DOC_BATCH],
      )
    ).rows;
    if (docs.length === 0) return applied;
    const chunks = new Map<string, Chunk[]>();
    const rows = (
      await client.query<ChunkRecord>(
        'SELECT id, document_id, chunk_index, text, content_hash, line_start, line_end, symbol, lang FROM ' +
          'kbctx_chunks WHERE document_id = ANY($1::text[]) ORDER BY document_id, chunk_index',
        [docs.map((d) => d.id)],
      )
    ).rows;
    for (const r of rows) {
      const list = chunks.get(r.document_id) ?? [];
      list.push(chunkFromRecord(r));
      chunks.set(r.document_id, list);
    }
    for (const d of docs) {
      await mirror.store.upsertDocument(
        {
          id: d.id,
          connector: d.connector,
          source: d.source,
          sourceId: d.source_id,
          sourceUrl: d.source_url,
          title: d.title,
          body: d.body,
          contentType: d.content_type,
          metadata: JSON.parse(d.metadata) as Record<string, unknown>,
          updatedAt: d.updated_at,
          contentHash: d.content_hash,
        },
        chunks.get(d.id) ?? [],
        d.fingerprint,
      );
    }
    applied += docs.length;
    after = docs.at(-1)!.position;
  }
}

async function applyEmbeddings(client: pg.PoolClient, mirror: Mirror, range: string[]): Promise<number> {
  let after = { version: '0', rowid: '0' };
  let applied = 0;
  for (;;) {
    const rows = (
      await client.query<{
        version: string;
        rowid: string;
        id: string;
        model: string;
        dims: number;
        content_hash: string;
        vector: Buffer;
      }>(
        `SELECT e.version::text AS version, e.chunk_rowid::text AS rowid, c.id, e.model, e.dims, e.content_hash,
          e.vector
       FROM kbctx_embeddings e JOIN kbctx_chunks c ON c.rowid = e.chunk_rowid
       WHERE e.version > $1 AND e.version <= $2 AND (e.version, e.chunk_rowid) > ($3::bigint, $4::bigint)
       ORDER BY e.version, e.chunk_rowid LIMIT $5`,
        [...range, after.version, after.rowid, EMBEDDING_BATCH],
      )
    ).rows;
    if (rows.length === 0) return applied;
    const embeddings: StoredEmbedding[] = rows.map((r) => ({
      chunkId: r.id,
      model: r.model,
      dims: r.dims,
      contentHash: r.content_hash,
      vector: new Float32Array(r.vector.buffer.slice(r.vector.byteOffset, r.vector.byteOffset + r.vector.byteLength)),
    }));
    applied += await mirror.store.importEmbeddings(embeddings);
    after = { version: rows.at(-1)!.version, rowid: rows.at(-1)!.rowid };
  }
}
