// The values that flow through the kernel's hooks: what plugins receive and return. Plain data
// (JSON-safe) for the pipeline hooks, so Lua plugins can tap them too.
import type { SearchResult } from './domain/models.ts';
import type { SearchParams } from './domain/models.ts';
import type { PluginContext } from './plugin-context.ts';
import type { ToolClient } from './app/tool-client.ts';
import type { PromptContentBlock } from './app/part-values/content-block.ts';
import type { ParamSpec } from './tools/param-spec.ts';
import type { Connector } from './connectors/connector.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConnectorLocks, Store } from './store/store.ts';

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

/** What the `chunk` hook receives: the document about to be chunked and the configured sizes. */
export interface ChunkRequest {
  document: Readonly<DocumentDraft> & { id: string };
  sizes: { maxTokens: number; overlapTokens: number };
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

/**
 * An embedding provider, as a `createEmbedder.for(provider)` tap returns it. Created synchronously and
 * cheaply: no connection and no model load until the first `embed()` (import heavy modules there).
 */
export interface Embedder {
  /** Identity recorded with every vector, `<provider>:<model>`; a change makes stored vectors stale. */
  readonly model: string;
  /** The configured vector length, or null when only the first response tells. */
  readonly dims: number | null;
  /** Most texts sent in one request (`[embedding] batch_size`). */
  readonly batchSize: number;
  /** Requests in flight at once (`[embedding] concurrency`). */
  readonly concurrency: number;
  /**
   * Embeds at most `batchSize` texts, in order: one unit-length Float32Array per text, all the same
   * length (equal to `dims` when set). Retries transient failures itself. Throws KbctxError:
   * `upstream_error` (provider refused or answered badly), `timeout`, `config_error` (missing key or model).
   */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /**
   * Optional: embeds a search query when the model wants queries marked apart from documents
   * (e5's `query: `, nomic's `search_query: `). Absent: queries go through `embed`.
   */
  embedQuery?(text: string): Promise<Float32Array>;
  /**
   * Optional: the semantic weight hybrid search uses with this model when `[retrieval] hybrid_alpha`
   * is not set, as measured on the retrieval eval (the bundled USE-Lite: 0.3). Absent: 0.6.
   */
  readonly hybridAlpha?: number | undefined;
}

/**
 * What a `createEmbedder.for(provider)` tap receives: the validated `[embedding]` section (camelCase) and the
 * environment.
 */
export interface EmbedderOptions {
  readonly provider: string;
  readonly model: string | null;
  readonly dims: number | null;
  readonly batchSize: number;
  /** Batches in flight. */
  readonly concurrency: number;
  /**
   * The provider's own keys: as its plugin's `embedderConfigs` section made them (checked, defaults
   * applied, converted by its `toConfig`; ADR 0178), or the section's other keys as written (snake_case)
   * for a provider that declares none, which its plugin checks.
   */
  readonly extra: Readonly<Record<string, unknown>>;
  /** The folder relative paths in the section resolve against (the config root, ADR 0114). */
  readonly baseDir: string;
  /** The process environment (API keys are read from it, never from the config). */
  readonly env: Readonly<Record<string, string | undefined>>;
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

/**
 * A tool as a plugin adds it. `inputSchema` is a JSON Schema object, advertised and checked whole
 * (top-level keywords such as `additionalProperties: false` or `oneOf` included).
 */
export interface PluginToolDef {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  readOnly?: boolean;
  /** Seconds; default `[extensions] timeout` (30); none for a tool that sets `params` without `timeout`. */
  timeout?: number;
  /** kbctx's own parameter list (bounds such as `maxLength` included), instead of `inputSchema`. */
  params?: readonly ParamSpec[];
  /** Listed first and reserved: no other tool may take its name. */
  builtin?: boolean;
  /**
   * True: `call` returns an MCP tool result, `{ content: ContentBlock[], isError?: boolean }` (text,
   * image, audio, resource blocks), which MCP passes on as it is (REST and the CLI show the same object).
   * Default: the value is data, sent over MCP as JSON text (and `structuredContent` for an object).
   */
  content?: boolean;
  /**
   * What `kbctx tool list` shows as its origin (`script` for the Lua bridge's script tools); default the plugin's name.
   */
  source?: string;
  call(params: Record<string, unknown>, ctx: PluginToolContext): unknown;
}

/**
 * A tool's `ctx`: the plugin's context plus `client`, log messages and progress to the calling client (MCP
 * notifications; no-ops over REST and the CLI).
 */
export interface PluginToolContext extends PluginContext {
  readonly client: ToolClient;
}

/** One piece of a resource as MCP `resources/read` returns it: `text`, or `blob` (base64). */
export interface PluginResourceContents {
  text?: string;
  /** Base64-encoded bytes. */
  blob?: string;
  /** Default: the resource's `mimeType`. */
  mimeType?: string;
}

/**
 * An MCP resource a plugin adds through the `resources` hook: a fixed `uri`, or a `uriTemplate`
 * whose `{name}` parts each stand for one non-empty piece without `/` (RFC 6570 level 1). Listed by
 * `resources/list` (fixed) or `resources/templates/list`; `read` answers `resources/read` with the
 * template's values (empty for a fixed uri). A KbctxError `not_found` is the MCP resource-not-found error.
 */
export interface PluginResourceDef {
  uri?: string;
  uriTemplate?: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(
    uri: string,
    values: Record<string, string>,
    ctx: PluginContext,
  ): PluginResourceContents | Promise<PluginResourceContents>;
}

/** An agent (an MCP prompt) as a plugin adds it. */
export interface PluginAgentDef {
  name: string;
  description?: string;
  tools?: string[];
  arguments?: { name: string; description?: string; required?: boolean }[];
  timeout?: number;
  /** What `kbctx agent list` shows as its origin (`lua` for the Lua bridge's script agents); default `extension`. */
  source?: string;
  resolve(args: Record<string, unknown>, ctx: PluginContext): PluginPrompt | Promise<PluginPrompt>;
}

export interface PluginPrompt {
  system: string;
  tools?: string[];
  /**
   * `content`: text, or an MCP content block (`{type: 'image', data, mimeType}`,
   * `{type: 'resource', resource: {uri, text | blob}}` …) sent as it is over MCP.
   */
  messages?: { role: 'user' | 'assistant'; content: string | PromptContentBlock }[];
}

/** `[connectors.<type>.<name>]`: what `createConnector.for(type)` taps receive. */
export interface ConnectorInstance {
  type: string;
  name: string;
  /** The section: as written for plugin types, validated (camelCase) for the built-in types. */
  options: Record<string, unknown>;
  /** A folder beside the index for the connector's own caches (git clones …). */
  dataDir: string;
  /** The config root (the project folder above `config/`, ADR 0114): relative paths in options resolve against it. */
  baseDir: string;
}

/** One item a plugin connector or a compiled extension's connector yields (the Lua connectors' item fields). */
export interface PluginItem {
  source_id: string;
  title?: string;
  body: string;
  source_url?: string;
  /** RFC 3339, `YYYY-MM-DD HH:MM:SS` (UTC) or unix seconds; default now. */
  updated_at?: string | number;
  content_type?: string;
  author?: string;
  metadata_json?: string | Record<string, unknown>;
}

/** The simple form: every item the source holds (what is not listed is deleted from the index). */
export interface PluginConnector {
  scan(ctx: PluginContext): AsyncIterable<PluginItem> | Iterable<PluginItem>;
  timeout?: number;
}

/**
 * The incremental form (the first-party connectors'): `scan` lists entries with cheap fingerprints
 * and loads an entry's text only when it changed; see src/connectors/connector.ts.
 */
export type IncrementalConnector = Connector;

/** What a `createConnector.for(type)` tap returns. */
export type ConnectorImpl = PluginConnector | IncrementalConnector;

export const isIncrementalConnector = (c: ConnectorImpl): c is IncrementalConnector =>
  typeof (c as { label?: unknown }).label === 'string';

/** `[db]` as the `createStore.for(engine)` taps receive it (validated; paths absolute). */
export interface StoreOptions {
  /** `[db] engine`: the key the store plugin tapped (`sqlite`, `postgres`, …). */
  engine: string;
  /** `[db] path`: the SQLite file, or the folder beside it where a store keeps local files. */
  path: string;
  /** `[db] url` (or KBCTX_DATABASE_URL); null when not set. */
  url: string | null;
  poolSize: number;
  keywordEngine: 'postings' | 'fts5';
  /**
   * What the command needs of the index (absent: `create`). `create` (init, sync, serve, the library):
   * create it when missing. `write` (embed): it must exist and be writable. `read` (search, stats,
   * doctor, get, …): it must exist and is never created; a store that cannot be written opens read-only.
   * A missing index (not `create`) or one a writer cannot write is KbctxError `unavailable` naming the path.
   */
  access?: IndexAccess | undefined;
}

/** See StoreOptions.access. */
export type IndexAccess = 'read' | 'write' | 'create';

/**
 * What a `createStore.for(engine)` tap returns, synchronously (a store whose driver loads
 * asynchronously returns a store that forwards to it once open, as the PostgreSQL one does).
 */
export interface OpenedStore {
  store: Store;
  /** The per-connector locks (one writer per connector across processes). */
  locks: ConnectorLocks;
  /** How `kbctx serve`, `doctor` and `init` name the engine ('SQLite', 'PostgreSQL'). */
  label: string;
  /** The schema version the store migrates to, for `kbctx init` (may import the store's migrations). */
  schemaVersion?: (() => number | Promise<number>) | undefined;
}

/** A `plugins` entry naming a file the kernel does not import itself: what `resolvePlugin.for(ext)` taps receive. */
export interface PluginFileSpec {
  /** Absolute path. */
  file: string;
  /** The entry as written in `plugins` (for messages). */
  as: string;
}

/**
 * The createTransport key of the HTTP server as a mountable handler (the library's createHttpHandler); not a `kbctx
 * serve` transport.
 */
export const HTTP_HANDLER_TRANSPORT = 'http-handler';

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

export interface ToolCall {
  name: string;
  params: Record<string, unknown>;
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
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- commander passes the arguments, the options and the command
  action(fn: (...args: any[]) => void | Promise<void>): CliProgram;
  name(): string;
  readonly commands: readonly CliProgram[];
}

export interface Collector<T> {
  add(item: T): void;
}
