// What an upsert of a document changes in the LanceDB store's model (model.ts): which chunks are new,
// removed or changed, which embeddings it drops, or nothing at all (the same head, fingerprint, content
// and chunks: no commit). Chunk texts are compared by their content hash (the sha-256 of the text, as
// core writes it): the model holds no texts (ADR 0233). Pure over the model: lance-store.ts writes.
import type { Chunk, StoredDocument } from '../../core/api/plugin.ts';
import { headSignature } from './head-signature.ts';
import type { Model } from './model.ts';
import { headOf } from './rows.ts';

export interface UpsertPlan {
  headSig: string;
  written: number;
  removed: string[];
  /** Chunks removed or whose content changed: their emb rows, if any, are deleted (the model does not know). */
  dropped: string[];
}

/** null when the upsert changes nothing. */
export function planUpsert(
  model: Model,
  doc: StoredDocument,
  chunks: readonly Chunk[],
  fingerprint: string | null,
): UpsertPlan | null {
  const old = model.docs.get(doc.id);
  const oldChunks = new Map((old?.chunkIds ?? []).map((id) => [id, model.chunks.get(id)!.chunk]));
  const newIds = new Set(chunks.map((c) => c.id));
  const removed = [...oldChunks.keys()].filter((id) => !newIds.has(id));
  const written = chunks.filter((c) => !oldChunks.has(c.id)).length;
  const changed = chunks.filter((c) => {
    const was = oldChunks.get(c.id);
    return (
      was !== undefined &&
      (was.chunkIndex !== c.chunkIndex ||
        was.contentHash !== c.contentHash ||
        (was.lineStart ?? null) !== (c.lineStart ?? null) ||
        (was.lineEnd ?? null) !== (c.lineEnd ?? null) ||
        (was.symbol ?? null) !== (c.symbol ?? null) ||
        (was.lang ?? null) !== (c.lang ?? null))
    );
  });
  const headSig = headSignature(headOf(doc));
  if (
    old &&
    written === 0 &&
    changed.length === 0 &&
    removed.length === 0 &&
    old.fingerprint === fingerprint &&
    old.contentHash === doc.contentHash &&
    old.headSig === headSig
  )
    return null;
  // A kept chunk whose content hash changed loses its vector (pending again); removed ones lose theirs.
  const dropped = [
    ...removed,
    ...changed.filter((c) => c.contentHash !== oldChunks.get(c.id)!.contentHash).map((c) => c.id),
  ];
  return { headSig, written, removed, dropped };
}
