// The SQLite store's reads of documents, chunks and per-source counts (no writes, no vectors). Each takes the
// store's statement cache, `sql`, so a statement is prepared once per connection.
import type {
  Chunk,
  DocumentHead,
  DocumentState,
  SourceStats,
  StoreCounts,
  StoredDocument,
} from '../../core/api/plugin.ts';
import type { StatementSync } from 'node:sqlite';
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

/** The store's statement cache: the prepared statement for an SQL text, prepared on first use. */
export type Sql = (text: string) => StatementSync;

export function documentStates(sql: Sql, connector: string): Map<string, DocumentState> {
  const rows = sql('SELECT id, source, source_id, fingerprint, content_hash FROM documents WHERE connector = ?').all(
    connector,
  ) as {
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

export function getDocument(sql: Sql, id: string): StoredDocument | null {
  const row = sql(`SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.id = ?`).get(id) as DocumentRow | undefined;
  return row ? toDocument(row) : null;
}

/** Document heads in rowid order after position `after`; `last` is the position to pass next (null: no more). */
export function listDocuments(
  sql: Sql,
  after: number,
  limit: number,
): { documents: DocumentHead[]; last: number | null } {
  const rows = sql(
    `SELECT d.rowid AS position, ${HEAD_COLUMNS} FROM documents d WHERE d.rowid > ? ORDER BY d.rowid LIMIT ?`,
  ).all(after, limit) as unknown as (HeadRow & { position: number })[];
  return { documents: rows.map(toHead), last: rows.length === limit ? Number(rows.at(-1)!.position) : null };
}

export function getChunks(sql: Sql, documentId: string): Chunk[] {
  const rows = sql(
    `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.rowid = c.document_rowid
     WHERE d.id = ? ORDER BY c.chunk_index`,
  ).all(documentId) as unknown as ChunkRow[];
  return rows.map(toChunk);
}

/** Per source: documents, chunks, embedded chunks and the last sync; sources with documents or a sync state. */
export function sourceStats(sql: Sql): SourceStats[] {
  const rows = sql(
    `SELECT s.connector AS source,
       (SELECT count(*) FROM documents d WHERE d.connector = s.connector) AS documents,
       (SELECT count(*) FROM chunks c JOIN documents d ON d.rowid = c.document_rowid
          WHERE d.connector = s.connector) AS chunks,
       (SELECT count(*) FROM embeddings e JOIN chunks c ON c.rowid = e.chunk_rowid
          JOIN documents d ON d.rowid = c.document_rowid
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

export function countRows(sql: Sql): StoreCounts {
  const row = sql(
    `SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM chunks) AS chunks,
       (SELECT count(*) FROM embeddings) AS embedded`,
  ).get() as { documents: number; chunks: number; embedded: number };
  return { documents: Number(row.documents), chunks: Number(row.chunks), embedded: Number(row.embedded) };
}
