// SQL for the PostgreSQL store's writes: documents and their chunks (diffed by id: unchanged chunks keep
// their row and embedding), deletions (recorded as events for the mirrors), sync state, embeddings.
// Each function runs inside one write transaction (transactions.ts) and stamps what it changes with its version.
import type { Chunk } from '../../core/models.ts';
import type { EmbeddingSpace, EmbeddingWrite, SourceState, StoredDocument, StoredEmbedding, UpsertOutcome } from '../store.ts';
import type { WriteTx } from './transactions.ts';

/** Float32 as little-endian bytes, exactly like the SQLite store's BLOBs. */
export function vectorBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export async function upsertDocument(tx: WriteTx, doc: StoredDocument, chunks: readonly Chunk[], fingerprint: string | null): Promise<UpsertOutcome> {
  const { client, version } = tx;
  // xmax = 0 on the returned row: it was inserted, not updated (a new document has no chunks to diff).
  const inserted = (await client.query<{ inserted: boolean }>(
    `INSERT INTO lore_documents (id, connector, source, source_id, source_url, title, body, content_type, metadata,
       updated_at, content_hash, fingerprint, indexed_at, version)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (id) DO UPDATE SET connector = excluded.connector, source = excluded.source, source_id = excluded.source_id,
       source_url = excluded.source_url, title = excluded.title, body = excluded.body, content_type = excluded.content_type,
       metadata = excluded.metadata, updated_at = excluded.updated_at, content_hash = excluded.content_hash,
       fingerprint = excluded.fingerprint, indexed_at = excluded.indexed_at, version = excluded.version
     RETURNING (xmax = 0) AS inserted`,
    [doc.id, doc.connector, doc.source, doc.sourceId, doc.sourceUrl, doc.title, doc.body, doc.contentType, JSON.stringify(doc.metadata),
      doc.updatedAt, doc.contentHash, fingerprint, new Date().toISOString(), version],
  )).rows[0]!.inserted;
  const old = new Map<string, number>();
  if (!inserted) {
    for (const r of (await client.query<{ id: string; chunk_index: number }>('SELECT id, chunk_index FROM lore_chunks WHERE document_id = $1', [doc.id])).rows) {
      old.set(r.id, r.chunk_index);
    }
  }
  const fresh = chunks.filter((c) => !old.has(c.id));
  const moved = chunks.filter((c) => old.has(c.id) && old.get(c.id) !== c.chunkIndex);
  const keep = new Set(chunks.map((c) => c.id));
  const gone = [...old.keys()].filter((id) => !keep.has(id));
  if (gone.length > 0) await client.query('DELETE FROM lore_chunks WHERE id = ANY($1::text[])', [gone]);
  if (moved.length > 0) {
    await client.query('UPDATE lore_chunks c SET chunk_index = u.idx FROM unnest($1::text[], $2::int[]) AS u(id, idx) WHERE c.id = u.id', [
      moved.map((c) => c.id),
      moved.map((c) => c.chunkIndex),
    ]);
  }
  if (fresh.length > 0) {
    await client.query(
      `INSERT INTO lore_chunks (id, document_id, chunk_index, text, content_hash)
       SELECT u.id, $1, u.idx, u.text, u.hash FROM unnest($2::text[], $3::int[], $4::text[], $5::text[]) WITH ORDINALITY AS u(id, idx, text, hash, n) ORDER BY u.n`,
      [doc.id, fresh.map((c) => c.id), fresh.map((c) => c.chunkIndex), fresh.map((c) => c.text), fresh.map((c) => c.contentHash)],
    );
  }
  return { chunksWritten: fresh.length, chunksDeleted: gone.length };
}

export async function touchDocument(tx: WriteTx, id: string, fingerprint: string | null): Promise<void> {
  await tx.client.query('UPDATE lore_documents SET fingerprint = $2, version = $3 WHERE id = $1', [id, fingerprint, tx.version]);
}

export async function deleteDocuments(tx: WriteTx, ids: readonly string[]): Promise<number> {
  const deleted = (await tx.client.query<{ id: string }>('DELETE FROM lore_documents WHERE id = ANY($1::text[]) RETURNING id', [[...ids]])).rows.map((r) => r.id);
  if (deleted.length > 0) {
    await tx.client.query("INSERT INTO lore_events (version, kind, document_id) SELECT $1, 'delete_document', unnest($2::text[])", [tx.version, deleted]);
  }
  return deleted.length;
}

export async function setSourceState(tx: WriteTx, connector: string, state: SourceState): Promise<void> {
  await tx.client.query(
    `INSERT INTO lore_sync_state (connector, checkpoint, last_sync_at, version) VALUES ($1, $2, $3, $4)
     ON CONFLICT (connector) DO UPDATE SET checkpoint = excluded.checkpoint, last_sync_at = excluded.last_sync_at, version = excluded.version`,
    [connector, state.checkpoint, state.lastSyncAt, tx.version],
  );
}

const UPSERT_EMBEDDING = `ON CONFLICT (chunk_rowid) DO UPDATE SET model = excluded.model, dims = excluded.dims,
  content_hash = excluded.content_hash, vector = excluded.vector, created_at = excluded.created_at, version = excluded.version`;

/** By PostgreSQL chunk rowid; a chunk deleted or rewritten since it was read (content hash) is skipped. */
export async function writeEmbeddings(tx: WriteTx, space: EmbeddingSpace, rows: readonly EmbeddingWrite[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await tx.client.query(
    `INSERT INTO lore_embeddings (chunk_rowid, model, dims, content_hash, vector, created_at, version)
     SELECT c.rowid, $1, $2, c.content_hash, u.vector, $3, $4
       FROM unnest($5::bigint[], $6::text[], $7::bytea[]) AS u(rowid, hash, vector)
       JOIN lore_chunks c ON c.rowid = u.rowid AND c.content_hash = u.hash
     ${UPSERT_EMBEDDING}`,
    [space.model, space.dims, new Date().toISOString(), tx.version, rows.map((r) => r.rowid), rows.map((r) => r.contentHash), rows.map((r) => vectorBytes(r.vector))],
  );
  return result.rowCount ?? 0;
}

/** By chunk id (`lore migrate`); rows whose chunk is missing or has another content hash are skipped. */
export async function importEmbeddings(tx: WriteTx, rows: readonly StoredEmbedding[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await tx.client.query(
    `INSERT INTO lore_embeddings (chunk_rowid, model, dims, content_hash, vector, created_at, version)
     SELECT c.rowid, u.model, u.dims, c.content_hash, u.vector, $1, $2
       FROM unnest($3::text[], $4::text[], $5::int[], $6::text[], $7::bytea[]) AS u(id, model, dims, hash, vector)
       JOIN lore_chunks c ON c.id = u.id AND c.content_hash = u.hash
     ${UPSERT_EMBEDDING}`,
    [new Date().toISOString(), tx.version, rows.map((r) => r.chunkId), rows.map((r) => r.model), rows.map((r) => r.dims), rows.map((r) => r.contentHash),
      rows.map((r) => vectorBytes(r.vector))],
  );
  return result.rowCount ?? 0;
}

export async function clearEmbeddings(tx: WriteTx): Promise<number> {
  const deleted = (await tx.client.query('DELETE FROM lore_embeddings')).rowCount ?? 0;
  await tx.client.query("INSERT INTO lore_events (version, kind) VALUES ($1, 'clear_embeddings')", [tx.version]);
  return deleted;
}
