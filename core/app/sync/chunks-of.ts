// A document's chunks: asked of the plugins' `chunk` taps, then given ids, content hashes and line ranges.
// Chunking rules themselves are the chunker plugins'.
import type { Pipeline } from '../plugin-pipeline.ts';
import type { ChunkPiece } from '../../hook-types.ts';
import { KbctxError } from '../../domain/errors.ts';
import { chunkIds, sha256Hex } from '../../domain/ids.ts';
import { locateChunks } from '../../domain/line-ranges.ts';
import type { Chunk } from '../../domain/models.ts';
import type { ChunkingConfig } from '../../config/types.ts';
import type { StoredDocument } from '../../store/store.ts';

/**
 * Chunks from the first `chunk` tap that answers (the bundled chunker-default taps last; each tap's list is checked as
 * it returns); none is a config error.
 */
export async function pluginChunks(
  chunk: Pipeline['chunk'],
  doc: StoredDocument,
  sizes: ChunkingConfig,
): Promise<Chunk[]> {
  const answer = chunk === undefined ? undefined : await chunk({ ...doc }, sizes);
  if (answer === undefined)
    throw new KbctxError(
      'config_error',
      `no loaded plugin chunks ${doc.sourceId}: the default chunker is the bundled plugin chunker-default, ` +
        'which is not loaded (check plugins in the config)',
    );
  return chunksOf(doc, answer);
}

/**
 * A document's chunks from what a chunker returned: ids and content hashes from the texts, lines from a ChunkPiece
 * (camelCase, or snake_case as a Lua table has it) or, for a plain string, located in the body (domain/line-ranges.ts).
 */
export function chunksOf(doc: StoredDocument, items: readonly (string | ChunkPiece)[]): Chunk[] {
  const texts = items.map((item) => (typeof item === 'string' ? item : item.text));
  const ids = chunkIds(doc.id, texts);
  const located = items.some((item) => typeof item === 'string') ? locateChunks(doc.body, texts) : [];
  return items.map((item, i) => {
    const text = texts[i] ?? '';
    const piece = typeof item === 'string' ? undefined : (item as ChunkPiece & Record<string, unknown>);
    const lines = piece
      ? { lineStart: piece.lineStart ?? piece['line_start'], lineEnd: piece.lineEnd ?? piece['line_end'] }
      : located[i];
    return {
      id: ids[i] ?? '',
      documentId: doc.id,
      chunkIndex: i,
      text,
      contentHash: sha256Hex(text),
      lineStart: (lines?.lineStart as number | null | undefined) ?? null,
      lineEnd: (lines?.lineEnd as number | null | undefined) ?? null,
      symbol: piece?.symbol ?? null,
      lang: piece?.lang ?? null,
    };
  });
}
