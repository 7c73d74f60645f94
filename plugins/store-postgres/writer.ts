// SQL for the PostgreSQL store's writes: documents and their chunks (diffed by id: unchanged chunks keep
// their row and embedding), deletions (recorded as events for the mirrors), sync state, embeddings.
// Each function runs inside one write transaction (transactions.ts) and stamps what it changes with its version.
import type {
  Chunk,
  EmbeddingSpace,
  EmbeddingWrite,
  SourceState,
  StoredDocument,
  StoredEmbedding,
  UpsertOutcome,
} from '../../core/api/plugin.ts';
import type pg from 'pg';
import type { WriteTx } from './transactions.ts';

/** Float32 as little-endian bytes, exactly like the SQLite store's BLOBs. */
export function vectorBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export interface DocumentWrite {
  doc: StoredDocument;
  chunks: readonly Chunk[];
  fingerprint: string | null;
}

/** Its document id: two writes of one document never share a statement (ON CONFLICT may touch a row once). */
export const documentKey = (write: DocumentWrite): string => write.doc.id;

// Named (prepared once per connection: measured, an unnamed statement costs about twice as much here).
// 1. Upsert the documents, and insert the chunks of those that are new (most of a first sync or a
//    migration): one statement, foreign keys are checked at its end, after the documents exist.
// 2. Only for documents that existed: diff their chunks by id (unchanged chunks keep their row and
//    embedding): chunks no longer listed are deleted, kept ones moved to their new index (and lines, symbol,
//    language), new ones inserted
//    in order. All parts of one statement see the rows as they were before it.
const UPSERT_DOCUMENTS = `
WITH d AS (
  INSERT INTO kbctx_documents (id, connector, source, source_id, source_url, title, body, content_type, metadata,
    updated_at, content_hash, fingerprint, indexed_at, version)
  SELECT u.id, u.connector, u.source, u.source_id, u.source_url, u.title, u.body, u.content_type, u.metadata,
    u.updated_at, u.content_hash, u.fingerprint, $1, $2
  FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
    $11::text[], $12::text[],
    $13::text[], $14::text[]) WITH ORDINALITY
    AS u(id, connector, source, source_id, source_url, title, body, content_type, metadata, updated_at, content_hash,
      fingerprint, n)
  ORDER BY u.n
  ON CONFLICT (id) DO UPDATE SET connector = excluded.connector, source = excluded.source,
    source_id = excluded.source_id,
    source_url = excluded.source_url, title = excluded.title, body = excluded.body,
      content_type = excluded.content_type,
    metadata = excluded.metadata, updated_at = excluded.updated_at, content_hash = excluded.content_hash,
    fingerprint = excluded.fingerprint, indexed_at = excluded.indexed_at, version = excluded.version
  RETURNING id, (xmax = 0) AS inserted
), fresh AS (
  INSERT INTO kbctx_chunks (id, document_id, chunk_index, text, content_hash, line_start, line_end, symbol, lang)
  SELECT c.id, c.document_id, c.idx, c.text, c.hash, c.line_start, c.line_end, c.symbol, c.lang
  FROM unnest($15::text[], $16::text[], $17::int[], $18::text[], $19::text[], $20::int[], $21::int[], $22::text[],
    $23::text[])
    WITH ORDINALITY AS c(document_id, id, idx, text, hash, line_start, line_end, symbol, lang, n)
  WHERE c.document_id IN (SELECT id FROM d WHERE inserted)
  ORDER BY c.n
)
SELECT id FROM d WHERE NOT inserted`;

