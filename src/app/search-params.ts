// The built-in search tool's parameters, declared once. REST, MCP and the CLI all validate through
// parseSearchParams, so defaults and messages are the same everywhere.
import { badRequest } from '../core/errors.ts';
import { SEARCH_MODES, type SearchMode } from '../core/models.ts';
import { validateParams, type ParamSpec } from '../core/tools/param-spec.ts';
import type { RetrievalConfig } from '../config/types.ts';

export const SEARCH_PARAMS: readonly ParamSpec[] = [
  { name: 'query', type: 'string', required: true, description: 'What to look for, in plain words or a question.' },
  { name: 'mode', type: 'string', enum: SEARCH_MODES, description: 'keyword (BM25, default), semantic (embeddings) or hybrid (both).' },
  { name: 'limit', type: 'integer', description: 'Maximum number of documents to return (default from retrieval.final_limit).' },
  { name: 'explain', type: 'boolean', description: 'Also return how each result was scored (keyword, semantic and hybrid scores).' },
  { name: 'source', type: 'string', description: 'Only this connector label (e.g. "git:docs") or type (e.g. "git").' },
];

export interface SearchParams {
  query: string;
  mode: SearchMode;
  limit: number;
  source: string | undefined;
  explain: boolean;
}

/** Validates raw input (CLI, eval) against SEARCH_PARAMS, then applies the search rules and defaults. */
export function parseSearchParams(input: unknown, retrieval: RetrievalConfig): SearchParams {
  return toSearchParams(validateParams(SEARCH_PARAMS, input), retrieval);
}

/**
 * The search rules beyond the schema (non-empty query, positive limit capped at max_limit, defaults),
 * for parameters already checked against SEARCH_PARAMS (ToolRegistry.call validates tool input).
 */
export function toSearchParams(p: Record<string, unknown>, retrieval: RetrievalConfig): SearchParams {
  const query = (p['query'] as string).trim();
  if (query === '') throw badRequest("parameter 'query' must not be empty", { parameter: 'query' });
  const limit = p['limit'] === undefined ? retrieval.finalLimit : (p['limit'] as number);
  if (limit < 1) throw badRequest(`parameter 'limit' must be a positive integer, got ${limit}`, { parameter: 'limit' });
  const source = typeof p['source'] === 'string' && p['source'].trim() !== '' ? p['source'].trim() : undefined;
  return {
    query,
    mode: (p['mode'] as SearchMode | undefined) ?? 'keyword',
    limit: Math.min(limit, retrieval.maxLimit),
    source,
    explain: p['explain'] === true,
  };
}
