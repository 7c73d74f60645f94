// Compacting the SQLite index's FTS5 table after a sync that wrote or deleted (ADR 0113 for the rebuild). Loaded on
// first use (ADR 0130); its writes go through the unit of work (a group transaction during a sync).
import type { DatabaseSync } from 'node:sqlite';
import { reindexFts, staleFtsRows } from './fts-totals.ts';
import type { UnitOfWork } from './transaction.ts';

const COMPACT_FULL_MAX = 200_000;
/** FTS5 is rebuilt for exact BM25 totals once its deleted rows exceed this share of the live ones (ADR 0113). */
const REINDEX_RATIO = 0.1;

/**
 * 'optimize' rewrites the whole FTS index into one segment (~90 ms for SciFact's 5.5k chunks); past COMPACT_FULL_MAX
 * chunks only a bounded incremental merge is done per sync. Once deletions left FTS5's BM25 totals counting more than
 * REINDEX_RATIO rows that are gone, the index is rebuilt first (fts-totals.ts, ADR 0113): exact totals again, at a
 * cost amortised over the deletions.
 */
export function compactFts(db: DatabaseSync, unit: UnitOfWork, chunks: number): void {
  const full = chunks <= COMPACT_FULL_MAX;
  const reindex = staleFtsRows(db, chunks) > REINDEX_RATIO * chunks;
  const sql = full
    ? "INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')"
    : "INSERT INTO chunks_fts(chunks_fts, rank) VALUES('merge', 4000)";
  unit.run(() => {
    if (reindex) reindexFts(db);
    db.exec(sql);
  });
}
