// The postings keyword engine: FTS5's BM25 top-k by block-max MaxScore (keyword/postings-topk.ts)
// over postings derived from FTS5, kept beside the database in `<db>.keyword` (ADR 0100).
//
// 1. Freshness: when the store generation moved, compare the index's log position with SQLite's.
//    Missing or from another database: load the file; behind: apply the changed chunks in memory;
//    the log no longer reaching back, or more than REBUILD_RATIO of the chunks changed: rebuild from FTS5.
//    N and the average length are FTS5's own totals (ftsTotals), read at the same snapshot.
// 2. Query tokens become index terms through FTS5's own tokenizer. A token FTS5 would index as several
//    terms (a phrase) is not answered here: the caller asks FTS5.
// 3. topGroups over the terms, the filter as a per-document allow predicate (before the cut).
import type { SourceFilter } from '../../core/api/plugin.ts';
import { fts5Idf } from './keyword/bm25.ts';
import { topGroups, type ScoredTerm } from './keyword/postings-topk.ts';
import type { DatabaseSync } from 'node:sqlite';
import { loadPostings, savePostings } from './keyword/postings-file.ts';
import { PostingsIndex } from './keyword/postings-index.ts';
import { AllowedDocuments } from './document-filter.ts';
import { isFiltering } from './filter-sql.ts';
import { changedRows, FtsTokenizer, ftsTotals, keywordEpoch, keywordSeq, readAllPostings } from './postings-source.ts';

const REBUILD_RATIO = 0.2;
const EMPTY = { ids: new Int32Array(0), freqs: new Uint16Array(0) };

export interface PostingsAnswer {
  /** Best chunk of each of the best documents, best first: chunk rowid and positive BM25. */
  best: { rid: number; raw: number }[];
  scored: number;
}

export class PostingsEngine {
  private readonly db: DatabaseSync;
  private readonly file: string | null;
  private readonly generation: () => string;
  private readonly tokenizer: FtsTokenizer;
  private readonly allowed: AllowedDocuments;
  private index: PostingsIndex | null = null;
  private checkedAt = '';
  private savedSeq = -1;
  private rebuilt = false;

  /** `file` null: memory only (an in-memory database). */
  constructor(db: DatabaseSync, file: string | null, generation: () => string) {
    this.db = db;
    this.file = file;
    this.generation = generation;
    this.tokenizer = new FtsTokenizer(db);
    this.allowed = new AllowedDocuments(db);
  }

  /** The best `limit` documents for the query tokens (OR-ed), or null when FTS5 must answer. */
  search(tokens: readonly string[], limit: number, filter: SourceFilter | undefined): PostingsAnswer | null {
    const terms: string[] = [];
    for (const token of tokens) {
      const made = this.tokenizer.terms(token);
      if (made.length !== 1) return null;
      terms.push(made[0]!);
    }
    const index = this.fresh();
    const scored: ScoredTerm[] = terms.map((term) => {
      const postings = index.postings(term) ?? EMPTY;
      return {
        postings,
        idf: fts5Idf(index.size, postings.ids.length),
        bounds: index.bounds(term) ?? { max: 0, blocks: new Float64Array(0) },
      };
    });
    const allow = isFiltering(filter) ? this.allowed.predicate(filter, this.generation()) : undefined;
    const { hits, scored: count } = topGroups(index.rows, scored, limit, allow);
    return { best: hits.map((h) => ({ rid: h.row, raw: h.score })), scored: count };
  }

  /** Brings the index up to date and saves it when it moved (after a sync). Returns the saved log position. */
  refresh(): number {
    const index = this.fresh();
    if (index.seq !== this.savedSeq) this.save(index);
    return this.savedSeq;
  }

  /**
   * Saves the index unless a transaction is open (its writes may yet roll back, and a file must never
   * describe a state SQLite does not have). Best effort: a read-only folder only costs rebuilds.
   */
  private save(index: PostingsIndex): void {
    if (this.file === null || this.db.isTransaction) return;
    try {
      savePostings(this.file, index);
      this.savedSeq = index.seq;
    } catch {
      // The next process rebuilds or applies the log instead.
    }
  }

  close(): void {
    this.tokenizer.close();
  }

  private fresh(): PostingsIndex {
    const generation = this.generation();
    if (this.index && generation === this.checkedAt) return this.index;
    this.index = this.snapshot(() => this.update());
    this.checkedAt = generation;
    // A rebuild is worth keeping for the next process (saved outside the read transaction).
    if (this.rebuilt) {
      this.rebuilt = false;
      this.save(this.index);
    }
    return this.index;
  }

  /** Runs `read` in one read transaction (a consistent snapshot), unless one is already open. */
  private snapshot<T>(read: () => T): T {
    if (this.db.isTransaction) return read();
    this.db.exec('BEGIN');
    try {
      return read();
    } finally {
      this.db.exec('COMMIT');
    }
  }

  private update(): PostingsIndex {
    const index = this.catchUp();
    index.useTotals(ftsTotals(this.db));
    return index;
  }

  private catchUp(): PostingsIndex {
    const epoch = keywordEpoch(this.db);
    const seq = keywordSeq(this.db);
    let index = this.index?.epoch === epoch ? this.index : null;
    if (index === null || (index.seq !== seq && changedRows(this.db, index.seq) === null)) {
      const loaded = this.file !== null ? loadPostings(this.file) : null;
      if (loaded?.epoch === epoch && loaded.seq <= seq) {
        index = loaded;
        this.savedSeq = loaded.seq;
      }
    }
    if (index !== null && index.seq === seq) return index;
    const changed = index !== null ? changedRows(this.db, index.seq) : null;
    if (index === null || changed === null || changed.length > REBUILD_RATIO * Math.max(index.size, 1000)) {
      this.rebuilt = true;
      return PostingsIndex.fromRows(epoch, seq, readAllPostings(this.db));
    }
    index.apply(changed, this.tokenizer.readRows(changed), seq);
    return index;
  }
}
