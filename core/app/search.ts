// The search use-case: keyword search today; semantic and hybrid plug in through `vectorSearch`
// (embeddings issue). Results are documents, best first, scores in [0, 1], ties by id.
import { chunkPlace } from '../domain/line-ranges.ts';
import { KbctxError, notFound } from '../domain/errors.ts';
import type { SearchResult } from '../domain/models.ts';
import { analyzeQuery } from '../search/analyze-query.ts';
import { makeSnippet } from '../search/snippet.ts';
import type { RetrievalConfig } from '../config/types.ts';
import { bundledConnectorTypes } from '../config/plugin-sections.ts';
import type { Store } from '../store/store.ts';
import type * as EmbeddingProviders from '../embed/embedding-providers.ts';
import { requireOwn } from '../load/require-own.ts';
import { searchFilter, sourcesOf } from '../search/document-filter.ts';

export { searchFilter } from '../search/document-filter.ts';
import type { SearchParams } from '../domain/models.ts';
import type { Pipeline } from './plugin-pipeline.ts';
import { UNOBSERVED, type StageObserver } from './index-service.ts';
import { requestOrigin } from './request-origin.ts';
import type * as ScopeFilter from '../search/scope-filter.ts';
import type { AccessScope } from '../domain/access-scope.ts';

export interface SearchDeps {
  store: Store;
  retrieval: RetrievalConfig;
  /** Present when an embedding provider is configured and embeddings exist. */
  semantic?: SemanticSearch | undefined;
  /** The response cache a plugin provides (`kbctx.search-cache`, the search-cache plugin); none: nothing is cached. */
  cache?: SearchCache | undefined;
  /**
   * Source labels that exist (configured or indexed): an unknown `source` with no results is not_found listing them.
   */
  knownSources?: (() => Promise<string[]>) | undefined;
  /** The `[embedding] provider` names the loaded plugins answer for (the error when none is configured lists them). */
  embeddingProviders?: (() => string[]) | undefined;
  /** Plugins' `query`, `rank` and `searched` taps (none: skipped). */
  pipeline?: Pick<Pipeline, 'query' | 'rank' | 'rankCacheKey' | 'searched'> | undefined;
  /**
   * Watches the stages (`search`, `search.keyword`, `search.vector`, …: index-service.ts StageObserver); none:
   * unobserved.
   */
  observe?: StageObserver | undefined;
}

/** Semantic/hybrid search, provided by the embeddings layer. */
export interface SemanticSearch {
  search(params: SearchParams, deps: SearchDeps): Promise<SearchResponse>;
}

/**
 * An LRU of search responses valid for one index generation (ADR 0197, 0251). `key` names everything that shapes a
 * response: the parameters, their filter in any field order and the `[retrieval]` settings; with `rankParts` (the
 * `rank` taps' cache-key parts) the key of a ranked page, never equal to a key without them. `get` answers only an
 * entry stored under the same `generation` (`Store.generation()`: any write by any process changes it) and counts a
 * hit or a miss; `set` may drop the least recently used entry. A cached response is shared: callers never mutate it.
 */
export interface SearchCache {
  key(params: SearchParams, retrieval: RetrievalConfig, rankParts?: string): string;
  get(key: string, generation: string): SearchResponse | undefined;
  set(key: string, generation: string, response: SearchResponse): void;
  /** Hits and misses so far in this process (the metrics plugin's counters). */
  readonly hits: number;
  readonly misses: number;
}

export interface SearchResponse {
  results: SearchResult[];
  explain: {
    mode: SearchParams['mode'];
    alpha: number | null;
    keywordCandidates: number;
    vectorCandidates: number;
    terms: string[];
  };
}

export async function search(deps: SearchDeps, input: SearchParams): Promise<SearchResponse> {
  if (!deps.observe) return searchLogged(deps, input);
  const attributes = { 'kbctx.search.mode': input.mode, 'kbctx.search.limit': input.limit };
  return deps.observe.stage('search', attributes, () => searchLogged(deps, input));
}

