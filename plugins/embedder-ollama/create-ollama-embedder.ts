// The Ollama embedder from the [embedding] section (its native API at `url`).
import type { Embedder, EmbedderOptions } from '../../core/api/plugin.ts';
import { OLLAMA_URL, OllamaEmbedder } from './ollama-embedder.ts';

export const DEFAULT_OLLAMA_MODEL = 'nomic-embed-text';

export function createOllamaEmbedder(o: EmbedderOptions): Embedder {
  const { maxRetries, timeoutSecs, dims, batchSize, concurrency } = o;
  return new OllamaEmbedder({ maxRetries, timeoutMs: timeoutSecs * 1000, dims, batchSize, concurrency, url: o.url ?? o.baseUrl ?? OLLAMA_URL, model: o.model ?? DEFAULT_OLLAMA_MODEL });
}
