// The embedding provider contract (declared in core/, the type `createEmbedder.for(provider)` taps return,
// and what they receive). One implementation per provider plugin (local, openai, ollama, transformers, or a
// third party's); providers do no storage.

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

export interface RetryOptions {
  maxRetries: number;
  timeoutMs: number;
  /** First backoff step; doubles per attempt, with full jitter (default 500 ms). */
  baseDelayMs?: number;
  /** Longest wait honoured from a Retry-After header or backoff (default 60 s). */
  maxDelayMs?: number;
}
