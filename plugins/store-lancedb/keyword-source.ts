// What the LanceDB store's keyword search reads postings from (ADR 0233): the operations keywordSearch
// needs, async where a persisted source reads per query. Today one implementation, the in-memory
// KeywordIndex; swapping it for postings read from Lance is a change here and in the model that owns it.
// Must not write: the model adds and removes rows as documents are written.
import type { KeywordIndex } from './keyword-index.ts';

/** A scored chunk row: `row` and `group` are the keyword numbering (model.ts maps them to chunk and document). */
export interface KeywordRowHit {
  row: number;
  group: number;
  /** FTS5's BM25, positive (higher is better). */
  score: number;
}

export interface KeywordSource {
  /** Live rows (N of BM25). */
  size(): Promise<number>;
  /** Each term's document frequency (chunks holding it); 0 for a term no chunk holds. */
  docFreqs(terms: readonly string[]): Promise<Map<string, number>>;
  /** The best row of each of the best `limit` groups `allow` lets through, by descending score. */
  search(
    terms: readonly string[],
    limit: number,
    allow?: (group: number) => boolean,
  ): Promise<{ hits: KeywordRowHit[]; scored: number }>;
}

/** The in-memory postings as a KeywordSource (answers at once). */
export function memoryKeywordSource(index: KeywordIndex): KeywordSource {
  return {
    size: () => Promise.resolve(index.size),
    docFreqs: (terms) => Promise.resolve(new Map(terms.map((t) => [t, index.docFreq(t)]))),
    search: (terms, limit, allow) => Promise.resolve(index.search(terms, limit, allow)),
  };
}
