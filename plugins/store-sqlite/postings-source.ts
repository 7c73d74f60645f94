// Reads keyword postings out of FTS5 itself, so they hold exactly the terms FTS5 indexed (stems, any
// tokenisation upstream of it): the whole index from its fts5vocab 'instance' table, changed chunks by
// running their stored text through an in-memory FTS5 table with the same tokenizer.
import { segmentCjk } from '../../core/api/algorithms.ts';
import { COLUMN_WEIGHTS } from './keyword/bm25.ts';
import { keywordText } from './keyword-text.ts';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { RowPostings } from './keyword/postings-index.ts';

interface RowInfo {
  row: number;
  group: number;
}

// fts5vocab's `col` is the column name. One string per term is ~3× faster to read than a row per instance.
const INSTANCE_CODES = "group_concat(doc * 2 + (col <> 'title')) AS codes";

/**
 * Turns `term, INSTANCE_CODES` rows (code = rowid·2 + column, title 0, text 1) into postings (rows'
 * lengths counted on the way). Runs once per term of the whole index after a full sync (26,385 terms,
 * 1.26 M instances for SciFact): the codes are parsed in place and the lengths counted in an array by
 * rowid, not a Map (ADR 0131).
 */
function collect(termRows: Iterable<unknown>, rows: readonly RowInfo[]): RowPostings {
  // Lengths by rowid - first: the whole table, or a batch of changed rows (readRows), in one span.
  let first = Infinity;
  let last = -1;
  for (const r of rows) {
    if (r.row < first) first = r.row;
    if (r.row > last) last = r.row;
  }
  const lengths = new RowLengths(first, last);
  const terms = new Map<string, { ids: number[]; freqs: number[] }>();
  for (const { term, codes } of termRows as Iterable<{ term: string; codes: string }>)
    terms.set(term, postingsOf(parseCodes(codes), lengths));
  return { rows: rows.map((r) => ({ ...r, length: lengths.get(r.row) })), terms };
}

/** Instances counted per rowid in an array over the rows' span (a row outside it, never expected, in a Map). */
class RowLengths {
  private readonly first: number;
  private readonly counts: number[];
  private readonly outside = new Map<number, number>();

  constructor(first: number, last: number) {
    this.first = last >= first ? first : 0;
    this.counts = new Array<number>(Math.max(0, last - this.first + 1)).fill(0);
  }

  add(row: number): void {
    const at = row - this.first;
    if (at >= 0 && at < this.counts.length) this.counts[at]!++;
    else this.outside.set(row, (this.outside.get(row) ?? 0) + 1);
  }

  get(row: number): number {
    const at = row - this.first;
    return at >= 0 && at < this.counts.length ? this.counts[at]! : (this.outside.get(row) ?? 0);
  }
}

/** One term's instance codes, ascending: group_concat's comma-separated integers. */
function parseCodes(concat: string): number[] {
  const codes: number[] = [];
  let value = 0;
  let sorted = true;
  for (let i = 0; i < concat.length; i++) {
    const c = concat.charCodeAt(i);
    if (c === 44 /* , */) {
      if (codes.length > 0 && value < codes[codes.length - 1]!) sorted = false;
      codes.push(value);
      value = 0;
    } else if (c >= 48 && c <= 57) value = value * 10 + (c - 48);
    else return parseCodesSlowly(concat); // not digits and commas (never from SQLite's integers): as Number() reads it
  }
  if (codes.length > 0 && value < codes[codes.length - 1]!) sorted = false;
  codes.push(value);
  return sorted ? codes : codes.sort((a, b) => a - b);
}

function parseCodesSlowly(concat: string): number[] {
  return concat
    .split(',')
    .map(Number)
    .sort((a, b) => a - b);
}

/** Postings of one term from its ascending codes; counts each instance in its row's length. */
function postingsOf(codes: readonly number[], lengths: RowLengths): { ids: number[]; freqs: number[] } {
  const ids: number[] = [];
  const freqs: number[] = [];
  let last = -1;
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    const row = Math.floor(code / 2);
    const weight = COLUMN_WEIGHTS[code % 2] ?? 1;
    lengths.add(row);
    if (row === last) freqs[freqs.length - 1]! += weight;
    else {
      ids.push(row);
      freqs.push(weight);
      last = row;
    }
  }
  return { ids, freqs };
}

/** The keyword log position: moves with every chunk insert or delete and every title change. */
export function keywordSeq(db: DatabaseSync): number {
  const row = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'keyword_log'").get() as
    | { seq: number }
    | undefined;
  return row ? Number(row.seq) : 0;
}

export function keywordEpoch(db: DatabaseSync): string {
  return String((db.prepare('SELECT epoch FROM keyword_state WHERE id = 1').get() as { epoch: string }).epoch);
}

/**
 * FTS5's row count and token total, as bm25() reads them: the first record of its data table holds
 * varints (SQLite's big-endian form) N, then the token total of each column. FTS5 does not lower them
 * when a row of a contentless table is deleted, so they are read, not counted. Null if unreadable.
 */
