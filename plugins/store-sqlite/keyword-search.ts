// BM25 keyword search over chunks with FTS5, grouped per document.
//
// 1. Look up each query term's document frequency in the FTS vocabulary (one indexed seek per term).
// 2. Leave out very common terms (in more than COMMON_TERM_RATIO of chunks; see ADR 0004 for the measurements) when
//    rarer terms remain: they add little to BM25 but would make FTS5 score most of the index (Lucene's CommonTermsQuery
//    idea; terms in over half the chunks have zero idf in FTS5 anyway). The rest are OR-ed.
// 3. With the postings engine (postings-search.ts, ADR 0100): its top documents, scored exactly as
//    below, the filter (source, since) applied before the cut. Otherwise (or for a token FTS5 indexes
//    as a phrase): rank chunks by bm25() with the title column weighted TITLE_WEIGHT, the filter applied
//    in the same query (before the cut). Map the candidate chunks to their documents and keep the best
//    chunk per document; fetch more candidates when grouping leaves fewer than `limit` documents.
// 4. Load rows (no bodies) for the chosen chunks only, and scale each score into [0, 1) against a
//    reference chunk (keyword/bm25.ts). Ties are broken by document id.
import type { KeywordHit, KeywordQuery, KeywordResult, SourceFilter } from '../../core/api/plugin.ts';
import type { QueryTerm } from '../../core/api/algorithms.ts';
import { COLUMN_WEIGHTS, bm25Reference, normalizeBm25 } from './keyword/bm25.ts';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { filterSql, isFiltering } from './filter-sql.ts';
import type { PostingsEngine } from './postings-search.ts';
import {
  HEAD_COLUMNS,
  JOINED_CHUNK_COLUMNS,
  toHead,
  toJoinedChunk,
  type HeadRow,
  type JoinedChunkRow,
} from './rows.ts';

const [TITLE_WEIGHT, BODY_WEIGHT] = COLUMN_WEIGHTS;
const COMMON_TERM_RATIO = 0.25;
const RANK = `bm25(chunks_fts, ${TITLE_WEIGHT}, ${BODY_WEIGHT})`;

interface Candidate {
  rid: number;
  rank: number;
}

export class KeywordSearcher {
  private readonly db: DatabaseSync;
  private readonly rowCount: StatementSync;
  private readonly plain: StatementSync;
  private readonly filtered = new Map<string, StatementSync>();
  private readonly vocab: StatementSync;
  private readonly byLength = new Map<string, StatementSync>();
  private readonly generation: () => string;
  // Document frequencies and the row count change only when the index does: cached per generation.
  private cachedFor = '';
  private cachedTotal = 0;
  private readonly cachedFreqs = new Map<string, number>();

  private readonly postings: PostingsEngine | null;

  /** `generation` changes whenever the index may have changed (any connection); `postings` null: FTS5 only. */
  constructor(db: DatabaseSync, generation: () => string, postings: PostingsEngine | null) {
    this.db = db;
    this.postings = postings;
    this.generation = generation;
    this.rowCount = db.prepare('SELECT count(*) AS n FROM chunks');
    this.plain = db.prepare(
      `SELECT rowid AS rid, ${RANK} AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?`,
    );
    // fts5vocab answers `term = ?` with a seek; an IN list would scan the whole vocabulary.
    this.vocab = db.prepare('SELECT doc FROM chunks_vocab WHERE term = ?');
  }

  search(query: KeywordQuery): KeywordResult {
    const total = this.refresh();
    if (query.terms.length === 0 || total === 0) return { hits: [], matchedTerms: [], candidateCount: 0 };
    const freqs = new Map(query.terms.map((t) => [t.stem, this.docFreq(t.stem)]));
    const matched = chooseTerms(query.terms, freqs, total);
    const reference = bm25Reference(
      total,
      query.terms.map((t) => freqs.get(t.stem) ?? 0),
    );
    const match = toFtsMatch(matched);

    const answer = this.postings?.search(
      matched.map((t) => t.token),
      query.limit,
      query.filter,
    );
    if (answer) {
      const hits = this.load(answer.best.map((b) => ({ rid: b.rid, rank: -b.raw })));
      return {
        hits: hits.map((h) => ({ ...h, score: normalizeBm25(h.raw, reference) })),
        matchedTerms: matched,
        candidateCount: answer.scored,
      };
    }
    let want = Math.max(query.candidateK, query.limit);
    for (;;) {
      const rows = this.candidates(match, want, query.filter);
      const best = this.bestPerDocument(rows, query.limit);
      if (best.length >= query.limit || rows.length < want) {
        const hits = this.load(best).map((h) => ({ ...h, score: normalizeBm25(h.raw, reference) }));
        return { hits, matchedTerms: matched, candidateCount: rows.length };
      }
      want *= 4;
    }
  }

