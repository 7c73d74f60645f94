// The LanceDB store's keyword analysis (rowTerms, the stored encoding) and KeywordIndex, postings kept in
// memory: the reference the postings table (postings-table.ts, which the store searches) is tested and
// benchmarked against. Built with the project's own analysis
// (CJK segmentation, Unicode word tokens, diacritics folded, Porter stems: core/search), the title
// counted COLUMN_WEIGHTS[0] times and the text COLUMN_WEIGHTS[1] times, as the SQLite store's FTS5
// columns are. Scored with FTS5's BM25 by block-max MaxScore (core's topGroups), so both stores rank
// alike. Totals (N, average length) are always exact: a deleted row leaves every list at once.
//
// Rows get ids in insertion order (the lists stay sorted by appending); a removed row's id is not
// reused. Groups are documents, numbered in the order they were first seen (ties: the lower group).
import { stem, tokenize } from '../../core/api/algorithms.ts';
import {
  COLUMN_WEIGHTS,
  fts5Idf,
  termBounds,
  topGroups,
  type Postings,
  type RowStats,
  type ScoredTerm,
  type TermBounds,
} from '../store-sqlite/api.ts';

const [TITLE_WEIGHT, TEXT_WEIGHT] = COLUMN_WEIGHTS;
/** Names the analysis stored terms were made with: change it when tokenize, stem or the weights change. */
const ANALYSIS = 'a1';
const EMPTY: Postings = { ids: new Int32Array(0), freqs: new Uint16Array(0) };
const NO_BOUNDS: TermBounds = { max: 0, blocks: new Float64Array(0) };

/** The weighted term frequencies and token count of one chunk row (title and text). */
export interface RowTerms {
  terms: Map<string, number>;
  length: number;
  /** The row's encodeRowTerms, when known (saves encoding it again). */
  stored?: string;
}

/**
 * Analyses a chunk as FTS5 indexes its (title, text) row (tokenize segments CJK runs first, as the SQLite store does).
 */
export function rowTerms(title: string, text: string): RowTerms {
  const terms = new Map<string, number>();
  let length = 0;
  for (const [value, weight] of [
    [title, TITLE_WEIGHT],
    [text, TEXT_WEIGHT],
  ] as const) {
    for (const token of tokenize(value)) {
      const s = stem(token);
      terms.set(s, Math.min(0xffff, (terms.get(s) ?? 0) + weight));
      length++;
    }
  }
  return { terms, length };
}

/**
 * A chunk's analysed terms as stored in its row's `terms` column (ADR 0228): the token count, then each
 * stem and its weighted frequency, tab-separated (stems never hold a tab: tokens are word characters).
 */
export function encodeRowTerms(row: RowTerms): string {
  const parts: (string | number)[] = [ANALYSIS, row.length];
  for (const [term, freq] of row.terms) parts.push(term, freq);
  return parts.join('\t');
}

/** The inverse of encodeRowTerms; undefined for terms of another analysis (the chunk is analysed again). */
export function decodeRowTerms(text: string | null): RowTerms | undefined {
  if (text === null || !text.startsWith(`${ANALYSIS}\t`)) return undefined;
  const parts = text.split('\t');
  const terms = new Map<string, number>();
  for (let i = 2; i + 1 < parts.length; i += 2) terms.set(parts[i]!, Number(parts[i + 1]));
  return { terms, length: Number(parts[1]) };
}

interface TermList {
  ids: number[];
  freqs: number[];
  cached: Postings | null;
  bounds: TermBounds | null;
  boundsFor: number;
}

export class KeywordIndex {
  private readonly lists = new Map<string, TermList>();
  private lengths = new Int32Array(1024);
  private groups = new Int32Array(1024).fill(-1);
  /** Each live row's terms, for remove(): encoded (one string a row, far smaller than its map). */
  private readonly rowTermsOf = new Map<number, string>();
  private nextRow = 0;
  private totalLength = 0;
  /** Live rows (N). */
  size = 0;

  /** Adds a row; returns its id. */
  add(group: number, row: RowTerms): number {
    const id = this.nextRow++;
    if (id >= this.lengths.length) this.grow();
    this.lengths[id] = row.length;
    this.groups[id] = group;
    this.totalLength += row.length;
    this.size++;
    // forEach, not for-of: no [term, freq] pair allocated per term (building postings at open is hot).
    row.terms.forEach((freq, term) => {
      let list = this.lists.get(term);
      if (!list) {
        list = { ids: [], freqs: [], cached: null, bounds: null, boundsFor: -1 };
        this.lists.set(term, list);
      }
      list.ids.push(id);
      list.freqs.push(freq);
      list.cached = null;
      list.bounds = null;
    });
    this.rowTermsOf.set(id, row.stored ?? encodeRowTerms(row));
    return id;
  }

  remove(id: number): void {
    const stored = this.rowTermsOf.get(id);
    if (stored === undefined) return;
    this.rowTermsOf.delete(id);
    for (const term of decodeRowTerms(stored)!.terms.keys()) {
      const list = this.lists.get(term)!;
      const at = lowerBound(list.ids, id);
      list.ids.splice(at, 1);
      list.freqs.splice(at, 1);
      list.cached = null;
      list.bounds = null;
      if (list.ids.length === 0) this.lists.delete(term);
    }
    this.totalLength -= this.lengths[id]!;
    this.groups[id] = -1;
    this.size--;
  }

  /** Chunks holding the term (FTS5's document frequency). */
  docFreq(term: string): number {
    return this.lists.get(term)?.ids.length ?? 0;
  }

  /** The best row of each of the best `limit` groups the allow predicate lets through; positive BM25. */
  search(
    terms: readonly string[],
    limit: number,
    allow?: (group: number) => boolean,
  ): { hits: { row: number; group: number; score: number }[]; scored: number } {
    const rows = this.rowStats();
    const scored: ScoredTerm[] = terms.map((term) => {
      const list = this.lists.get(term);
      if (!list) return { postings: EMPTY, idf: fts5Idf(this.size, 0), bounds: NO_BOUNDS };
      list.cached ??= { ids: Int32Array.from(list.ids), freqs: Uint16Array.from(list.freqs) };
      if (list.bounds === null || list.boundsFor !== rows.avgLength) {
        list.bounds = termBounds(list.cached, rows);
        list.boundsFor = rows.avgLength;
      }
      return { postings: list.cached, idf: fts5Idf(this.size, list.ids.length), bounds: list.bounds };
    });
    return topGroups(rows, scored, limit, allow);
  }

  private rowStats(): RowStats {
    return { lengths: this.lengths, groups: this.groups, avgLength: this.size > 0 ? this.totalLength / this.size : 1 };
  }

  private grow(): void {
    const lengths = new Int32Array(this.lengths.length * 2);
    lengths.set(this.lengths);
    const groups = new Int32Array(this.groups.length * 2).fill(-1);
    groups.set(this.groups);
    this.lengths = lengths;
    this.groups = groups;
  }
}

function lowerBound(ids: readonly number[], target: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
