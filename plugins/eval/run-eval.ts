// Runs `kbctx eval`'s settings: each judged query searched through the real search use-case (the
// configured pipeline included), results mapped to the qrels' ids, figures from metrics.ts and latency
// per query. Indexing a BEIR corpus into a temporary index is corpus-index.ts; printing is the command's.
import { badRequest, type Kbctx } from '../../core/api/plugin.ts';
import { search, type SearchParams, type SearchResponse } from '../../core/api/use-cases.ts';
import { parseSearchParams } from '../tools-builtin/api.ts';
import type { BeirQuery, Qrels } from './beir.ts';
import { percentile, rankRun, scoreRuns, type Figures } from './metrics.ts';

export type EvalMode = SearchParams['mode'];
export type EvalResult = SearchResponse['results'][number];

/**
 * One row of the table: a mode, a hybrid weight (null: the configured one), a chunk size (null: configured) and
 * reranking on or off (null: no reranker is configured).
 */
export interface EvalSetting {
  readonly mode: EvalMode;
  readonly alpha: number | null;
  readonly chunkTokens: number | null;
  readonly rerank: boolean | null;
}

export interface EvalRow extends Figures {
  readonly setting: EvalSetting;
  /** The hybrid weight the searches used (explain's alpha); null for keyword and semantic. */
  readonly alphaUsed: number | null;
  readonly p50Ms: number;
  readonly p95Ms: number;
}

/** The judged queries: in the queries file, with at least one relevant document in the qrels (none: bad_request). */
export function judged(queries: readonly BeirQuery[], qrels: Qrels): { queries: BeirQuery[]; qrels: Qrels } {
  const relevant = (q: BeirQuery) => [...(qrels.get(q.id)?.values() ?? [])].some((g) => g > 0);
  const kept = queries.filter(relevant);
  if (kept.length === 0) throw badRequest('no query of the queries file has a relevant document in the qrels');
  return { queries: kept, qrels: new Map(kept.map((q) => [q.id, qrels.get(q.id)!])) };
}

/** Searches every query with `setting` on `kbctx`'s index (top 100, no response cache) and scores the runs. */
export async function measure(
  kbctx: Kbctx,
  input: { queries: readonly BeirQuery[]; qrels: Qrels },
  setting: EvalSetting,
  idOf: (result: EvalResult) => string,
): Promise<EvalRow> {
  const base = kbctx.index.searchDeps();
  const retrieval = {
    ...base.retrieval,
    maxLimit: Math.max(base.retrieval.maxLimit, 100),
    hybridAlpha: setting.alpha ?? base.retrieval.hybridAlpha,
  };
  const deps = { ...base, retrieval, cache: undefined };
  const runs = new Map<string, string[]>();
  const ms: number[] = [];
  let alphaUsed: number | null = null;
  for (const q of input.queries) {
    const rerank = setting.rerank === null ? {} : { rerank: setting.rerank };
    const params = parseSearchParams({ query: q.text, mode: setting.mode, limit: 100, ...rerank }, retrieval);
    const started = performance.now();
    const response = await search(deps, params);
    ms.push(performance.now() - started);
    alphaUsed ??= setting.mode === 'hybrid' ? response.explain.alpha : null;
    runs.set(q.id, rankRun(response.results.map((r) => ({ id: idOf(r), score: r.score }))));
  }
  return {
    setting,
    alphaUsed: alphaUsed ?? (setting.mode === 'hybrid' ? setting.alpha : null),
    ...scoreRuns(runs, input.qrels),
    p50Ms: percentile(ms, 50),
    p95Ms: percentile(ms, 95),
  };
}

/**
 * For the configured index: a result is the qrels' document by its kbctx id when some qrels line names that id,
 * else by its source id (the connector's: a file's path under its root, a git path, an S3 key).
 */
export function configuredIdOf(qrels: Qrels): (result: EvalResult) => string {
  const named = new Set([...qrels.values()].flatMap((g) => [...g.keys()]));
  return (r) => (named.has(r.id) ? r.id : r.sourceId);
}
