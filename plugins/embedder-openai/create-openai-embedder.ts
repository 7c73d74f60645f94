// The OpenAI (or OpenAI-compatible) embedder from the [embedding] section: the API key from the
// environment variable `api_key_env`, required only by OpenAI itself.
import type { Embedder, EmbedderOptions } from '../../core/api/plugin.ts';
import { OPENAI_BASE_URL, OpenAiEmbedder, openAiKey } from './openai-embedder.ts';

export const DEFAULT_OPENAI_MODEL = 'text-embedding-3-small';

export function createOpenAiEmbedder(o: EmbedderOptions): Embedder {
  const baseUrl = o.baseUrl ?? o.url ?? OPENAI_BASE_URL;
  const apiKey = openAiKey(o.env, o.apiKeyEnv, baseUrl);
  const { maxRetries, timeoutSecs, dims, batchSize, concurrency } = o;
  return new OpenAiEmbedder({ maxRetries, timeoutMs: timeoutSecs * 1000, dims, batchSize, concurrency, baseUrl, apiKey, model: o.model ?? DEFAULT_OPENAI_MODEL });
}