const DIFF_CHUNKS = `
WITH c AS (
  SELECT * FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::int[], $8::int[], $9::text[],
    $10::text[])
    WITH ORDINALITY AS c(document_id, id, idx, text, hash, line_start, line_end, symbol, lang, n)
), gone AS (
  DELETE FROM kbctx_chunks o WHERE o.document_id = ANY($1::text[])
    AND NOT EXISTS (SELECT 1 FROM c WHERE c.id = o.id AND c.document_id = o.document_id)
  RETURNING o.document_id
), moved AS (
  UPDATE kbctx_chunks o SET chunk_index = c.idx, line_start = c.line_start, line_end = c.line_end, symbol = c.symbol,
    lang = c.lang
  FROM c WHERE o.id = c.id AND o.document_id = c.document_id
    AND (o.chunk_index, o.line_start, o.line_end, o.symbol, o.lang) IS DISTINCT FROM (c.idx, c.line_start, c.line_end,
      c.symbol, c.lang)
), fresh AS (
  INSERT INTO kbctx_chunks (id, document_id, chunk_index, text, content_hash, line_start, line_end, symbol, lang)
  SELECT c.id, c.document_id, c.idx, c.text, c.hash, c.line_start, c.line_end, c.symbol, c.lang FROM c
  WHERE NOT EXISTS (SELECT 1 FROM kbctx_chunks o WHERE o.id = c.id AND o.document_id = c.document_id)
  ORDER BY c.n
  RETURNING document_id
)
SELECT u.id, (SELECT count(*) FROM fresh WHERE fresh.document_id = u.id)::int AS written,
  (SELECT count(*) FROM gone WHERE gone.document_id = u.id)::int AS deleted
FROM unnest($1::text[]) AS u(id)`;

const chunkColumns = (writes: readonly DocumentWrite[]): unknown[] => {
  const chunks = writes.flatMap((w) => w.chunks.map((c) => ({ ...c, documentId: w.doc.id })));
  return [
    chunks.map((c) => c.documentId),
    chunks.map((c) => c.id),
    chunks.map((c) => c.chunkIndex),
    chunks.map((c) => c.text),
    chunks.map((c) => c.contentHash),
    chunks.map((c) => c.lineStart ?? null),
    chunks.map((c) => c.lineEnd ?? null),
    chunks.map((c) => c.symbol ?? null),
    chunks.map((c) => c.lang ?? null),
  ];
};

/** Documents with their chunks: one round trip, two when some of them existed. Outcomes in the order given. */
export async function upsertDocuments(tx: WriteTx, writes: readonly DocumentWrite[]): Promise<UpsertOutcome[]> {
  const docs = writes.map((w) => w.doc);
  const existed = new Set(
    (
      await tx.client.query<{ id: string }>({
        name: 'kbctx_upsert_documents',
        text: UPSERT_DOCUMENTS,
        values: [
          new Date().toISOString(),
          tx.version,
          docs.map((d) => d.id),
          docs.map((d) => d.connector),
          docs.map((d) => d.source),
          docs.map((d) => d.sourceId),
          docs.map((d) => d.sourceUrl),
          docs.map((d) => d.title),
          docs.map((d) => d.body),
          docs.map((d) => d.contentType),
          docs.map((d) => JSON.stringify(d.metadata)),
          docs.map((d) => d.updatedAt),
          docs.map((d) => d.contentHash),
          writes.map((w) => w.fingerprint),
          ...chunkColumns(writes),
        ],
      })
    ).rows.map((r) => r.id),
  );
  const diffed = new Map<string, UpsertOutcome>();
  if (existed.size > 0) {
    const updated = writes.filter((w) => existed.has(w.doc.id));
    const rows = (
      await tx.client.query<{ id: string; written: number; deleted: number }>({
        name: 'kbctx_diff_chunks',
        text: DIFF_CHUNKS,
        values: [updated.map((w) => w.doc.id), ...chunkColumns(updated)],
      })
    ).rows;
    for (const r of rows) diffed.set(r.id, { chunksWritten: r.written, chunksDeleted: r.deleted });
  }
  return writes.map((w) => diffed.get(w.doc.id) ?? { chunksWritten: w.chunks.length, chunksDeleted: 0 });
}

export async function touchDocument(tx: WriteTx, id: string, fingerprint: string | null): Promise<void> {
  await tx.client.query('UPDATE kbctx_documents SET fingerprint = $2, version = $3 WHERE id = $1', [
    id,
    fingerprint,
    tx.version,
  ]);
}

export async function deleteDocuments(tx: WriteTx, ids: readonly string[]): Promise<number> {
  const deleted = (
    await tx.client.query<{ id: string }>('DELETE FROM kbctx_documents WHERE id = ANY($1::text[]) RETURNING id', [
      [...ids],
    ])
  ).rows.map((r) => r.id);
  if (deleted.length > 0) {
    await tx.client.query(
      "INSERT INTO kbctx_events (version, kind, document_id) SELECT $1, 'delete_document', unnest($2::text[])",
      [tx.version, deleted],
    );
  }
  return deleted.length;
}