export function ftsTotals(db: DatabaseSync): { rows: number; tokens: number } | null {
  const row = db.prepare('SELECT block FROM chunks_fts_data WHERE id = 1').get() as { block: Uint8Array } | undefined;
  if (!row || !(row.block instanceof Uint8Array)) return null;
  const values: number[] = [];
  let value = 0;
  for (const byte of row.block) {
    value = value * 128 + (byte & 0x7f);
    if (byte & 0x80) continue;
    values.push(value);
    value = 0;
  }
  const [rows, ...columns] = values;
  return rows !== undefined && rows > 0 && columns.length > 0
    ? { rows, tokens: columns.reduce((a, b) => a + b, 0) }
    : null;
}

/** Postings of every chunk, from the FTS5 index. */
export function readAllPostings(db: DatabaseSync): RowPostings {
  const rows = (
    db
      .prepare('SELECT rowid AS row, document_rowid AS "group" FROM chunks ORDER BY rowid')
      .all() as unknown as RowInfo[]
  ).map((r) => ({
    row: Number(r.row),
    group: Number(r.group),
  }));
  const terms = db.prepare(`SELECT term, ${INSTANCE_CODES} FROM chunks_instances GROUP BY term`);
  return collect(terms.iterate(), rows);
}

/** Distinct chunk rowids changed after log position `seq`, or null when the log no longer reaches back. */
export function changedRows(db: DatabaseSync, seq: number): number[] | null {
  const oldest = db.prepare('SELECT min(seq) AS s FROM keyword_log').get() as { s: number | null };
  if (oldest.s === null || Number(oldest.s) > seq + 1) return null;
  return (
    db.prepare('SELECT DISTINCT chunk_rowid AS r FROM keyword_log WHERE seq > ?').all(seq) as { r: number }[]
  ).map((r) => Number(r.r));
}

/** The FTS5 tokenizer of chunks_fts, run on text: query tokens to index terms, chunks to postings. */
export class FtsTokenizer {
  private readonly mem: DatabaseSync;
  private readonly chunkText: StatementSync;
  private readonly insert: StatementSync;
  private readonly clear: StatementSync;
  private readonly byTerm: StatementSync;
  private readonly inOrder: StatementSync;
  private readonly memo = new Map<string, string[]>();

  constructor(db: DatabaseSync) {
    const sql = String(
      (db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'chunks_fts'").get() as { sql: string }).sql,
    );
    const tokenize = /tokenize\s*=\s*('(?:[^']|'')*')/i.exec(sql)?.[1] ?? "'unicode61'";
    this.mem = new DatabaseSync(':memory:');
    this.mem.exec(
      `CREATE VIRTUAL TABLE t USING fts5(title, text, tokenize=${tokenize}); CREATE VIRTUAL TABLE ti USING ` +
        `fts5vocab(t, 'instance');`,
    );
    this.chunkText = db.prepare(
      `SELECT c.rowid AS row, c.document_rowid AS "group", d.title, c.text, c.symbol FROM chunks c JOIN documents d
        ON d.rowid = c.document_rowid
       WHERE c.rowid IN (SELECT value FROM json_each(?)) ORDER BY c.rowid`,
    );
    this.insert = this.mem.prepare('INSERT INTO t (rowid, title, text) VALUES (?, ?, ?)');
    this.clear = this.mem.prepare('DELETE FROM t');
    this.byTerm = this.mem.prepare(`SELECT term, ${INSTANCE_CODES} FROM ti GROUP BY term`);
    this.inOrder = this.mem.prepare('SELECT term FROM ti ORDER BY offset');
  }

  /** The index terms FTS5 makes of one query token (usually one: its stem). Memoised. */
  terms(token: string): string[] {
    let terms = this.memo.get(token);
    if (terms === undefined) {
      this.insert.run(1, '', token);
      terms = (this.inOrder.all() as { term: string }[]).map((r) => r.term);
      this.clear.run();
      if (this.memo.size >= 50_000) this.memo.clear();
      this.memo.set(token, terms);
    }
    return terms;
  }

  /** Postings of the given chunks as they are stored now (rowids that no longer exist are left out). */
  readRows(rowids: readonly number[]): RowPostings {
    const out: RowPostings = { rows: [], terms: new Map() };
    for (let at = 0; at < rowids.length; at += 2000) {
      const batch = this.chunkText.all(JSON.stringify(rowids.slice(at, at + 2000))) as {
        row: number;
        group: number;
        title: string;
        text: string;
        symbol: string | null;
      }[];
      // The same text the document writer gives FTS5 (stored rows keep the original text).
      for (const r of batch) this.insert.run(r.row, segmentCjk(r.title), keywordText(r.text, r.symbol));
      const part = collect(
        this.byTerm.iterate(),
        batch.map((r) => ({ row: Number(r.row), group: Number(r.group) })),
      );
      this.clear.run();
      out.rows.push(...part.rows);
      for (const [term, add] of part.terms) {
        const held = out.terms.get(term);
        if (!held) out.terms.set(term, add);
        else {
          held.ids.push(...add.ids);
          held.freqs.push(...add.freqs);
        }
      }
    }
    return out;
  }

  close(): void {
    this.mem.close();
  }
}
