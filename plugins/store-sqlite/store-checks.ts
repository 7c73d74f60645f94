// Doctor's look at the SQLite index: integrity.ts's checks and the vector indexes' freshness. Loaded on first use
// (ADR 0130); reads only.
import type { IntegrityReport } from '../../core/api/plugin.ts';
import type { DatabaseSync } from 'node:sqlite';
import type { EmbeddingRows } from './embedding-rows.ts';
import { checkIntegrity } from './integrity.ts';
import { ANN_MIN_VECTORS, annStamp } from './vector/ann-index.ts';

/**
 * Doctor's checks (integrity.ts; the write checks only when `writable`) and, for a file index, the state of each
 * vector space's ANN index beside it (`<file>.vectors`): missing, fresh, or stale against the embeddings.
 */
export function checkStore(
  db: DatabaseSync,
  file: string,
  embeddings: EmbeddingRows,
  writable: boolean,
): IntegrityReport {
  const generation = embeddings.generation();
  const vectorIndexes =
    file === ':memory:'
      ? []
      : embeddings
          .spaces()
          .filter((s) => s.count >= ANN_MIN_VECTORS)
          .map((s) => {
            const stamp = annStamp(`${file}.vectors`, s);
            const state =
              stamp === null
                ? ('missing' as const)
                : stamp.generation === generation && stamp.size === s.count
                  ? ('fresh' as const)
                  : ('stale' as const);
            return { model: s.model, dims: s.dims, vectors: s.count, state };
          });
  return { ...checkIntegrity(db, writable), vectorIndexes };
}
