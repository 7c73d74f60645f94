// Every document and chunk of the SQLite index, streamed for `kbctx export` and `migrate` in (source, source id)
// order. Own statements, not the store's cache: the caller may run other queries while it iterates.
import type { Chunk, StoredDocument } from '../../core/api/plugin.ts';
import type { DatabaseSync } from 'node:sqlite';
import { CHUNK_COLUMNS, DOCUMENT_COLUMNS, toChunk, toDocument, type ChunkRow, type DocumentRow } from './rows.ts';

export function* documentRows(db: DatabaseSync): Generator<StoredDocument> {
  const one = db.prepare(`SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.rowid = ?`);
  for (const rowid of exportOrder(db)) {
    const row = one.get(rowid) as unknown as DocumentRow | undefined;
    if (row) yield toDocument(row);
  }
}

export function* chunkRows(db: DatabaseSync): Generator<Chunk> {
  const ofDocument = db.prepare(
    `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.rowid = c.document_rowid
     WHERE c.document_rowid = ? ORDER BY c.chunk_index`,
  );
  for (const rowid of exportOrder(db)) {
    for (const row of ofDocument.iterate(rowid)) yield toChunk(row as unknown as ChunkRow);
  }
}

/**
 * Document rowids in export order. Sorting only the keys (8 bytes per document kept) instead of
 * whole rows: an ORDER BY over bodies and chunk texts made SQLite's sorter hold the index in memory.
 */
function exportOrder(db: DatabaseSync): number[] {
  return (db.prepare('SELECT rowid FROM documents ORDER BY source, source_id').all() as { rowid: number }[]).map(
    (r) => r.rowid,
  );
}
