// Embedding leases in PostgreSQL (Store.claimPendingEmbeddings, ADR 0126): one statement picks pending
// chunks nobody else holds and leases them; under concurrent claims the primary key serialises the
// inserts, and ON CONFLICT … WHERE takes a row over only when its lease expired or was ours, so a
// chunk is returned to one owner at a time. The database clock decides expiry, the same for all replicas.
import type pg from 'pg';
import type { EmbeddingClaim, PendingChunk } from '../../core/api/plugin.ts';
import { STALE } from './reads.ts';

type Queryable = Pick<pg.Pool, 'query'>;

export async function claimPendingEmbeddings(
  db: Queryable,
  space: { model: string; dims: number | null },
  after: number,
  limit: number,
  claim: EmbeddingClaim,
): Promise<PendingChunk[]> {
  const rows = (
    await db.query<{ rowid: string; text: string; content_hash: string }>(
      `WITH candidates AS (
       SELECT c.rowid, c.text, c.content_hash FROM kbctx_chunks c LEFT JOIN kbctx_embeddings e
         ON e.chunk_rowid = c.rowid
       WHERE c.rowid > $3 AND ${STALE} AND ($6::text[] IS NULL OR c.document_id = ANY($6::text[]))
         AND NOT EXISTS (SELECT 1 FROM kbctx_embedding_claims k WHERE k.chunk_rowid = c.rowid AND k.owner <> $4
           AND k.expires_at > now())
       ORDER BY c.rowid LIMIT $5
     ), leased AS (
       INSERT INTO kbctx_embedding_claims AS k (chunk_rowid, owner, expires_at)
       SELECT rowid, $4, now() + $7::double precision * interval '1 millisecond' FROM candidates
       ON CONFLICT (chunk_rowid) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE k.owner = excluded.owner OR k.expires_at <= now()
       RETURNING k.chunk_rowid
     )
     SELECT c.rowid::text AS rowid, c.text, c.content_hash FROM candidates c JOIN leased l ON l.chunk_rowid = c.rowid
       ORDER BY c.rowid`,
      [space.model, space.dims, after, claim.owner, limit, claim.documentIds ?? null, claim.leaseMs],
    )
  ).rows;
  return rows.map((r) => ({ rowid: Number(r.rowid), text: r.text, contentHash: r.content_hash }));
}

export async function releaseEmbeddingClaims(db: Queryable, owner: string): Promise<void> {
  await db.query('DELETE FROM kbctx_embedding_claims WHERE owner = $1 OR expires_at <= now()', [owner]);
}
