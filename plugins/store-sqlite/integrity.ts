// Read-only health checks of the index for `kbctx doctor`: SQLite page integrity, the FTS5 index
// against its own structure, and counts that must agree (FTS rows = chunks, no orphan embeddings).
import type { IntegrityReport } from '../../core/api/plugin.ts';
import type { DatabaseSync } from 'node:sqlite';

export function checkIntegrity(db: DatabaseSync): IntegrityReport {
  const quick = (db.prepare('PRAGMA quick_check(20)').all() as { quick_check: string }[]).map((r) => r.quick_check);
  let fts: string | null = null;
  try {
    // FTS5's own consistency check (it writes nothing; errors when the index is corrupt).
    db.exec("INSERT INTO chunks_fts(chunks_fts, rank) VALUES('integrity-check', 0)");
  } catch (error) {
    fts = (error as Error).message;
  }
  const count = (sql: string): number => Number((db.prepare(sql).get() as { n: number }).n);
  return {
    sqlite: quick.length === 1 && quick[0] === 'ok' ? [] : quick,
    fts,
    chunks: count('SELECT count(*) AS n FROM chunks'),
    ftsRows: count('SELECT count(*) AS n FROM chunks_fts'),
    documentsWithoutChunks: count('SELECT count(*) AS n FROM documents d WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.document_rowid = d.rowid)'),
    orphanEmbeddings: count('SELECT count(*) AS n FROM embeddings e WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.rowid = e.chunk_rowid)'),
  };
}
