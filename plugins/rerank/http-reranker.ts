// provider = "http": scores documents against a query with a remote rerank API (wire-formats.ts), one
// POST per search, no retry: the whole call is bounded by `budget_ms`. Errors are KbctxErrors (upstream_error).
import { KbctxError } from '../../core/api/plugin.ts';
import { postJson } from '../embedder-openai/api.ts';
import type { RerankConfig } from './rerank-section.ts';
import { DEFAULT_BASE_URLS, parseRerankAnswer, rerankBody } from './wire-formats.ts';

/** Scores one query against documents: one number per document, in their order (higher is more relevant). */
export type Reranker = (query: string, documents: readonly string[]) => Promise<number[]>;

export function createHttpReranker(config: RerankConfig, env: NodeJS.ProcessEnv): Reranker {
  const base = config.baseUrl ?? DEFAULT_BASE_URLS[config.format];
  return async (query, documents) => {
    if (base === null)
      throw new KbctxError(
        'config_error',
        `[rerank] format = "${config.format}" needs base_url (the server's address)`,
      );
    const headers: Record<string, string> = {};
    if (config.apiKeyEnv !== null) {
      const key = env[config.apiKeyEnv];
      if (!key)
        throw new KbctxError('config_error', `[rerank] api_key_env names ${config.apiKeyEnv}, which is not set`);
      headers['authorization'] = `Bearer ${key}`;
    }
    const body = rerankBody(config.format, config.model, query, documents);
    const answer = await postJson(
      `${base}/rerank`,
      body,
      headers,
      { maxRetries: 0, timeoutMs: config.budgetMs },
      `the rerank API at ${base}`,
    );
    return parseRerankAnswer(config.format, answer, documents.length);
  };
}
