// The `rank` tap's work: rerank the best fused candidates with a Reranker, within a time budget.
//   1. `rerank: false` in the request, or fewer than two hits: the hits as they came.
//   2. The first `candidates` hits are scored: the query against each hit's matched chunk text (the snippet
//      when a hit has none), headed by its title, each cut to MAX_DOCUMENT_CHARS.
//   3. Scored in time: they are ordered by the reranker's score (ties: fused order), which replaces the
//      fused score (clipped to [0, 1]); the hits past `candidates` follow in fused order, their scores
//      capped at the lowest reranked one so the list stays sorted by score.
//   4. Past `budget_ms` or on an error: fail_open keeps the fused order, with a note in explain and a
//      log line, and marks the call uncacheable (the next search asks the reranker again, ADR 0197);
//      otherwise the search fails (upstream_error, HTTP 502).
// Never mutates the hits it is given (they are the search cache's).
import {
  isKbctxError,
  KbctxError,
  type Hit,
  type PluginContext,
  type RankControl,
  type SearchRequest,
} from '../../core/api/plugin.ts';
import type { Reranker } from './http-reranker.ts';
import type { RerankConfig } from './rerank-section.ts';

/** Longer texts are cut: rerank models read a few hundred tokens, and the request stays small. */
export const MAX_DOCUMENT_CHARS = 4000;

export async function rerankHits(
  hits: Hit[],
  request: SearchRequest,
  reranker: Reranker,
  config: Pick<RerankConfig, 'candidates' | 'budgetMs' | 'failOpen'>,
  ctx: Pick<PluginContext, 'log'>,
  control?: RankControl,
): Promise<Hit[]> {
  if (request.rerank === false || hits.length < 2) return hits;
  const head = hits.slice(0, config.candidates);
  const documents = head.map(toDocument);
  let scores: number[];
  try {
    scores = await withinBudget(reranker(request.query, documents), config.budgetMs);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!config.failOpen)
      throw isKbctxError(error) ? error : new KbctxError('upstream_error', `reranking failed: ${message}`);
    ctx.log.warn(`reranking skipped, the fused order is kept: ${message}`);
    const note = `reranking skipped (${message}); fused order kept`;
    control?.uncacheable(note);
    return hits.map((h, i) => (i < head.length ? annotate(h, request, i, null, note) : h));
  }
  const order = head.map((_, i) => i).sort((a, b) => score(scores[b]) - score(scores[a]) || a - b);
  const reranked = order.map((i) => annotate({ ...head[i]!, score: round(clip(scores[i]!)) }, request, i, scores[i]!));
  const floor = reranked.length > 0 ? reranked[reranked.length - 1]!.score : 1;
  const tail = hits
    .slice(head.length)
    .map((h, i) => annotate({ ...h, score: Math.min(h.score, floor) }, request, head.length + i, null));
  return [...reranked, ...tail];
}

/** The chunk that matched, headed by the document's title unless the chunk already holds it. */
function toDocument(hit: Hit): string {
  const text = hit.chunkText ?? hit.snippet;
  return (text.includes(hit.title) ? text : `${hit.title}\n${text}`).slice(0, MAX_DOCUMENT_CHARS);
}

function annotate(hit: Hit, request: SearchRequest, index: number, rerankScore: number | null, note?: string): Hit {
  if (!request.explain || !hit.explain) return hit;
  const scored = rerankScore === null || Number.isNaN(rerankScore) ? null : round(rerankScore);
  return {
    ...hit,
    explain: { ...hit.explain, fusedRank: index + 1, rerankScore: scored, ...(note ? { rerankNote: note } : {}) },
  };
}

function withinBudget<T>(work: Promise<T>, budgetMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new KbctxError('upstream_error', `the reranker took longer than budget_ms (${budgetMs} ms)`)),
      budgetMs,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** A document the remote did not score sorts last. */
const score = (n: number | undefined): number => (n === undefined || Number.isNaN(n) ? -Infinity : n);
const clip = (n: number): number => (Number.isNaN(n) ? 0 : Math.min(1, Math.max(0, n)));
const round = (n: number): number => Math.round(n * 1e6) / 1e6;
