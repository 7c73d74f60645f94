// The values that flow through the kernel's hooks: what plugins receive and return. Plain data
// (JSON-safe) for the pipeline hooks, so Lua plugins can tap them too. The slots' own values live with
// their interfaces: the embedder's in embed/embedder.ts, the store's in store/store-factory.ts, the
// tools', agents' and resources' in tools/part-defs.ts, the connectors' in connectors/connector.ts.
import type { SearchResult } from './domain/models.ts';
import type { SearchParams } from './domain/models.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A document between its connector and the chunker. The `document` hook may change it, or set `skip`. */
export interface DocumentDraft {
  source: string;
  sourceId: string;
  title: string;
  body: string;
  sourceUrl: string | null;
  contentType: string;
  updatedAt: string;
  metadata: Record<string, unknown>;
  /** Set by a tap to leave the document out of the index (as if the connector had not listed it). */
  skip?: boolean;
}

/** One chunk as a chunker returns it when it knows where it came from (1-based, inclusive source lines). */
export interface ChunkPiece {
  text: string;
  lineStart: number;
  lineEnd: number;
  /** The symbol path for code, e.g. `ClassName.method`. */
  symbol?: string;
  /** The language, e.g. `typescript`, `python`. */
  lang?: string;
}

/** What the `chunk` hook receives: the document about to be chunked and the configured sizes. */
export interface ChunkRequest {
  document: Readonly<DocumentDraft> & { id: string };
  sizes: { maxTokens: number; overlapTokens: number };
}

/** What an `extract.for(extension)` tap receives: one file's bytes. */
export interface ExtractRequest {
  readonly bytes: Uint8Array;
  /** The file's '/'-separated path or key (its source id). */
  readonly fileName: string;
  /** The lower-case extension without the dot (`pdf`), the hook's key. */
  readonly extension: string;
  /** The connector's `max_file_bytes`: the file is within it; an extractor may bound what it unpacks by it. */
  readonly maxFileBytes: number;
}

/** What an `extract.for(extension)` tap returns (undefined: not this tap's file, the next tap is asked). */
export interface ExtractedText {
  text: string;
  title?: string | undefined;
  /** Default: the built-in type for the extension, else `text/plain`. */
  contentType?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/**
 * The host's text extraction (service `fileExtraction`): asks the `extract.for(extension)` taps; undefined when none
 * answers.
 */
export type FileExtraction = (request: ExtractRequest) => Promise<ExtractedText | undefined>;

/** A search request as it reaches the `query` and `rank` hooks. */
export type SearchRequest = SearchParams;

/** One hit of the `rank` hook: the search-result fields. */
export type Hit = SearchResult;

/** The `rank` hook's fourth argument: what a tap tells the search about this call (ADR 0197). */
export interface RankControl {
  /**
   * This call's ranked page must not be cached (a fail-open fallback, a partial answer): the next identical search
   * runs the taps again. Without it, and when every tap declares a `cacheKey`, the page is cached.
   */
  uncacheable(reason: string): void;
}

/** A `plugins` entry naming a file the kernel does not import itself: what `resolvePlugin.for(ext)` taps receive. */
export interface PluginFileSpec {
  /** Absolute path. */
  file: string;
  /** The entry as written in `plugins` (for messages). */
  as: string;
}

/** A started transport (`kbctx serve <name>`): what it serves, and how to stop it. */
export interface RunningTransport {
  /** Lines for the start-up banner ("MCP at http://127.0.0.1:7331/mcp"). */
  describe?: () => string[];
  /** Settles when the transport ends by itself (stdin closed); absent: it runs until SIGINT/SIGTERM. */
  done?: Promise<void>;
  /**
   * A node:http listener serving what the transport serves, without listening itself (the library's createHttpHandler).
   */
  handle?: (req: IncomingMessage, res: ServerResponse) => void;
  close(): Promise<void>;
}

export interface TransportOptions {
  /** `[server]` of the config, and the `--bind`-style flags of `kbctx serve`. */
  bind: string;
  options: Record<string, unknown>;
}

export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
  /**
   * A line of its own under this area instead of a `plugins` line (`registries`, `git`, …), with a
   * status (`warn` is neither ok nor failed; default from `ok`) and what to do about it.
   */
  area?: string | undefined;
  status?: 'ok' | 'warn' | 'fail' | undefined;
  fix?: string | undefined;
}

/**
 * The command line as the `commands` hook hands it: commander's `Command` at run time, declared here
 * by the part most taps use, so the kernel imports no commander. A tap using more of commander types
 * it with commander's own `Command` type and casts: `program as unknown as Command`.
 */
export interface CliProgram {
  command(nameAndArgs: string, description?: string): CliProgram;
  description(text: string): CliProgram;
  argument(name: string, description?: string): CliProgram;
  option(flags: string, description?: string, defaultValue?: string | boolean | string[]): CliProgram;
  alias(alias: string): CliProgram;
  // Commander passes the arguments, the options and the command.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  action(fn: (...args: any[]) => void | Promise<void>): CliProgram;
  name(): string;
  readonly commands: readonly CliProgram[];
}

export interface Collector<T> {
  add(item: T): void;
}
