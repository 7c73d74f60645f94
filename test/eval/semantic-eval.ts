// Semantic and hybrid rows for the SciFact eval: given an opened kbctx whose index holds the corpus,
// embeds what is pending with the configured provider and scores each mode (nDCG@10, Recall@100).
// The caller (scifact-eval.ts or semantic-eval-run.ts) owns indexing and printing.
import type { Kbctx } from '../../core/app/compose.ts';
import type { Fusion } from '../../core/config/types.ts';
import { embedPending } from '../../core/app/embed.ts';
import { parseSearchParams } from '../../plugins/tools-builtin/search-params.ts';
import { search } from '../../core/app/search.ts';
import type { SearchMode } from '../../core/domain/models.ts';
import { corpusId, ndcgAt, recallAt, type Query } from './scifact.ts';

export interface ModeScore {
  label: string;
  ndcg10: number;
  recall100: number;
  queries: number;
  ms: number;
}

export interface EvalRun {
  label: string;
  mode: SearchMode;
  fusion?: Fusion;
  alpha?: number;
}

export const DEFAULT_RUNS: readonly EvalRun[] = [
  { label: 'keyword', mode: 'keyword' },
  { label: 'semantic', mode: 'semantic' },
  { label: 'hybrid', mode: 'hybrid' },
  { label: 'hybrid-rrf', mode: 'hybrid', fusion: 'rrf' },
];

/** Embeds pending chunks (reporting progress through `log`), then scores each run. */
export async function evaluateSemantic(
  kbctx: Kbctx,
  queries: readonly Query[],
  qrels: ReadonlyMap<string, ReadonlyMap<string, number>>,
  runs: readonly EvalRun[] = DEFAULT_RUNS,
  log: (line: string) => void = () => undefined,
): Promise<ModeScore[]> {
  const embedder = kbctx.index.embedder();
  if (!embedder) throw new Error('the semantic eval needs an [embedding] provider');
  const started = performance.now();
  const report = await embedPending({ store: kbctx.store, embedder });
  if (report.failure) throw new Error(`embedding failed: ${report.failure.message}`);
  log(
    `embedded ${report.embedded} chunk(s) with ${report.model} in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const out: ModeScore[] = [];
  for (const run of runs) {
    const retrieval = {
      ...kbctx.config.retrieval,
      fusion: run.fusion ?? kbctx.config.retrieval.fusion,
      hybridAlpha: run.alpha ?? kbctx.config.retrieval.hybridAlpha,
    };
    const deps = { ...kbctx.index.searchDeps(), retrieval };
    let ndcg = 0;
    let recall = 0;
    let n = 0;
    const t0 = performance.now();
    for (const q of queries) {
      const rel = qrels.get(q.id);
      if (!rel) continue;
      const { results } = await search(
        deps,
        parseSearchParams({ query: q.text, mode: run.mode, limit: 100 }, retrieval),
      );
      const ranked = results.map((r) => corpusId(r.sourceId));
      ndcg += ndcgAt(10, ranked, rel);
      recall += recallAt(100, ranked, rel);
      n++;
    }
    out.push({
      label: run.label,
      ndcg10: ndcg / n,
      recall100: recall / n,
      queries: n,
      ms: (performance.now() - t0) / n,
    });
  }
  return out;
}

export function formatScores(scores: readonly ModeScore[]): string {
  return scores
    .map(
      (s) =>
        `${s.label.padEnd(11)} nDCG@10 ${s.ndcg10.toFixed(4)}  Recall@100 ${s.recall100.toFixed(4)}  ` +
        `(${s.queries} queries, ${s.ms.toFixed(1)} ms/query)`,
    )
    .join('\n');
}
