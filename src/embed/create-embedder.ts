// Builds the configured Embedder from the [embedding] slice of the config; null when disabled.
// Cheap: no provider connects or loads a model until its first embed().
import type { EmbeddingConfig } from '../config/types.ts';
import type { Embedder } from './embedder.ts';
import { foreignLocalModelError } from './foreign-local-models.ts';
import { BUNDLED_DIMS, BUNDLED_LOCAL_MODEL, LocalEmbedder } from './local-embedder.ts';
import { OLLAMA_URL, OllamaEmbedder } from './ollama-embedder.ts';
import { OPENAI_BASE_URL, OpenAiEmbedder, openAiKey } from './openai-embedder.ts';

export const DEFAULT_OPENAI_MODEL = 'text-embedding-3-small';
export const DEFAULT_OLLAMA_MODEL = 'nomic-embed-text';

export function createEmbedder(config: EmbeddingConfig, env: NodeJS.ProcessEnv): Embedder | null {
  const retry = { maxRetries: config.maxRetries, timeoutMs: config.timeoutSecs * 1000 };
  const common = { dims: config.dims, batchSize: config.batchSize, concurrency: config.concurrency };
  switch (config.provider) {
    case 'disabled':
      return null;
    case 'openai': {
      const baseUrl = config.baseUrl ?? config.url ?? OPENAI_BASE_URL;
      const apiKey = openAiKey(env, config.apiKeyEnv, baseUrl);
      return new OpenAiEmbedder({ ...retry, ...common, baseUrl, apiKey, model: config.model ?? DEFAULT_OPENAI_MODEL });
    }
    case 'ollama':
      return new OllamaEmbedder({ ...retry, ...common, url: config.url ?? config.baseUrl ?? OLLAMA_URL, model: config.model ?? DEFAULT_OLLAMA_MODEL });
    case 'local': {
      const foreign = config.model === null ? null : foreignLocalModelError(config.model, BUNDLED_LOCAL_MODEL, BUNDLED_DIMS);
      if (foreign) throw foreign;
      return new LocalEmbedder({ model: config.model ?? BUNDLED_LOCAL_MODEL, dims: config.dims, batchSize: config.batchSize });
    }
  }
}
