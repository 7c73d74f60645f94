// Read-only health checks of the index for `kbctx doctor`: SQLite page integrity, the FTS5 index
// against its own structure, and counts that must agree (FTS rows = chunks, no orphan embeddings).
import type { IntegrityReport } from '../../core/api/plugin.ts';
import type { DatabaseSync } from 'node:sqlite';

/** `writable` false: FTS5's check runs as an INSERT, which a read-only connection refuses: it is left out. */
export function checkIntegrity(db: DatabaseSync, writable = true): IntegrityReport {
  const quick = (db.prepare('PRAGMA quick_check(20)').all() as { quick_check: string }[]).map((r) => r.quick_check);
  const fts = writable ? ftsCheck(db) : null;
  const count = (sql: string): number => Number((db.prepare(sql).get() as { n: number }).n);
  return {
    sqlite: quick.length === 1 && quick[0] === 'ok' ? [] : quick,
    fts,
    chunks: count('SELECT count(*) AS n FROM chunks'),
    ftsRows: count('SELECT count(*) AS n FROM chunks_fts'),
    documentsWithoutChunks: count(
      'SELECT count(*) AS n FROM documents d WHERE NOT EXISTS ' +
        '(SELECT 1 FROM chunks c WHERE c.document_rowid = d.rowid)',
    ),
    orphanEmbeddings: count(
      'SELECT count(*) AS n FROM embeddings e WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.rowid = e.chunk_rowid)',
    ),
  };
}

/** FTS5's own consistency check (it writes nothing; errors when the index is corrupt): the error, or null. */
function ftsCheck(db: DatabaseSync): string | null {
  try {
    db.exec("INSERT INTO chunks_fts(chunks_fts, rank) VALUES('integrity-check', 0)");
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
