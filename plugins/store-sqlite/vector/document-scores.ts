// Each listed document's best vector score against a query vector: the highest dot product over its chunks'
// embeddings in one space. Exact, no ANN index; used to score documents a keyword search found.
import type { EmbeddingSpace } from '../../../core/api/plugin.ts';
import type { DatabaseSync } from 'node:sqlite';
import { dotAt } from './vector-topk.ts';

/** Document id → best score; a document without an embedding in `space` (or one of another size) is absent. */
export function documentVectorScores(
  db: DatabaseSync,
  vector: Float32Array,
  space: EmbeddingSpace,
  documentIds: readonly string[],
): Map<string, number> {
  const best = new Map<string, number>();
  for (const row of documentVectors(db, space, documentIds)) {
    if (row.vector.byteLength !== space.dims * 4) continue;
    const v = new Float32Array(
      row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength),
    );
    const score = dotAt(v, 0, vector, space.dims);
    if (score > (best.get(row.documentId) ?? -Infinity)) best.set(row.documentId, score);
  }
  return best;
}

function documentVectors(
  db: DatabaseSync,
  space: EmbeddingSpace,
  documentIds: readonly string[],
): { documentId: string; vector: Uint8Array }[] {
  return db
    .prepare(
      `SELECT d.id AS documentId, e.vector AS vector FROM documents d JOIN chunks c ON c.document_rowid = d.rowid
         JOIN embeddings e ON e.chunk_rowid = c.rowid
       WHERE d.id IN (SELECT value FROM json_each(?)) AND e.model = ? AND e.dims = ?`,
    )
    .all(JSON.stringify(documentIds), space.model, space.dims) as { documentId: string; vector: Uint8Array }[];
}
