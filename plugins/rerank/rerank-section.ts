// `[rerank]`, the section the rerank plugin owns (ADR 0164): its JSON Schema (defaults live here only)
// and the typed settings it becomes. Absent, or without `provider`: no reranker, no `rank` tap.
import { sectionOf, type Config, type ConfigSection } from '../../core/api/plugin.ts';

export const RERANK_FORMATS = ['cohere', 'jina', 'voyage', 'tei'] as const;
export type RerankFormat = (typeof RERANK_FORMATS)[number];

export const RERANK_PROVIDERS = ['http', 'transformers'] as const;

export interface RerankConfig {
  provider: (typeof RERANK_PROVIDERS)[number];
  format: RerankFormat;
  /** The API root; `/rerank` is appended. Null: the format's public API (tei has none). */
  baseUrl: string | null;
  /** http: the remote's model name; transformers: a hub id fetched into the model cache (docs/models.md). */
  model: string | null;
  /** transformers: a local model folder (config.json, tokenizer.json, onnx/model.onnx), resolved. */
  modelPath: string | null;
  /** transformers: threads of the ONNX runtime in the worker. */
  threads: number;
  /** The name of the environment variable holding the API key (sent as a Bearer token). */
  apiKeyEnv: string | null;
  /** How many of the fused candidates are reranked (the best ones; the rest keep their order below). */
  candidates: number;
  /** Past this, the fused order is kept (fail open) or the search fails (fail_open = false). */
  budgetMs: number;
  failOpen: boolean;
}

export const DEFAULT_CANDIDATES = 30;
export const DEFAULT_BUDGET_MS = 2000;

export const rerankSection: ConfigSection<RerankConfig | null> = {
  schema: {
    type: 'object',
    properties: {
      provider: {
        type: 'string',
        enum: [...RERANK_PROVIDERS],
        description: 'the reranker: http (a remote rerank API) or transformers (a local cross-encoder ONNX model)',
      },
      format: {
        type: 'string',
        enum: [...RERANK_FORMATS],
        default: 'cohere',
        description: 'the wire format of the remote: cohere, jina, voyage or tei (text-embeddings-inference)',
      },
      base_url: {
        type: 'string',
        description: 'the API root, `/rerank` appended (default: the format’s public API)',
      },
      model: {
        type: 'string',
        description:
          'http: the rerank model the remote should use; transformers: a hub id (Xenova/ms-marco-MiniLM-L-6-v2)',
      },
      model_path: { type: 'string', description: 'transformers: a local model folder instead of a hub id' },
      threads: {
        type: 'integer',
        minimum: 1,
        maximum: 64,
        default: 1,
        description: 'transformers: ONNX runtime threads',
      },
      api_key_env: { type: 'string', description: 'the environment variable holding the API key' },
      candidates: {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        default: DEFAULT_CANDIDATES,
        description: 'how many fused candidates are reranked',
      },
      budget_ms: {
        type: 'integer',
        minimum: 1,
        maximum: 9000,
        default: DEFAULT_BUDGET_MS,
        description: 'time budget of one rerank call, in milliseconds',
      },
      fail_open: {
        type: 'boolean',
        default: true,
        description: 'past the budget or on an error: keep the fused order (true) or fail the search (false)',
      },
    },
    additionalProperties: false,
  },
  toConfig: (s, at) => {
    if (s['provider'] === undefined) return null;
    if (s['provider'] === 'transformers' && s['model'] === undefined && s['model_path'] === undefined)
      at.fail('model', 'is needed with provider = "transformers" (a hub id), unless model_path names a local folder');
    return {
      provider: s['provider'] as RerankConfig['provider'],
      format: s['format'] as RerankFormat,
      baseUrl: typeof s['base_url'] === 'string' ? s['base_url'].replace(/\/+$/, '') : null,
      model: typeof s['model'] === 'string' ? s['model'] : null,
      modelPath: typeof s['model_path'] === 'string' ? at.resolvePath(s['model_path']) : null,
      threads: s['threads'] as number,
      apiKeyEnv: typeof s['api_key_env'] === 'string' ? s['api_key_env'] : null,
      candidates: s['candidates'] as number,
      budgetMs: s['budget_ms'] as number,
      failOpen: s['fail_open'] as boolean,
    };
  },
};

/** `[rerank]` as loaded; null when no reranker is configured. */
export const rerankConfigOf = (config: Config): RerankConfig | null =>
  sectionOf<RerankConfig | null | undefined>(config, 'rerank') ?? null;

/**
 * The `rank` tap's cache-key part (ADR 0197): off for `rerank: false`, else the reranker's identity and every
 * setting that shapes its answer, so a changed model, endpoint or candidate count never meets an old page.
 */
export function rerankCacheKey(config: RerankConfig): (request: { rerank?: boolean | undefined }) => string {
  const { provider, format, baseUrl, model, modelPath, candidates } = config;
  const on = JSON.stringify({ provider, format, baseUrl, model, modelPath, candidates });
  return (request) => (request.rerank === false ? 'off' : on);
}
