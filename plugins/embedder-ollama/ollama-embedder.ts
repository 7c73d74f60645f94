// Ollama's native API: POST {url}/api/embed {model, input: [...], truncate: true} → {embeddings: [[...]]}.
// A missing model is reported with the `ollama pull` hint rather than a bare 404.
import { type Embedder, KbctxError, type RetryOptions } from '../../core/api/plugin.ts';
import { postJson } from '../embedder-openai/api.ts';
import { toUnitVectors } from '../../core/api/algorithms.ts';

export const OLLAMA_URL = 'http://127.0.0.1:11434';

export interface OllamaEmbedderOptions extends RetryOptions {
  url: string;
  model: string;
  dims: number | null;
  batchSize: number;
  concurrency: number;
}

export class OllamaEmbedder implements Embedder {
  readonly model: string;
  readonly dims: number | null;
  readonly batchSize: number;
  readonly concurrency: number;
  private readonly options: OllamaEmbedderOptions;

  constructor(options: OllamaEmbedderOptions) {
    this.options = options;
    this.model = `ollama:${options.model}`;
    this.dims = options.dims;
    this.batchSize = options.batchSize;
    this.concurrency = options.concurrency;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const { url, model, dims } = this.options;
    const what = `Ollama at ${url}`;
    let answer: { embeddings?: unknown };
    try {
      answer = (await postJson(
        `${url.replace(/\/+$/, '')}/api/embed`,
        { model, input: texts, truncate: true },
        {},
        this.options,
        what,
      )) as {
        embeddings?: unknown;
      };
    } catch (error) {
      if (error instanceof KbctxError && error.details?.['status'] === 404) {
        throw new KbctxError('upstream_error', `${error.message} (run \`ollama pull ${model}\` first)`, {
          cause: error,
        });
      }
      throw error;
    }
    return toUnitVectors(answer.embeddings, texts.length, dims, what);
  }
}
