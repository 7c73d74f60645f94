// FTS5's bm25() term arithmetic, for engines that score postings themselves (see fts5_aux.c).
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
