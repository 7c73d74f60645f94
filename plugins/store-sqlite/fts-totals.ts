// FTS5's BM25 totals after deletions (ADR 0113). A contentless_delete table deletes by tombstone and
// never lowers its averages record (row count N, token totals → avgdl), so after churn bm25() (and the
// postings engine, which reads the same totals) counts rows that are gone. Re-indexing every chunk from
// its stored text ('delete-all', then the same inserts the document writer makes) recounts them
// exactly; compact() does it once they are more than 10% off. Must run inside a write transaction.
import { segmentCjk } from '../../core/api/algorithms.ts';
import { keywordText } from './keyword-text.ts';
import type { DatabaseSync } from 'node:sqlite';
import { ftsTotals } from './postings-source.ts';

/** Rows FTS5's totals still count although they were deleted (0: exact). */
export function staleFtsRows(db: DatabaseSync, liveChunks: number): number {
  return Math.max(0, (ftsTotals(db)?.rows ?? 0) - liveChunks);
}

/**
 * Rebuilds chunks_fts from the stored chunks (same rowids and text as the writer gives it): exact totals, one segment
 * per batch merged later.
 */
export function reindexFts(db: DatabaseSync): void {
  db.exec("INSERT INTO chunks_fts(chunks_fts) VALUES('delete-all')");
  const insert = db.prepare('INSERT INTO chunks_fts (rowid, title, text) VALUES (?, ?, ?)');
  const rows = db.prepare(
    'SELECT c.rowid AS row, d.title, c.text, c.symbol FROM chunks c JOIN documents d ON d.rowid = ' +
      'c.document_rowid ORDER BY c.rowid',
  );
  for (const r of rows.iterate() as Iterable<{ row: number; title: string; text: string; symbol: string | null }>)
    insert.run(r.row, segmentCjk(r.title), keywordText(r.text, r.symbol));
}
