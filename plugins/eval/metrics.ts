// Retrieval metrics for `kbctx eval`, pure: a ranked run and graded qrels in, figures out (no I/O).
// 1. A run is sorted by score descending, ties by document id ascending (code-unit order): the figures
//    never depend on the order the engine happened to return equal scores in.
// 2. nDCG@k as trec_eval's ndcg_cut: gain = the qrels' relevance grade (linear, not 2^g − 1), discount
//    log2(rank + 1) with ranks from 1, ideal DCG from the qrels' grades sorted descending; grades ≤ 0
//    count as not relevant. Recall@k and MRR@k count grade > 0 as relevant.
// 3. A query with relevant documents and an empty run scores 0 (trec_eval -c); the caller averages over
//    the queries that have at least one relevant document.

/** One retrieved document: its id as the qrels spell it, and the engine's score. */
export interface Scored {
  readonly id: string;
  readonly score: number;
}

/** Document id → relevance grade, for one query. */
export type Grades = ReadonlyMap<string, number>;

/** The run's ids, best first: score descending, then id ascending; a repeated id keeps its best place. */
export function rankRun(run: readonly Scored[]): string[] {
  const sorted = [...run].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return [...new Set(sorted.map((r) => r.id))];
}

const discount = (rank: number): number => Math.log2(rank + 1);

export function ndcgAt(k: number, ranked: readonly string[], grades: Grades): number {
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + Math.max(0, grades.get(id) ?? 0) / discount(i + 1), 0);
  const ideal = [...grades.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + g / discount(i + 1), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function recallAt(k: number, ranked: readonly string[], grades: Grades): number {
  const relevant = [...grades.values()].filter((g) => g > 0).length;
  if (relevant === 0) return 0;
  return ranked.slice(0, k).filter((id) => (grades.get(id) ?? 0) > 0).length / relevant;
}

/** The reciprocal rank of the first relevant document within the top k; 0 when none. */
export function mrrAt(k: number, ranked: readonly string[], grades: Grades): number {
  const at = ranked.slice(0, k).findIndex((id) => (grades.get(id) ?? 0) > 0);
  return at < 0 ? 0 : 1 / (at + 1);
}

/** The nearest-rank percentile (p in (0, 100]) of the values; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1] ?? 0;
}

export interface Figures {
  ndcg10: number;
  recall100: number;
  mrr10: number;
  queries: number;
}

/** Averages the metrics over the judged queries (those with a relevant document); a missing run is empty. */
export function scoreRuns(runs: ReadonlyMap<string, readonly string[]>, qrels: ReadonlyMap<string, Grades>): Figures {
  let [ndcg, recall, mrr, n] = [0, 0, 0, 0];
  for (const [query, grades] of qrels) {
    if (![...grades.values()].some((g) => g > 0)) continue;
    const ranked = runs.get(query) ?? [];
    ndcg += ndcgAt(10, ranked, grades);
    recall += recallAt(100, ranked, grades);
    mrr += mrrAt(10, ranked, grades);
    n++;
  }
  return n === 0
    ? { ndcg10: 0, recall100: 0, mrr10: 0, queries: 0 }
    : { ndcg10: ndcg / n, recall100: recall / n, mrr10: mrr / n, queries: n };
}
