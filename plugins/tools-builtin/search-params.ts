// The built-in search tool's parameters, declared once (tools-builtin's, ADR 0232). REST, MCP and the CLI all validate
// through parseSearchParams, so defaults and messages are the same everywhere; other plugins (eval, the Lua bridge's
// `ctx.search`) reach it through tools-builtin's contract entry (api.ts).
import {
  badRequest,
  requireOwn,
  type ParamSpec,
  type RetrievalConfig,
  type SubFieldSpec,
} from '../../core/api/plugin.ts';
import { validateParams } from '../tool-registry/api.ts';
import { SEARCH_MODES, type SearchMode, type SearchParams } from '../../core/api/use-cases.ts';
import type * as FilterParams from './filter-params.ts';
import type * as Since from './since.ts';
import { rejectUnknownParams } from './unknown-params.ts';

const SINCE_HELP = 'an ISO date (2026-01-31), a date-time, or a duration back from now such as 7d, 12h or 2w';

/** The accepted keys of `filters`, with their JSON Schema (the MCP tool's input schema shows them). */
export const FILTER_FIELDS: Readonly<Record<string, SubFieldSpec>> = {
  source: {
    type: ['string', 'array'],
    items: { type: 'string' },
    description: 'Connector labels ("git:docs") or types ("git"): any of them.',
  },
  since: { type: 'string', description: 'Only documents updated at or after this time (date, date-time or 7d).' },
  until: { type: 'string', description: 'Only documents updated before this time (date, date-time or 7d).' },
  path: {
    type: ['string', 'array'],
    items: { type: 'string' },
    description:
      'Globs on the document path or web URL: "docs/**" includes, "!**/*.test.ts" excludes (includes: any must match).',
  },
  lang: {
    type: ['string', 'array'],
    items: { type: 'string' },
    description:
      'Languages by file extension, any of: typescript, javascript, python, go, rust, java, c, cpp, csharp, ' +
      'ruby, php, markdown, html, json, yaml, … (docs/search.md).',
  },
  type: {
    type: ['string', 'array'],
    items: { type: 'string' },
    description: 'Content types ("text/markdown") or their short form ("markdown", "pdf"): any of them.',
  },
  tags: {
    type: ['string', 'array'],
    items: { type: 'string' },
    description: 'Tags (front matter or connector metadata `tags`, case-insensitive): any of them.',
  },
  tags_all: { type: ['string', 'array'], items: { type: 'string' }, description: 'Tags: all of them.' },
  meta: {
    type: 'object',
    description:
      'Metadata equality: {"team": "infra", "tier": ["1", "2"]}; ' +
      'a list accepts any of its values; every key must hold.',
    additionalProperties: { type: ['string', 'number', 'boolean', 'array'] },
  },
};

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
    name: 'until',
    type: 'string',
    maxLength: 64,
    description: `Only documents updated before this time: ${SINCE_HELP}.`,
  },
  {
    name: 'filters',
    type: 'object',
    description:
      'What scopes the search, applied before the cut: {"path": ["docs/**", "!**/*.test.ts"], "lang": ' +
      '"typescript", "type": "markdown", "tags": ["a", "b"] (any of), "tags_all": […], "meta": {"team": "infra", ' +
      '"tier": ["1", "2"]}, "source": […], "since": …, "until": …}.',
    properties: FILTER_FIELDS,
  },
  { name: 'explain', type: 'boolean', description: 'Add per-result keyword, semantic and hybrid scores.' },
  { name: 'rerank', type: 'boolean', description: 'false: skip the configured reranker for this search.' },
];

/** Validates raw input (CLI, eval) against SEARCH_PARAMS, then applies the search rules and defaults. */
export function parseSearchParams(input: unknown, retrieval: RetrievalConfig, now?: Date): SearchParams {
  return toSearchParams(validateParams(SEARCH_PARAMS, input), retrieval, now);
}

/**
 * The search rules beyond the schema (no unknown parameter, non-empty query, positive limit capped at
 * max_limit, filters read and merged with their top-level twins, defaults), for parameters already checked
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
  const input = { filters: p['filters'], source: p['source'], since: p['since'], until: p['until'] };
  const filter = Object.values(input).every((v) => v === undefined || v === null)
    ? undefined
    : requireOwn<typeof FilterParams>(import.meta.url, './filter-params.ts').readFilter(input, (value, parameter) =>
        requireOwn<typeof Since>(import.meta.url, './since.ts').parseSince(value, now, parameter),
      );
  return {
    query,
    mode: (p['mode'] as SearchMode | undefined) ?? 'keyword',
    limit: Math.min(limit, retrieval.maxLimit),
    source: filter?.source?.length === 1 ? filter.source[0] : undefined,
    ...(filter?.since !== undefined ? { since: filter.since } : {}),
    ...(filter ? { filter } : {}),
    explain: p['explain'] === true,
    ...(typeof p['rerank'] === 'boolean' ? { rerank: p['rerank'] } : {}),
  };
}