/** The search, reported to the `searched` taps (the query log) with its latency and who asked. */
async function searchLogged(deps: SearchDeps, input: SearchParams): Promise<SearchResponse> {
  const searched = deps.pipeline?.searched;
  if (!searched) return searchPipeline(deps, input);
  const started = performance.now();
  let request = input;
  const response = await searchPipeline(deps, input, (params) => (request = params));
  const latencyMs = Math.round((performance.now() - started) * 1000) / 1000;
  searched({ request, results: response.results, latencyMs, origin: requestOrigin() });
  return response;
}

async function searchPipeline(
  deps: SearchDeps,
  input: SearchParams,
  seen?: (params: SearchParams) => void,
): Promise<SearchResponse> {
  const { query, rank, rankCacheKey } = deps.pipeline ?? {};
  const asked = query ? await query(input) : input;
  seen?.(asked);
  // The caller's scope joins the filter after the `query` taps (they cannot widen it) and before the cache and the
  // stores, which apply it inside candidate retrieval (ADR 0225).
  const scope = requestOrigin().scope;
  const params = scopedParams(asked, scope);
  const response = rank ? await ranked(deps, params, { rank, rankCacheKey }) : await searchCached(deps, params);
  // Checked only when nothing matched, so a search that finds something never pays for it (and a
  // script item's own `source` label, unknown to the config, still works when it has documents).
  const sources = sourcesOf(searchFilter(params));
  if (response.results.length === 0 && sources !== undefined && deps.knownSources) {
    const inScope = scope === undefined ? () => true : (l: string) => scopeFilters().sourceInScope(l, scope);
    const labels = (await deps.knownSources()).filter(inScope);
    for (const source of sources) checkSource(source, labels);
  }
  return response;
}

/**
 * How many candidates a `rank` tap sees (docs/plugins-reference.md): deep enough for a boost to lift a document into
 * the page.
 */
export const rankDepth = (limit: number): number => Math.max(limit * 3, RANK_DEPTH_MIN);
const RANK_DEPTH_MIN = 30;

/**
 * Search with `rank` taps: the engine's best rankDepth(limit) candidates (cached under that deeper
 * limit, in the engine's order), a copy of them reordered by the taps with `request.limit` still the
 * page size, then cut to the page. Without a tap, search() never comes here: no deeper search.
 * The page itself is cached when every tap names its cache-key part and none marks the call
 * uncacheable (ADR 0197), under the generation read before the search: a write meanwhile makes it stale.
 */
async function ranked(deps: SearchDeps, params: SearchParams, pipeline: RankPipeline): Promise<SearchResponse> {
  const parts = deps.cache ? pipeline.rankCacheKey?.(params) : undefined;
  const key = parts === undefined ? undefined : deps.cache?.key(params, deps.retrieval, parts);
  const generation = key === undefined ? '' : deps.store.generation();
  const cached = key === undefined ? undefined : deps.cache?.get(key, generation);
  if (cached) return cached;
  const found = await searchCached(deps, { ...params, limit: rankDepth(params.limit) });
  let cacheable = key !== undefined;
  const hits = await pipeline.rank([...found.results], params, { uncacheable: () => (cacheable = false) });
  const response = { ...found, results: hits.slice(0, params.limit) };
  if (cacheable) deps.cache?.set(key!, generation, response);
  return response;
}

type RankPipeline = Pick<Pipeline, 'rankCacheKey'> & { rank: NonNullable<Pipeline['rank']> };

