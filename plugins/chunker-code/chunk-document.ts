// The `chunk` tap's decision for one document: its connector's `chunker` mode and its file extension
// choose the code chunker; undefined leaves the document to the text chunker (chunker-default).
import type { ChunkPiece, ChunkRequest } from '../../core/api/plugin.ts';
import { chunkCode } from './chunk-code.ts';
import { chunkerModeOf } from './chunker-mode.ts';
import { languageOf } from './languages.ts';

/**
 * `text`: never. `auto` (the default): a file of a known language that parses without errors. `code`: a file of a
 * known language even with syntax errors (tree-sitter's recovered tree). No grammar for the extension: never.
 */
export async function chunkDocument(
  document: ChunkRequest['document'],
  sizes: ChunkRequest['sizes'],
): Promise<ChunkPiece[] | undefined> {
  const mode = chunkerModeOf(document.metadata);
  const language = mode === 'text' ? undefined : languageOf(document.sourceId);
  if (language === undefined) return undefined;
  return chunkCode(document.body, language, { maxTokens: sizes.maxTokens, tolerateErrors: mode === 'code' });
}