  /** Drops cached statistics when the index changed; returns the chunk count. */
  private refresh(): number {
    const generation = this.generation();
    if (generation !== this.cachedFor) {
      this.cachedFor = generation;
      this.cachedFreqs.clear();
      this.cachedTotal = Number((this.rowCount.get() as { n: number }).n);
    }
    return this.cachedTotal;
  }

  private docFreq(stem: string): number {
    let df = this.cachedFreqs.get(stem);
    if (df === undefined) {
      const row = this.vocab.get(stem) as { doc: number } | undefined;
      df = row ? Number(row.doc) : 0;
      if (this.cachedFreqs.size >= 50_000) this.cachedFreqs.clear();
      this.cachedFreqs.set(stem, df);
    }
    return df;
  }

  private candidates(match: string, limit: number, filter: SourceFilter | undefined): Candidate[] {
    if (!isFiltering(filter)) return this.plain.all(match, limit) as unknown as Candidate[];
    const where = filterSql(filter);
    let statement = this.filtered.get(where.sql);
    if (!statement) {
      statement = this.db.prepare(
        `SELECT f.rowid AS rid, ${RANK} AS rank FROM chunks_fts f
           JOIN chunks c ON c.rowid = f.rowid JOIN documents d ON d.rowid = c.document_rowid
         WHERE chunks_fts MATCH :match${where.sql}
         ORDER BY rank LIMIT :limit`,
      );
      this.filtered.set(where.sql, statement);
    }
    return statement.all({ match, limit, ...where.params }) as unknown as Candidate[];
  }

  /** The best candidate chunk of each document, best first, at most `limit`. */
  private bestPerDocument(rows: readonly Candidate[], limit: number): Candidate[] {
    if (rows.length === 0) return [];
    const owners = this.statement(
      'SELECT rowid AS rid, document_rowid AS doc FROM chunks WHERE rowid IN',
      rows.length,
    ).all(...rows.map((r) => r.rid)) as unknown as { rid: number; doc: number }[];
    const docOf = new Map(owners.map((o) => [o.rid, o.doc]));
    const seen = new Set<number>();
    const out: Candidate[] = [];
    for (const r of rows) {
      const doc = docOf.get(r.rid);
      if (doc === undefined || seen.has(doc)) continue;
      seen.add(doc);
      out.push(r);
      if (out.length === limit) break;
    }
    return out;
  }

  private load(best: readonly Candidate[]): Omit<KeywordHit, 'score'>[] {
    if (best.length === 0) return [];
    const rows = this.statement(
      `SELECT c.rowid AS rid, ${HEAD_COLUMNS}, ${JOINED_CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.rowid ` +
        `= c.document_rowid WHERE c.rowid IN`,
      best.length,
    ).all(...best.map((b) => b.rid)) as unknown as (HeadRow & JoinedChunkRow & { rid: number })[];
    const byRid = new Map(rows.map((r) => [r.rid, r]));
    const out: Omit<KeywordHit, 'score'>[] = [];
    for (const b of best) {
      const row = byRid.get(b.rid);
      if (row) out.push({ document: toHead(row), chunk: toJoinedChunk(row), raw: -b.rank });
    }
    return out.sort(
      (a, b) => b.raw - a.raw || (a.document.id < b.document.id ? -1 : a.document.id > b.document.id ? 1 : 0),
    );
  }

  /** `<prefix> (?, ?, …)` with n placeholders, prepared once per distinct n. */
  private statement(prefix: string, n: number): StatementSync {
    const key = `${prefix}#${n}`;
    let statement = this.byLength.get(key);
    if (!statement) {
      statement = this.db.prepare(`${prefix} (${new Array(n).fill('?').join(',')})`);
      if (this.byLength.size < 256) this.byLength.set(key, statement);
    }
    return statement;
  }
}

/** Drops very common terms while at least one rarer term that occurs in the index remains. */
function chooseTerms(terms: readonly QueryTerm[], freqs: ReadonlyMap<string, number>, total: number): QueryTerm[] {
  const df = (t: QueryTerm): number => freqs.get(t.stem) ?? 0;
  const rare = terms.filter((t) => df(t) > 0 && df(t) <= COMMON_TERM_RATIO * total);
  return rare.length > 0 ? [...rare, ...terms.filter((t) => df(t) === 0)] : [...terms];
}

/** An FTS5 MATCH expression: each term a quoted phrase, joined with OR. Never a syntax error. */
export function toFtsMatch(terms: readonly QueryTerm[]): string {
  return terms.map((t) => `"${t.token.replaceAll('"', '""')}"`).join(' OR ');
}
