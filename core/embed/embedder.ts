// The embedding provider contract (declared in core/, the type `createEmbedder.for(provider)` taps return). One
// implementation per provider plugin (local, openai, ollama, transformers, or a third party's); providers do no
// storage.

export type { Embedder } from '../hook-types.ts';

export interface RetryOptions {
  maxRetries: number;
  timeoutMs: number;
  /** First backoff step; doubles per attempt, with full jitter (default 500 ms). */
  baseDelayMs?: number;
  /** Longest wait honoured from a Retry-After header or backoff (default 60 s). */
  maxDelayMs?: number;
}
