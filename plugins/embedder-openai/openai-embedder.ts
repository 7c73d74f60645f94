// Any OpenAI-compatible /v1/embeddings server (OpenAI, Azure, vLLM, LM Studio, Ollama's /v1):
// POST {base_url}/embeddings {model, input: [...], encoding_format: "float"[, dimensions for text-embedding-3]}
// → {data: [{index, embedding}]}. The key comes from the environment variable named by api_key_env.
import { type Embedder, configError, KbctxError, type RetryOptions } from '../../core/api/plugin.ts';
import { postJson } from './api.ts';
import { toUnitVectors } from '../../core/api/algorithms.ts';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAiEmbedderOptions extends RetryOptions {
  baseUrl: string;
  model: string;
  dims: number | null;
  apiKey: string | null;
  batchSize: number;
  concurrency: number;
}

export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  readonly dims: number | null;
  readonly batchSize: number;
  readonly concurrency: number;
  private readonly options: OpenAiEmbedderOptions;

  constructor(options: OpenAiEmbedderOptions) {
    this.options = options;
    this.model = `openai:${options.model}`;
    this.dims = options.dims;
    this.batchSize = options.batchSize;
    this.concurrency = options.concurrency;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const { baseUrl, model, dims, apiKey } = this.options;
    // Only the text-embedding-3 family accepts `dimensions`; other servers may reject the field.
    const shortened = dims !== null && model.startsWith('text-embedding-3');
    const body = { model, input: texts, encoding_format: 'float', ...(shortened ? { dimensions: dims } : {}) };
    const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
    const what = `the embedding server at ${baseUrl}`;
    const answer = (await postJson(`${baseUrl.replace(/\/+$/, '')}/embeddings`, body, headers, this.options, what)) as {
      data?: { index?: number; embedding?: unknown }[];
    };
    if (!Array.isArray(answer.data)) throw new KbctxError('upstream_error', `${what} answered without a data array`);
    const ordered = [...answer.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((d) => d.embedding);
    return toUnitVectors(ordered, texts.length, dims, what);
  }
}

/** The API key, required only for OpenAI itself (local servers usually need none). */
export function openAiKey(env: NodeJS.ProcessEnv, keyEnv: string, baseUrl: string): string | null {
  const key = env[keyEnv]?.trim();
  if (key) return key;
  if (baseUrl === OPENAI_BASE_URL)
    throw configError(`[embedding] provider = "openai" needs an API key in $${keyEnv} (api_key_env)`);
  return null;
}
