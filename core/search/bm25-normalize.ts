// Maps an FTS5 BM25 score into [0, 1) so that a number means the same across queries.
//
// FTS5 scores a term t in column c as  idf(t) · w_c · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)),
// idf(t) = ln((N − n + 0.5)/(n + 0.5)) (≤ 0 clamped to 1e-6), k1 = 1.2, b = 0.75. A chunk of average
// length holding every query term once in its body scores exactly  R = Σ_t idf(t)  (the tf factor is 1).
// The score is  1 − exp(−raw / R):  ≈ 0.63 when every query term is present once, higher with title
// matches and repetition, low when only some (or only common) terms match. R counts all of the query's
// terms, including ones absent from the index, so a query half of which is unknown scores lower.
import { fts5Idf } from './bm25-terms.ts';

/** R: the BM25 score of an average-length chunk containing each term once, in its body (weight 1). */
export function bm25Reference(totalRows: number, docFreqs: readonly number[]): number {
  return docFreqs.reduce((sum, df) => sum + fts5Idf(totalRows, df), 0);
}

/** `raw` is the positive BM25 score (FTS5 returns it negated). */
export function normalizeBm25(raw: number, reference: number): number {
  if (!(reference > 0) || !(raw > 0)) return 0;
  return 1 - Math.exp(-raw / reference);
}
