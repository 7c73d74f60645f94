// The OpenAI (or OpenAI-compatible) embedder from the [embedding] section: the API key from the
// environment variable `api_key_env`, required only by OpenAI itself.
import type { Embedder, EmbedderOptions } from '../../core/api/plugin.ts';
import type { OpenAiSettings } from './index.ts';
import { OPENAI_BASE_URL, OpenAiEmbedder, openAiKey } from './openai-embedder.ts';

export const DEFAULT_OPENAI_MODEL = 'text-embedding-3-small';

/** `o.extra`: the provider's keys as config-section.ts made them. */
export function createOpenAiEmbedder(o: EmbedderOptions): Embedder {
  const { baseUrl: written, apiKeyEnv, maxRetries, timeoutSecs } = o.extra as unknown as OpenAiSettings;
  const baseUrl = written ?? OPENAI_BASE_URL;
  const apiKey = openAiKey(o.env, apiKeyEnv, baseUrl);
  const { dims, batchSize, concurrency } = o;
  return new OpenAiEmbedder({
    maxRetries,
    timeoutMs: timeoutSecs * 1000,
    dims,
    batchSize,
    concurrency,
    baseUrl,
    apiKey,
    model: o.model ?? DEFAULT_OPENAI_MODEL,
  });
}