function checkSource(source: string, labels: readonly string[]): void {
  // A bundled connector type is a valid filter even with no instance configured (it just matches nothing).
  const known = new Set([...bundledConnectorTypes(), ...labels.flatMap((l) => [l, l.split(':')[0]!])]);
  if (known.has(source)) return;
  const types = [...new Set(labels.map((l) => l.split(':')[0]))].join(', ');
  const listed =
    labels.length === 0
      ? 'no sources are configured or indexed'
      : `sources: ${labels.join(', ')} (or a type: ${types})`;
  throw notFound(`source '${source}' does not exist; ${listed}`);
}

async function searchCached(deps: SearchDeps, params: SearchParams): Promise<SearchResponse> {
  if (!deps.cache) return searchUncached(deps, params);
  const key = deps.cache.key(params, deps.retrieval);
  const generation = deps.store.generation();
  const cached = deps.cache.get(key, generation);
  if (cached) return cached;
  const response = await searchUncached(deps, params);
  deps.cache.set(key, generation, response);
  return response;
}

async function searchUncached(deps: SearchDeps, params: SearchParams): Promise<SearchResponse> {
  if (params.mode !== 'keyword') {
    if (!deps.semantic) {
      // Only this error names the providers: their module is required here, not with every search (ADR 0130).
      const { providerChoices } = requireOwn<typeof EmbeddingProviders>(
        import.meta.url,
        '../embed/embedding-providers.ts',
      );
      throw new KbctxError(
        'embeddings_not_configured',
        `${params.mode} search needs embeddings, and none are configured: set [embedding] provider = ` +
          `${providerChoices(deps.embeddingProviders?.() ?? [])} in the config, then run \`kbctx embed pending\``,
      );
    }
    return deps.semantic.search(params, deps);
  }
  return keywordSearch(deps, params);
}

export async function keywordSearch(
  deps: SearchDeps,
  params: SearchParams,
  candidateK?: number,
): Promise<SearchResponse> {
  const terms = analyzeQuery(params.query);
  // Keyword mode needs only enough chunks to fill `limit` documents (the store fetches more when
  // grouping leaves too few); the full candidate_k_keyword list is for hybrid fusion.
  const k = candidateK ?? Math.min(deps.retrieval.candidateKKeyword, Math.max(2 * params.limit, 16));
  const result = await (deps.observe ?? UNOBSERVED).stage('search.keyword', { 'kbctx.search.candidate_k': k }, () =>
    deps.store.keywordSearch({ terms, limit: params.limit, candidateK: k, filter: searchFilter(params) }),
  );
  const stems = new Set(terms.map((t) => t.stem));
  const results: SearchResult[] = result.hits.map((hit) => ({
    id: hit.document.id,
    source: hit.document.source,
    sourceId: hit.document.sourceId,
    title: hit.document.title,
    score: round(hit.score),
    snippet: makeSnippet(hit.chunk.text, stems),
    ...chunkPlace(hit.chunk),
    chunkText: hit.chunk.text,
    sourceUrl: hit.document.sourceUrl,
    updatedAt: hit.document.updatedAt,
    explain: params.explain
      ? {
          keywordScore: round(hit.score),
          semanticScore: null,
          hybridScore: round(hit.score),
          chunkId: hit.chunk.id,
          chunkIndex: hit.chunk.chunkIndex,
        }
      : undefined,
  }));
  return {
    results,
    explain: {
      mode: 'keyword',
      alpha: null,
      keywordCandidates: result.candidateCount,
      vectorCandidates: 0,
      terms: result.matchedTerms.map((t) => t.token),
    },
  };
}

// Loaded only under a scope: `kbctx search` (no token) never reads it (start-up).
const scopeFilters = (): typeof ScopeFilter =>
  requireOwn<typeof ScopeFilter>(import.meta.url, '../search/scope-filter.ts');

function scopedParams(params: SearchParams, scope: AccessScope | undefined): SearchParams {
  const filter = scope === undefined ? params.filter : scopeFilters().scopedFilter(params.filter, scope);
  return filter === params.filter ? params : { ...params, filter };
}

const round = (n: number): number => Math.round(n * 1e6) / 1e6;