export async function setSourceState(tx: WriteTx, connector: string, state: SourceState): Promise<void> {
  await tx.client.query(
    `INSERT INTO kbctx_sync_state (connector, checkpoint, last_sync_at, version) VALUES ($1, $2, $3, $4)
     ON CONFLICT (connector) DO UPDATE SET checkpoint = excluded.checkpoint, last_sync_at = excluded.last_sync_at,
       version = excluded.version`,
    [connector, state.checkpoint, state.lastSyncAt, tx.version],
  );
}

const UPSERT_EMBEDDING = `ON CONFLICT (chunk_rowid) DO UPDATE SET model = excluded.model, dims = excluded.dims,
  content_hash = excluded.content_hash, vector = excluded.vector, created_at = excluded.created_at,
    version = excluded.version`;

/** By PostgreSQL chunk rowid; a chunk deleted or rewritten since it was read (content hash) is skipped. */
export async function writeEmbeddings(
  tx: WriteTx,
  space: EmbeddingSpace,
  rows: readonly EmbeddingWrite[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await tx.client.query(
    `INSERT INTO kbctx_embeddings (chunk_rowid, model, dims, content_hash, vector, created_at, version)
     SELECT c.rowid, $1, $2, c.content_hash, u.vector, $3, $4
       FROM unnest($5::bigint[], $6::text[], $7::bytea[]) AS u(rowid, hash, vector)
       JOIN kbctx_chunks c ON c.rowid = u.rowid AND c.content_hash = u.hash
     ${UPSERT_EMBEDDING}`,
    [
      space.model,
      space.dims,
      new Date().toISOString(),
      tx.version,
      rows.map((r) => r.rowid),
      rows.map((r) => r.contentHash),
      rows.map((r) => vectorBytes(r.vector)),
    ],
  );
  return result.rowCount ?? 0;
}

/** By chunk id (`kbctx migrate`); rows whose chunk is missing or has another content hash are skipped. */
export async function importEmbeddings(tx: WriteTx, rows: readonly StoredEmbedding[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await tx.client.query(
    `INSERT INTO kbctx_embeddings (chunk_rowid, model, dims, content_hash, vector, created_at, version)
     SELECT c.rowid, u.model, u.dims, c.content_hash, u.vector, $1, $2
       FROM unnest($3::text[], $4::text[], $5::int[], $6::text[], $7::bytea[]) AS u(id, model, dims, hash, vector)
       JOIN kbctx_chunks c ON c.id = u.id AND c.content_hash = u.hash
     ${UPSERT_EMBEDDING}`,
    [
      new Date().toISOString(),
      tx.version,
      rows.map((r) => r.chunkId),
      rows.map((r) => r.model),
      rows.map((r) => r.dims),
      rows.map((r) => r.contentHash),
      rows.map((r) => vectorBytes(r.vector)),
    ],
  );
  return result.rowCount ?? 0;
}

export async function clearEmbeddings(tx: WriteTx): Promise<number> {
  const deleted = (await tx.client.query('DELETE FROM kbctx_embeddings')).rowCount ?? 0;
  await tx.client.query("INSERT INTO kbctx_events (version, kind) VALUES ($1, 'clear_embeddings')", [tx.version]);
  return deleted;
}

/**
 * Drops commit records older than `days` (never the latest) and the deletion events below the oldest
 * record kept. A mirror whose watermark's record is gone rebuilds at its next catch-up (catch-up.ts),
 * so it never needs the events dropped here.
 */
export async function pruneHistory(db: pg.Pool, days: number): Promise<void> {
  await db.query(
    `DELETE FROM kbctx_commits WHERE committed_at < now() - make_interval(days => $1::int)
       AND version < (SELECT version FROM kbctx_meta WHERE id = 1)`,
    [days],
  );
  await db.query('DELETE FROM kbctx_events WHERE version < (SELECT coalesce(min(version), 0) FROM kbctx_commits)');
}
