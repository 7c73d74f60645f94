// chunker-default's contract entry: its algorithm for other plugins and the library (`chunkText`,
// `estimateTokens`): a chunker that post-processes the default one imports it here. Pure; no imports.
export { chunkText, estimateTokens, type ChunkSizes } from './chunker.ts';
