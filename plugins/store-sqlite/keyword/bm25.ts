// FTS5's bm25() arithmetic, for engines that score postings themselves (see fts5_aux.c), and its scores mapped into
// [0, 1). The SQLite store defines keyword scoring; LanceDB's keyword index reproduces it (store-sqlite's api.ts).
// A row's score is Σ over query phrases, in phrase order, of idf · f·(k1+1) / (f + k1·(1 − b + b·D/avgdl)),
// f = Σ over the phrase's instances of the column weight, D = the row's token count over all columns.

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** Column weights of chunks_fts (title, text): a title match counts twice (ADR 0004). */
export const COLUMN_WEIGHTS = [2, 1] as const;

/** FTS5's idf: ln((N − n + 0.5)/(n + 0.5)), clamped to 1e-6 when not positive. */
export function fts5Idf(totalRows: number, docFreq: number): number {
  const idf = Math.log((totalRows - docFreq + 0.5) / (docFreq + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

/** The tf part of one term's score: f·(k1+1) / (f + k1·(1 − b + b·length/avgLength)). */
export function bm25TermFactor(weightedFreq: number, length: number, avgLength: number): number {
  return (weightedFreq * (BM25_K1 + 1)) / (weightedFreq + BM25_K1 * (1 - BM25_B + (BM25_B * length) / avgLength));
}

// Normalisation: a raw score maps to 1 − exp(−raw / R), R = Σ_t idf(t) over all of the query's terms (absent
// ones too): what an average-length chunk holding each term once in its body scores (the tf factor is 1). ≈ 0.63
// when every query term is present once, higher with title matches and repetition, low when only some (or common)
// terms match.

/** R: the BM25 score of an average-length chunk containing each term once, in its body (weight 1). */
export function bm25Reference(totalRows: number, docFreqs: readonly number[]): number {
  return docFreqs.reduce((sum, df) => sum + fts5Idf(totalRows, df), 0);
}

/** `raw` is the positive BM25 score (FTS5 returns it negated). */
export function normalizeBm25(raw: number, reference: number): number {
  if (!(reference > 0) || !(raw > 0)) return 0;
  return 1 - Math.exp(-raw / reference);
}
