// The Ollama embedder from the [embedding] section (its native API at `url`).
import type { Embedder, EmbedderOptions } from '../../core/api/plugin.ts';
import type { OllamaSettings } from './index.ts';
import { OLLAMA_URL, OllamaEmbedder } from './ollama-embedder.ts';

export const DEFAULT_OLLAMA_MODEL = 'nomic-embed-text';

/** `o.extra`: the provider's keys as config-section.ts made them. */
export function createOllamaEmbedder(o: EmbedderOptions): Embedder {
  const { url, maxRetries, timeoutSecs } = o.extra as unknown as OllamaSettings;
  const { dims, batchSize, concurrency } = o;
  return new OllamaEmbedder({
    maxRetries,
    timeoutMs: timeoutSecs * 1000,
    dims,
    batchSize,
    concurrency,
    url: url ?? OLLAMA_URL,
    model: o.model ?? DEFAULT_OLLAMA_MODEL,
  });
}
