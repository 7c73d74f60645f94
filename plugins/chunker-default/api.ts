// chunker-default's contract entry: its algorithm for other plugins and the library (`chunkPieces`, `chunkText`,
// `estimateTokens`): a chunker that post-processes the default one imports it here. Pure; type imports only.
export { chunkPieces, chunkText, estimateTokens, type ChunkSizes } from './chunker.ts';
