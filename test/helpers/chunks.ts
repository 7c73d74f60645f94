// A stored document's chunks as chunker-default cuts them, for tests that write documents to a store
// without running a sync.
import { chunksOf } from '../../core/app/sync.ts';
import type { Chunk } from '../../core/domain/models.ts';
import type { StoredDocument } from '../../core/store/store.ts';
import { chunkPieces, type ChunkSizes } from '../../plugins/chunker-default/api.ts';

export const toChunks = (doc: StoredDocument, sizes: ChunkSizes): Chunk[] =>
  chunksOf(doc, chunkPieces(doc.body, sizes));
