// The kernel's pipeline hooks as plain functions for the use-cases (sync, search, tool calls). A hook
// nobody tapped costs nothing: its function is undefined and the use-case skips it. Except `chunk`:
// documents are always chunked by a plugin (the bundled chunker-default), so no tap is an error. The
// `chunk` taps are walked here, each through its (attributed) function: the same result and the same
// error attribution without the hook's promise machinery, which cost ~4 % of a full index per document.
import type {
  ChunkPiece,
  ChunkRequest,
  DocumentDraft,
  ExtractedText,
  ExtractRequest,
  Hit,
  RankControl,
  SearchRequest,
} from '../hook-types.ts';
import type { RankTapOptions } from '../hooks.ts';
import type { SearchRecord } from '../domain/search-record.ts';
import type { ToolCall } from '../tools/part-defs.ts';
import { stderrLogger, type PluginContext } from '../plugin-context.ts';
import type { Kernel } from '../kernel.ts';
import { PluginError } from '../plugin-error.ts';
import { CALL_ITEMS } from '../tap-contracts.ts';

export interface Pipeline {
  document?: ((draft: DocumentDraft) => Promise<DocumentDraft>) | undefined;
  chunk?:
    | ((
        document: DocumentDraft & { id: string },
        sizes: { maxTokens: number; overlapTokens: number },
      ) => Promise<string[] | ChunkPiece[] | undefined>)
    | undefined;
  query?: ((request: SearchRequest) => Promise<SearchRequest>) | undefined;
  rank?: ((hits: Hit[], request: SearchRequest, control: RankControl) => Promise<Hit[]>) | undefined;
  /**
   * The `rank` taps' cache-key parts for a request, in tap order (ADR 0197); undefined when a tap declares no
   * `cacheKey` (its ranked pages are not cached).
   */
  rankCacheKey?: ((request: SearchRequest) => string | undefined) | undefined;
  /** Tells the `searched` taps about a search that answered; never throws (a tap's error is a warning line). */
  searched?: ((record: SearchRecord) => void) | undefined;
  toolCall?: ((call: ToolCall) => Promise<unknown>) | undefined;
  toolResult?: ((result: unknown, call: ToolCall) => Promise<unknown>) | undefined;
  /** The `extract.for(extension)` taps in stage order; undefined when none answers (or none is registered). */
  extract(request: ExtractRequest): Promise<ExtractedText | undefined>;
}

/**
 * Reads the hook's taps on every call, so plugins applied after the index opened take part too. Not `isUsed()`:
 * the attribution's interceptor is on every hook, which made every search take the deeper `rank` path (ADR 0148).
 */
export function pipelineOf(kernel: Kernel): Pipeline {
  const h = kernel.hooks;
  return {
    get document() {
      return h.document.taps.length > 0
        ? (draft: DocumentDraft) => h.document.promise(draft, kernel.callContext())
        : undefined;
    },
    // A plain function, not a getter: read once per document, it made two closures each time.
    chunk(document: DocumentDraft & { id: string }, sizes: { maxTokens: number; overlapTokens: number }) {
      const hook = h.chunk;
      return onlyRegisters(hook)
        ? chunkThrough(hook.taps as unknown as readonly ChunkTap[], 0, { document, sizes }, kernel.callContext())
        : hook.promise({ document, sizes }, kernel.callContext());
    },
    get query() {
      return h.query.taps.length > 0
        ? (request: SearchRequest) => h.query.promise(request, kernel.callContext())
        : undefined;
    },
    get rank() {
      return h.rank.taps.length > 0
        ? (hits: Hit[], request: SearchRequest, control: RankControl) =>
            h.rank.promise(hits, request, kernel.callContext(), control)
        : undefined;
    },
    rankCacheKey(request: SearchRequest) {
      const parts: [string, string][] = [];
      for (const tap of h.rank.taps as readonly (RankTapOptions & { name: string })[]) {
        if (typeof tap.cacheKey !== 'function') return undefined;
        try {
          parts.push([tap.name, tap.cacheKey(request)]);
        } catch (error) {
          throw new PluginError(tap.name, 'rank', error, { item: CALL_ITEMS.rank?.([undefined, request]) });
        }
      }
      return JSON.stringify(parts);
    },
    get searched() {
      return h.searched.taps.length > 0
        ? (record: SearchRecord) => {
            try {
              h.searched.call(record, kernel.callContext());
            } catch (error) {
              // An observer must not fail the search it observes (ADR 0220).
              stderrLogger('kbctx').warn(error instanceof Error ? error.message : String(error));
            }
          }
        : undefined;
    },
    get toolCall() {
      return h.toolCall.taps.length > 0
        ? (call: ToolCall) => h.toolCall.promise(call, kernel.callContext())
        : undefined;
    },
    get toolResult() {
      return h.toolResult.taps.length > 0
        ? (result: unknown, call: ToolCall) => h.toolResult.promise(result, call, kernel.callContext())
        : undefined;
    },
    // Not async: a file whose extension no plugin taps (every Markdown file of a sync) costs a look-up, not a promise.
    extract(request: ExtractRequest) {
      const hook = h.extract.get(request.extension);
      return hook?.isUsed() ? hook.promise(request, kernel.callContext()) : NONE;
    },
  };
}

const NONE: Promise<undefined> = Promise.resolve(undefined);

type ChunkAnswer = string[] | ChunkPiece[] | undefined;
interface ChunkTap {
  type: 'sync' | 'async' | 'promise';
  fn: (request: ChunkRequest, ctx: PluginContext, callback?: (error: unknown, result?: ChunkAnswer) => void) => unknown;
}

/**
 * True when the hook's interceptors only wrap taps as they are registered (tap attribution), so calling the
 * (wrapped) taps in order is what the hook's own promise would do; a `call`/`tap`/`result` interceptor
 * (a tracer) keeps the hook's own path.
 */
function onlyRegisters(hook: { interceptors: readonly object[] }): boolean {
  for (const i of hook.interceptors as readonly Record<string, unknown>[]) {
    if (i['call'] || i['tap'] || i['result'] || i['error'] || i['done'] || i['loop']) return false;
  }
  return true;
}

/**
 * The `chunk` hook's series-bail walk without tapable's promise machinery: sync taps are called straight
 * through, and a document costs one promise per promise tap it reaches (a tap answering undefined passes
 * it on, the first other answer wins; a throw or rejection is the tap's attributed PluginError).
 */
function chunkThrough(
  taps: readonly ChunkTap[],
  from: number,
  request: ChunkRequest,
  ctx: PluginContext,
): Promise<ChunkAnswer> {
  for (let i = from; i < taps.length; i++) {
    const tap = taps[i]!;
    if (tap.type === 'sync') {
      let answer: ChunkAnswer;
      try {
        answer = tap.fn(request, ctx) as ChunkAnswer;
      } catch (error) {
        return Promise.reject(error as Error);
      }
      if (answer !== undefined) return Promise.resolve(answer);
      continue;
    }
    const pending =
      tap.type === 'promise'
        ? (tap.fn(request, ctx) as Promise<ChunkAnswer>)
        : new Promise<ChunkAnswer>((resolve, reject) => {
            tap.fn(request, ctx, (error, result) => (error ? reject(error as Error) : resolve(result)));
          });
    return pending.then((answer) => (answer !== undefined ? answer : chunkThrough(taps, i + 1, request, ctx)));
  }
  return NONE;
}
