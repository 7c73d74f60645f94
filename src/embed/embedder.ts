// The embedding provider contract. One implementation per provider in embed/ (openai, ollama,
// local); create-embedder.ts picks one from the [embedding] config. Providers do no storage.

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
}

export interface RetryOptions {
  maxRetries: number;
  timeoutMs: number;
  /** First backoff step; doubles per attempt, with full jitter (default 500 ms). */
  baseDelayMs?: number;
  /** Longest wait honoured from a Retry-After header or backoff (default 60 s). */
  maxDelayMs?: number;
}
