// Chunks one code file: parse with the language's grammar (grammars.ts), cut into syntax units
// (syntax-units.ts), pack them (pack-units.ts). Undefined when the text chunker should answer instead.
import type { ChunkPiece } from '../../core/api/plugin.ts';
import { estimateTokens } from '../chunker-default/api.ts';
import { parserFor } from './grammars.ts';
import type { CodeLanguage } from './languages.ts';
import { packUnits } from './pack-units.ts';
import { syntaxUnits, type SyntaxNode } from './syntax-units.ts';

export interface CodeChunkOptions {
  maxTokens: number;
  /** Chunk a tree with syntax errors too (`chunker = "code"`); otherwise such a file is left to the text chunker. */
  tolerateErrors: boolean;
}

/** The file's chunks, or undefined when it does not parse (cleanly, unless `tolerateErrors`) or is empty. */
export async function chunkCode(
  text: string,
  language: CodeLanguage,
  options: CodeChunkOptions,
): Promise<ChunkPiece[] | undefined> {
  if (text.trim() === '') return undefined;
  const parser = await parserFor(language);
  try {
    const tree = parser.parse(text);
    if (!tree) return undefined;
    try {
      if (tree.rootNode.hasError && !options.tolerateErrors) return undefined;
      const budget = { maxTokens: Math.max(8, options.maxTokens), tokens: estimateTokens };
      const units = syntaxUnits(text, tree.rootNode as SyntaxNode, language, budget);
      const pieces = packUnits(text, units, budget, language.name);
      return pieces.length > 0 ? pieces : undefined;
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete(); // WebAssembly memory is not garbage-collected
  }
}
