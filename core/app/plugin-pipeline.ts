// The kernel's pipeline hooks as plain functions for the use-cases (sync, search, tool calls). A hook
// nobody tapped costs nothing: its function is undefined and the use-case skips it. Except `chunk`:
// documents are always chunked by a plugin (the bundled chunker-default), so no tap is an error; when
// the bundled default chunker is the only tap, `chunk` is undefined and sync calls the same chunkText
// directly (the hook call per document costs ~4 % of a full index).
import type { DocumentDraft, Hit, SearchRequest, ToolCall } from '../hook-types.ts';
import type { Kernel } from '../kernel.ts';

export interface Pipeline {
  document?: ((draft: DocumentDraft) => Promise<DocumentDraft>) | undefined;
  chunk?: ((document: DocumentDraft & { id: string }, sizes: { maxTokens: number; overlapTokens: number }) => Promise<string[] | undefined>) | undefined;
  query?: ((request: SearchRequest) => Promise<SearchRequest>) | undefined;
  rank?: ((hits: Hit[], request: SearchRequest) => Promise<Hit[]>) | undefined;
  toolCall?: ((call: ToolCall) => Promise<unknown>) | undefined;
  toolResult?: ((result: unknown, call: ToolCall) => Promise<unknown>) | undefined;
}

/** Reads `isUsed()` on every call, so plugins applied after the index opened take part too. */
export function pipelineOf(kernel: Kernel, bundledChunker?: string): Pipeline {
  const h = kernel.hooks;
  let bundledChunkerLoaded: boolean | undefined;
  const onlyBundledChunker = (): boolean => {
    const taps = h.chunk.taps;
    if (bundledChunker === undefined || taps.length !== 1 || taps[0]?.name !== bundledChunker) return false;
    return (bundledChunkerLoaded ??= kernel.plugins().some((p) => p.name === bundledChunker && p.origin === 'bundled'));
  };
  return {
    get document() {
      return h.document.isUsed() ? (draft: DocumentDraft) => h.document.promise(draft, kernel.callContext()) : undefined;
    },
    get chunk() {
      if (onlyBundledChunker()) return undefined;
      return (document: DocumentDraft & { id: string }, sizes: { maxTokens: number; overlapTokens: number }) => h.chunk.promise({ document, sizes }, kernel.callContext());
    },
    get query() {
      return h.query.isUsed() ? (request: SearchRequest) => h.query.promise(request, kernel.callContext()) : undefined;
    },
    get rank() {
      return h.rank.isUsed() ? (hits: Hit[], request: SearchRequest) => h.rank.promise(hits, request, kernel.callContext()) : undefined;
    },
    get toolCall() {
      return h.toolCall.isUsed() ? (call: ToolCall) => h.toolCall.promise(call, kernel.callContext()) : undefined;
    },
    get toolResult() {
      return h.toolResult.isUsed() ? (result: unknown, call: ToolCall) => h.toolResult.promise(result, call, kernel.callContext()) : undefined;
    },
  };
}
