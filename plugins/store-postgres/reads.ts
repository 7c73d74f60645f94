// Reads answered by PostgreSQL itself (not the mirror): what the write path decides on (document
// states, checkpoints, pending embeddings by PostgreSQL chunk rowid), listDocuments (its positions are
// the same on every replica, so a cursor from one works on another), sizes and counts.
import type {
  ConnectorState,
  DocumentHead,
  DocumentState,
  PendingChunk,
  SourceState,
  StoreCounts,
} from '../../core/api/plugin.ts';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;
type Space = { model: string; dims: number | null };

export async function documentStates(db: Queryable, connector: string): Promise<Map<string, DocumentState>> {
  const rows = (
    await db.query<{ id: string; source: string; source_id: string; fingerprint: string | null; content_hash: string }>(
      'SELECT id, source, source_id, fingerprint, content_hash FROM kbctx_documents WHERE connector = $1',
      [connector],
    )
  ).rows;
  return new Map(
    rows.map((r) => [
      r.id,
      { id: r.id, source: r.source, sourceId: r.source_id, fingerprint: r.fingerprint, contentHash: r.content_hash },
    ]),
  );
}

export async function sourceStates(db: Queryable, connector?: string): Promise<ConnectorState[]> {
  const rows = (
    await db.query<{ connector: string; checkpoint: string | null; last_sync_at: string | null }>(
      `SELECT connector, checkpoint, last_sync_at FROM kbctx_sync_state ` +
        `${connector === undefined ? '' : 'WHERE connector = $1'} ORDER BY connector COLLATE "C"`,
      connector === undefined ? [] : [connector],
    )
  ).rows;
  return rows.map((r) => ({ connector: r.connector, checkpoint: r.checkpoint, lastSyncAt: r.last_sync_at }));
}

export async function sourceState(db: Queryable, connector: string): Promise<SourceState> {
  const row = (await sourceStates(db, connector))[0];
  return { checkpoint: row?.checkpoint ?? null, lastSyncAt: row?.lastSyncAt ?? null };
}

export const STALE =
  '(e.chunk_rowid IS NULL OR e.model <> $1 OR e.content_hash <> ' +
  'c.content_hash OR ($2::int IS NOT NULL AND e.dims <> $2::int))';

export async function pendingEmbeddings(
  db: Queryable,
  space: Space,
  afterRowid: number,
  limit: number,
): Promise<PendingChunk[]> {
  const rows = (
    await db.query<{ rowid: string; text: string; content_hash: string }>(
      `SELECT c.rowid::text AS rowid, c.text, c.content_hash FROM kbctx_chunks c LEFT JOIN kbctx_embeddings e
        ON e.chunk_rowid = c.rowid
     WHERE c.rowid > $3 AND ${STALE} ORDER BY c.rowid LIMIT $4`,
      [space.model, space.dims, afterRowid, limit],
    )
  ).rows;
  return rows.map((r) => ({ rowid: Number(r.rowid), text: r.text, contentHash: r.content_hash }));
}

export async function countPendingEmbeddings(db: Queryable, space: Space): Promise<number> {
  const row = (
    await db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM kbctx_chunks c LEFT JOIN ` +
        `kbctx_embeddings e ON e.chunk_rowid = c.rowid WHERE ${STALE}`,
      [space.model, space.dims],
    )
  ).rows[0];
  return Number(row?.n ?? 0);
}

export async function listDocuments(
  db: Queryable,
  after: number,
  limit: number,
): Promise<{ documents: DocumentHead[]; last: number | null }> {
  const rows = (
    await db.query<{
      position: string;
      id: string;
      source: string;
      connector: string;
      source_id: string;
      source_url: string | null;
      title: string;
      updated_at: string;
    }>(
      `SELECT position::text AS position, id, source, connector, source_id, source_url, title, updated_at
     FROM kbctx_documents d WHERE d.position > $1 ORDER BY d.position LIMIT $2`,
      [after, limit],
    )
  ).rows;
  return {
    documents: rows.map((r) => ({
      id: r.id,
      source: r.source,
      connector: r.connector,
      sourceId: r.source_id,
      sourceUrl: r.source_url,
      title: r.title,
      updatedAt: r.updated_at,
    })),
    last: rows.length === limit && rows.length > 0 ? Number(rows.at(-1)!.position) : null,
  };
}

export async function counts(db: Queryable): Promise<StoreCounts> {
  const row = (
    await db.query<{ documents: string; chunks: string; embedded: string }>(
      `SELECT (SELECT count(*) FROM kbctx_documents)::text AS documents, (SELECT count(*) FROM kbctx_chunks)::text
        AS chunks,
       (SELECT count(*) FROM kbctx_embeddings)::text AS embedded`,
    )
  ).rows[0]!;
  return { documents: Number(row.documents), chunks: Number(row.chunks), embedded: Number(row.embedded) };
}

/** Bytes of kbctx's tables (with their indexes and TOAST) in the current schema. */
export async function sizeBytes(db: Queryable): Promise<number> {
  const row = (
    await db.query<{ bytes: string | null }>(
      `SELECT sum(pg_total_relation_size(c.oid))::text AS bytes FROM pg_class c
     WHERE c.relkind = 'r' AND c.relname LIKE 'kbctx\\_%' AND c.relnamespace = current_schema()::regnamespace`,
    )
  ).rows[0];
  return Number(row?.bytes ?? 0);
}

export async function hasPgvector(db: Queryable): Promise<boolean> {
  return (await db.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).rows.length > 0;
}
