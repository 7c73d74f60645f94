// The built-in search tool's parameters, declared once. REST, MCP and the CLI all validate through
// parseSearchParams, so defaults and messages are the same everywhere.
import { badRequest } from '../domain/errors.ts';
import { SEARCH_MODES, type SearchMode, type SearchParams } from '../domain/models.ts';
import type * as Since from '../search/since.ts';
import { requireOwn } from '../load/require-own.ts';
import { rejectUnknownParams } from '../tools/unknown-params.ts';
import { validateParams, type ParamSpec } from '../tools/param-spec.ts';
import type { RetrievalConfig } from '../config/types.ts';

const SINCE_HELP = 'an ISO date (2026-01-31), a date-time, or a duration back from now such as 7d, 12h or 2w';

export const SEARCH_PARAMS: readonly ParamSpec[] = [
  {
    name: 'query',
    type: 'string',
    required: true,
    maxLength: 4096,
    description: 'What to look for, in plain words or a question.',
  },
  {
    name: 'mode',
    type: 'string',
    enum: SEARCH_MODES,
    description: 'keyword (BM25, default), semantic (embeddings) or hybrid (both).',
  },
  {
    name: 'limit',
    type: 'integer',
    description: 'Maximum number of documents to return (default from retrieval.final_limit).',
  },
  {
    name: 'source',
    type: 'string',
    maxLength: 512,
    description: 'Only this connector label (e.g. "git:docs") or type (e.g. "git").',
  },
  {
    name: 'since',
    type: 'string',
    maxLength: 64,
    description: `Only documents updated at or after this time: ${SINCE_HELP}.`,
  },
  {
    name: 'filters',
    type: 'object',
    description:
      'Context Harness-style filters: {"source": …, "since": …}, the same as the top-level source and since.',
    properties: {
      source: { type: 'string', description: 'Only this connector label or type.' },
      since: { type: 'string', description: `Only documents updated at or after this time: ${SINCE_HELP}.` },
    },
  },
  { name: 'explain', type: 'boolean', description: 'Add per-result keyword, semantic and hybrid scores.' },
  { name: 'rerank', type: 'boolean', description: 'false: skip the configured reranker for this search.' },
];

const FILTER_KEYS = ['source', 'since'];

/** Validates raw input (CLI, eval) against SEARCH_PARAMS, then applies the search rules and defaults. */
export function parseSearchParams(input: unknown, retrieval: RetrievalConfig, now?: Date): SearchParams {
  return toSearchParams(validateParams(SEARCH_PARAMS, input), retrieval, now);
}

/**
 * The search rules beyond the schema (no unknown parameter, non-empty query, positive limit capped at
 * max_limit, filters merged with their top-level twins, defaults), for parameters already checked
 * against SEARCH_PARAMS (ToolRegistry.call validates tool input).
 */
export function toSearchParams(
  p: Record<string, unknown>,
  retrieval: RetrievalConfig,
  now: Date = new Date(),
): SearchParams {
  rejectUnknownParams(
    p,
    SEARCH_PARAMS.map((s) => s.name),
  );
  const query = (p['query'] as string).trim();
  if (query === '') throw badRequest("parameter 'query' must not be empty", { parameter: 'query' });
  const limit = p['limit'] === undefined ? retrieval.finalLimit : (p['limit'] as number);
  if (limit < 1) throw badRequest(`parameter 'limit' must be a positive integer, got ${limit}`, { parameter: 'limit' });
  const filters = readFilters(p['filters']);
  const source = pick('source', text(p['source']), text(filters['source']));
  const since = pick('since', text(p['since']), text(filters['since']));
  return {
    query,
    mode: (p['mode'] as SearchMode | undefined) ?? 'keyword',
    limit: Math.min(limit, retrieval.maxLimit),
    source,
    since:
      since === undefined
        ? undefined
        : requireOwn<typeof Since>(import.meta.url, '../search/since.ts').parseSince(
            since,
            now,
            p['since'] === undefined ? 'filters.since' : 'since',
          ),
    explain: p['explain'] === true,
    ...(typeof p['rerank'] === 'boolean' ? { rerank: p['rerank'] } : {}),
  };
}

function readFilters(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  const filters = value as Record<string, unknown>;
  rejectUnknownParams(filters, FILTER_KEYS, 'filters.');
  for (const key of FILTER_KEYS) {
    const v = filters[key];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw badRequest(`parameter 'filters.${key}' must be a string, got ${typeof v}`, { parameter: `filters.${key}` });
    }
  }
  return filters;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** A value given both at the top level and in `filters` must agree. */
function pick(name: string, top: string | undefined, nested: string | undefined): string | undefined {
  if (top !== undefined && nested !== undefined && top !== nested) {
    throw badRequest(
      `parameters '${name}' and 'filters.${name}' disagree (${JSON.stringify(top)} vs ${JSON.stringify(nested)}); give one`,
      { parameter: name },
    );
  }
  return top ?? nested;
}
