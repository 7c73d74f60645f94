import { termBounds, type Postings, type RowStats, type TermBounds } from './postings-topk.ts';
// The keyword postings held in memory: per term, ascending chunk rowids with weighted frequencies; per
// chunk, its document and token count. Derived from FTS5 (never tokenises itself) and patched in place
// when chunks change. No I/O.

/** Postings of some rows, as read from FTS5: per term ascending rowids and weighted frequencies. */
export interface RowPostings {
  /** Rows (chunks) covered, with their document and token count; rows with no tokens are listed too. */
  rows: { row: number; group: number; length: number }[];
  terms: Map<string, { ids: number[]; freqs: number[] }>;
}

interface TermEntry {
  postings: Postings;
  bounds: TermBounds | null;
  boundsFor: number;
}

export class PostingsIndex {
  /** Identifies the database the index was derived from (a recreated database gets a new one). */
  readonly epoch: string;
  /** The keyword log position the index reflects. */
  seq: number;
  private readonly entries = new Map<string, TermEntry>();
  private lengths: Int32Array;
  private groups: Int32Array;
  private rowCount = 0;
  private tokenCount = 0;
  /** FTS5's own row and token totals, which bm25() uses; they drift from the live rows as rows are deleted. */
  private totals: { rows: number; tokens: number } | null = null;

  constructor(epoch: string, seq: number, terms: Map<string, Postings>, lengths: Int32Array, groups: Int32Array) {
    this.epoch = epoch;
    this.seq = seq;
    this.lengths = lengths;
    this.groups = groups;
    for (const [term, postings] of terms) this.entries.set(term, { postings, bounds: null, boundsFor: 0 });
    for (let r = 0; r < groups.length; r++) {
      if (groups[r]! < 0) continue;
      this.rowCount++;
      this.tokenCount += lengths[r]!;
    }
  }

  static fromRows(epoch: string, seq: number, built: RowPostings): PostingsIndex {
    const index = new PostingsIndex(epoch, seq, new Map(), new Int32Array(0), new Int32Array(0));
    index.apply([], built, seq);
    return index;
  }

  /** Number of rows (FTS5's N). */
  get size(): number {
    return this.totals?.rows ?? this.rowCount;
  }

  get rows(): RowStats {
    const [rows, tokens] = this.totals ? [this.totals.rows, this.totals.tokens] : [this.rowCount, this.tokenCount];
    return { lengths: this.lengths, groups: this.groups, avgLength: rows > 0 ? tokens / rows : 1 };
  }

  /** Scores with FTS5's totals (null: the index's own counts). */
  useTotals(totals: { rows: number; tokens: number } | null): void {
    this.totals = totals;
  }

  postings(term: string): Postings | undefined {
    return this.entries.get(term)?.postings;
  }

  /** Score bounds of a term, recomputed lazily when the average length moved. */
  bounds(term: string): TermBounds | undefined {
    const entry = this.entries.get(term);
    if (!entry) return undefined;
    const rows = this.rows;
    if (entry.bounds === null || entry.boundsFor !== rows.avgLength) {
      entry.bounds = termBounds(entry.postings, rows);
      entry.boundsFor = rows.avgLength;
    }
    return entry.bounds;
  }

  /** Every term with its postings (for saving). */
  terms(): IterableIterator<[string, Postings]> {
    const it = this.entries.entries();
    return (function* () {
      for (const [term, entry] of it) yield [term, entry.postings] as [string, Postings];
    })();
  }

  arrays(): { lengths: Int32Array; groups: Int32Array } {
    return { lengths: this.lengths, groups: this.groups };
  }

  /**
   * Drops every posting of the `changed` rows, then adds `added` (the current content of those of
   * them that still exist, and any new rows). `seq` becomes the index's position.
   */
  apply(changed: readonly number[], added: RowPostings, seq: number): void {
    let maxRow = -1;
    for (const row of changed) if (row > maxRow) maxRow = row;
    for (const { row } of added.rows) if (row > maxRow) maxRow = row;
    if (maxRow >= this.groups.length) this.grow(maxRow + 1);
    const marked = new Uint8Array(this.groups.length);
    // A row is replaced whole: listed as changed, or re-added while present (a rebuilt row).
    for (const row of changed) marked[row] = 1;
    for (const { row } of added.rows) if (this.groups[row]! >= 0) marked[row] = 1;
    let any = false;
    for (let row = 0; row < marked.length; row++) {
      if (marked[row] !== 1) continue;
      any = true;
      this.dropRow(row);
    }
    if (any) this.removeMarked(marked);
    for (const { row, group, length } of added.rows) {
      this.groups[row] = group;
      this.lengths[row] = length;
      this.rowCount++;
      this.tokenCount += length;
    }
    for (const [term, add] of added.terms) this.merge(term, add.ids, add.freqs);
    this.seq = seq;
  }

  private dropRow(row: number): void {
    if (this.groups[row]! < 0) return;
    this.rowCount--;
    this.tokenCount -= this.lengths[row]!;
    this.groups[row] = -1;
    this.lengths[row] = 0;
  }

  private grow(size: number): void {
    const capacity = Math.max(size, Math.ceil(this.groups.length * 1.25));
    const groups = new Int32Array(capacity).fill(-1);
    groups.set(this.groups);
    const lengths = new Int32Array(capacity);
    lengths.set(this.lengths);
    this.groups = groups;
    this.lengths = lengths;
  }

  /** One pass over every list: O(postings), no forward index needed. */
  private removeMarked(marked: Uint8Array): void {
    for (const [term, entry] of this.entries) {
      const { ids, freqs } = entry.postings;
      let keep = 0;
      for (let i = 0; i < ids.length; i++) if (marked[ids[i]!] !== 1) keep++;
      if (keep === ids.length) continue;
      if (keep === 0) {
        this.entries.delete(term);
        continue;
      }
      const nextIds = new Int32Array(keep);
      const nextFreqs = new Uint16Array(keep);
      let j = 0;
      for (let i = 0; i < ids.length; i++) {
        if (marked[ids[i]!] === 1) continue;
        nextIds[j] = ids[i]!;
        nextFreqs[j++] = freqs[i]!;
      }
      this.entries.set(term, { postings: { ids: nextIds, freqs: nextFreqs }, bounds: null, boundsFor: 0 });
    }
  }

  /** Adds ascending `ids` to a term's list (an append when they all follow it, else a merge). */
  private merge(term: string, ids: readonly number[], freqs: readonly number[]): void {
    if (ids.length === 0) return;
    const old = this.entries.get(term)?.postings ?? { ids: new Int32Array(0), freqs: new Uint16Array(0) };
    const n = old.ids.length + ids.length;
    const nextIds = new Int32Array(n);
    const nextFreqs = new Uint16Array(n);
    let i = 0;
    let j = 0;
    for (let k = 0; k < n; k++) {
      if (j >= ids.length || (i < old.ids.length && old.ids[i]! < ids[j]!)) {
        nextIds[k] = old.ids[i]!;
        nextFreqs[k] = old.freqs[i++]!;
      } else {
        nextIds[k] = ids[j]!;
        nextFreqs[k] = Math.min(freqs[j++]!, 0xffff);
      }
    }
    this.entries.set(term, { postings: { ids: nextIds, freqs: nextFreqs }, bounds: null, boundsFor: 0 });
  }
}
