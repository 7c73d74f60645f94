// BM25 keyword search over chunks with FTS5, grouped per document.
//
// 1. Look up each query term's document frequency in the FTS vocabulary (one indexed query).
// 2. Leave out very common terms (in more than COMMON_TERM_RATIO of chunks) when rarer terms remain:
//    they add little to BM25 but would make FTS5 score most of the index (Lucene's CommonTermsQuery
//    idea; terms in over half the chunks have zero idf in FTS5 anyway). The rest are OR-ed.
// 3. Rank chunks by bm25() with the title column weighted TITLE_WEIGHT, the source filter applied in
//    the same query (before the cut), and keep the best chunk per document; fetch more candidates
//    when grouping leaves fewer than `limit` documents.
// 4. Scale each score into [0, 1) against a reference chunk (core/search/bm25-normalize.ts).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { QueryTerm } from '../../core/search/analyze-query.ts';
import { toFtsMatch } from '../../core/search/analyze-query.ts';
import { bm25Reference, normalizeBm25 } from '../../core/search/bm25-normalize.ts';
import type { KeywordHit, KeywordQuery, KeywordResult } from '../store.ts';
import { DOCUMENT_COLUMNS, JOINED_CHUNK_COLUMNS, toDocument, toJoinedChunk, type DocumentRow, type JoinedChunkRow } from './rows.ts';

export const TITLE_WEIGHT = 2;
const BODY_WEIGHT = 1;
export const COMMON_TERM_RATIO = 0.2;

export class KeywordSearcher {
  private readonly db: DatabaseSync;
  private readonly rowCount: StatementSync;
  private readonly plain: StatementSync;
  private readonly filtered: StatementSync;
  private readonly details = new Map<number, StatementSync>();
  private readonly vocab = new Map<number, StatementSync>();

  constructor(db: DatabaseSync) {
    this.db = db;
    this.rowCount = db.prepare('SELECT count(*) AS n FROM chunks');
    const rank = `bm25(chunks_fts, ${TITLE_WEIGHT}, ${BODY_WEIGHT})`;
    this.plain = db.prepare(`SELECT rowid AS rid, ${rank} AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?`);
    this.filtered = db.prepare(
      `SELECT f.rowid AS rid, ${rank} AS rank FROM chunks_fts f
         JOIN chunks c ON c.rowid = f.rowid JOIN documents d ON d.rowid = c.document_rowid
       WHERE chunks_fts MATCH :match AND (d.source = :source OR d.connector = :source OR d.connector LIKE :type_prefix)
       ORDER BY rank LIMIT :limit`,
    );
  }

  search(query: KeywordQuery): KeywordResult {
    const total = Number((this.rowCount.get() as { n: number }).n);
    if (query.terms.length === 0 || total === 0) return { hits: [], matchedTerms: [], candidateCount: 0 };
    const freqs = this.documentFrequencies(query.terms);
    const matched = chooseTerms(query.terms, freqs, total);
    const reference = bm25Reference(total, query.terms.map((t) => freqs.get(t.stem) ?? 0));
    const match = toFtsMatch(matched);

    let want = Math.max(query.candidateK, query.limit);
    for (;;) {
      const rows = this.candidates(match, want, query.filter?.source);
      const grouped = this.groupByDocument(rows);
      if (grouped.length >= query.limit || rows.length < want) {
        const hits = grouped.slice(0, query.limit).map((h) => ({ ...h, score: normalizeBm25(h.raw, reference) }));
        return { hits, matchedTerms: matched, candidateCount: rows.length };
      }
      want *= 4;
    }
  }

  private candidates(match: string, limit: number, source: string | undefined): { rid: number; rank: number }[] {
    if (source === undefined) return this.plain.all(match, limit) as { rid: number; rank: number }[];
    return this.filtered.all({ match, source, type_prefix: `${source.replace(/[%_]/g, '')}:%`, limit }) as {
      rid: number;
      rank: number;
    }[];
  }

  /** Best chunk per document, best first (ties: document id), with rows loaded for those chunks. */
  private groupByDocument(rows: readonly { rid: number; rank: number }[]): Omit<KeywordHit, 'score'>[] {
    if (rows.length === 0) return [];
    const details = this.detailsStatement(rows.length).all(...rows.map((r) => r.rid)) as unknown as (DocumentRow &
      JoinedChunkRow & { rid: number; document_rowid: number })[];
    const byRid = new Map(details.map((d) => [d.rid, d]));
    const seen = new Set<number>();
    const out: Omit<KeywordHit, 'score'>[] = [];
    for (const r of rows) {
      const d = byRid.get(r.rid);
      if (!d || seen.has(d.document_rowid)) continue;
      seen.add(d.document_rowid);
      out.push({ document: toDocument(d), chunk: toJoinedChunk(d), raw: -r.rank });
    }
    // FTS5 orders by rank only; make equal scores deterministic.
    return out.sort((a, b) => b.raw - a.raw || (a.document.id < b.document.id ? -1 : a.document.id > b.document.id ? 1 : 0));
  }

  private detailsStatement(n: number): StatementSync {
    // One statement per distinct IN-list length; lengths repeat (limit-driven), so the cache stays small.
    let statement = this.details.get(n);
    if (!statement) {
      statement = this.db.prepare(
        `SELECT c.rowid AS rid, c.document_rowid, ${DOCUMENT_COLUMNS}, ${JOINED_CHUNK_COLUMNS}
         FROM chunks c JOIN documents d ON d.rowid = c.document_rowid
         WHERE c.rowid IN (${new Array(n).fill('?').join(',')})`,
      );
      if (this.details.size < 64) this.details.set(n, statement);
    }
    return statement;
  }

  private documentFrequencies(terms: readonly QueryTerm[]): Map<string, number> {
    const stems = [...new Set(terms.map((t) => t.stem))];
    let statement = this.vocab.get(stems.length);
    if (!statement) {
      statement = this.db.prepare(`SELECT term, doc FROM chunks_vocab WHERE term IN (${stems.map(() => '?').join(',')})`);
      if (this.vocab.size < 64) this.vocab.set(stems.length, statement);
    }
    const rows = statement.all(...stems) as { term: string; doc: number }[];
    return new Map(rows.map((r) => [r.term, Number(r.doc)]));
  }
}

/** Drops very common terms while at least one rarer term that occurs in the index remains. */
export function chooseTerms(terms: readonly QueryTerm[], freqs: ReadonlyMap<string, number>, total: number): QueryTerm[] {
  const df = (t: QueryTerm): number => freqs.get(t.stem) ?? 0;
  const rare = terms.filter((t) => df(t) > 0 && df(t) <= COMMON_TERM_RATIO * total);
  return rare.length > 0 ? [...rare, ...terms.filter((t) => df(t) === 0)] : [...terms];
}
