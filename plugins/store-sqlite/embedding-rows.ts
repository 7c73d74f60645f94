// SQL for the embeddings table: pending chunks, vector writes, per-space counts, vector loading.
// Vectors are stored unit-length as little-endian float32 BLOBs; a row records model, dims and the
// chunk content hash it was computed from, which is what makes staleness detectable.
import type {
  EmbeddingClaim,
  EmbeddingSpace,
  EmbeddingSpaceCount,
  EmbeddingWrite,
  PendingChunk,
  SourceFilter,
  StoredEmbedding,
} from '../../core/api/plugin.ts';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { filterSql, isFiltering } from './filter-sql.ts';
import type { UnitOfWork } from './transaction.ts';

/** A space's vectors in memory: row i of `matrix` is chunk `rowids[i]` (rowids ascending). */
export interface LoadedVectors {
  rowids: Int32Array;
  matrix: Float32Array;
}

const STALE =
  `(e.chunk_rowid IS NULL OR e.model != :model OR e.content_hash ` +
  `!= c.content_hash OR (:dims IS NOT NULL AND e.dims != :dims))`;

export class EmbeddingRows {
  private readonly db: DatabaseSync;
  private readonly unit: UnitOfWork;
  private readonly pending: StatementSync;
  private readonly pendingCount: StatementSync;
  private readonly upsert: StatementSync;
  private readonly generationRow: StatementSync;
  private readonly spaceCounts: StatementSync;
  // Counting per space scans the whole table; every semantic query needs it, so it is kept per generation.
  private cachedSpaces: { generation: number; spaces: EmbeddingSpaceCount[] } | null = null;

  constructor(db: DatabaseSync, unit: UnitOfWork) {
    this.db = db;
    this.unit = unit;
    this.pending = db.prepare(
      `SELECT c.rowid AS rowid, c.text AS text, c.content_hash AS content_hash FROM chunks c
         LEFT JOIN embeddings e ON e.chunk_rowid = c.rowid
       WHERE c.rowid > :after AND ${STALE} ORDER BY c.rowid LIMIT :limit`,
    );
    this.pendingCount = db.prepare(
      `SELECT count(*) AS n FROM chunks c LEFT JOIN embeddings e ON e.chunk_rowid = c.rowid WHERE ${STALE}`,
    );
    // The EXISTS guard skips chunks deleted or rewritten while their vector was being computed.
    this.upsert = db.prepare(
      `INSERT INTO embeddings (chunk_rowid, model, dims, content_hash, vector, created_at)
       SELECT :rowid, :model, :dims, :hash, :vector, :now WHERE EXISTS (SELECT 1 FROM chunks WHERE rowid = :rowid
         AND content_hash = :hash)
       ON CONFLICT(chunk_rowid) DO UPDATE SET model = excluded.model, dims = excluded.dims,
         content_hash = excluded.content_hash,
         vector = excluded.vector, created_at = excluded.created_at`,
    );
    this.generationRow = db.prepare('SELECT generation FROM embedding_state WHERE id = 1');
    this.spaceCounts = db.prepare(
      'SELECT model, dims, count(*) AS n FROM embeddings GROUP BY model, dims ORDER BY n DESC, model, dims',
    );
  }

  pendingChunks(space: { model: string; dims: number | null }, after: number, limit: number): PendingChunk[] {
    const rows = this.pending.all({ model: space.model, dims: space.dims, after, limit }) as {
      rowid: number;
      text: string;
      content_hash: string;
    }[];
    return rows.map((r) => ({ rowid: Number(r.rowid), text: r.text, contentHash: r.content_hash }));
  }

  /** Leases up to `limit` pending chunks after `after` to `claim.owner` (see Store.claimPendingEmbeddings). */
  claim(
    space: { model: string; dims: number | null },
    after: number,
    limit: number,
    claim: EmbeddingClaim,
  ): PendingChunk[] {
    const documents =
      claim.documentIds === undefined
        ? ''
        : ' AND c.document_rowid IN (SELECT d.rowid FROM documents ' +
          'd WHERE d.id IN (SELECT value FROM json_each(:ids)))';
    const select = this.db.prepare(
      `SELECT c.rowid AS rowid, c.text AS text, c.content_hash AS content_hash FROM chunks c
         LEFT JOIN embeddings e ON e.chunk_rowid = c.rowid
       WHERE c.rowid > :after AND ${STALE}${documents}
         AND NOT EXISTS (SELECT 1 FROM embedding_claims k WHERE k.chunk_rowid = c.rowid AND k.owner != :owner
           AND k.expires_at > :now)
       ORDER BY c.rowid LIMIT :limit`,
    );
    const lease = this.db.prepare(
      'INSERT OR REPLACE INTO embedding_claims (chunk_rowid, owner, expires_at) VALUES (?, ?, ?)',
    );
    return this.unit.runCommitted(() => {
      const now = Date.now();
      const params = {
        model: space.model,
        dims: space.dims,
        after,
        limit,
        owner: claim.owner,
        now,
        ...(claim.documentIds === undefined ? {} : { ids: JSON.stringify(claim.documentIds) }),
      };
      const rows = select.all(params) as { rowid: number; text: string; content_hash: string }[];
      for (const r of rows) lease.run(r.rowid, claim.owner, now + claim.leaseMs);
      return rows.map((r) => ({ rowid: Number(r.rowid), text: r.text, contentHash: r.content_hash }));
    });
  }

  release(owner: string): void {
    this.unit.runCommitted(() =>
      this.db.prepare('DELETE FROM embedding_claims WHERE owner = ? OR expires_at <= ?').run(owner, Date.now()),
    );
  }

  countPending(space: { model: string; dims: number | null }): number {
    return Number((this.pendingCount.get({ model: space.model, dims: space.dims }) as { n: number }).n);
  }

  write(space: EmbeddingSpace, rows: readonly EmbeddingWrite[]): number {
    const now = new Date().toISOString();
    return this.unit.run(() => {
      let written = 0;
      for (const r of rows) {
        const vector = new Uint8Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength);
        const result = this.upsert.run({
          rowid: r.rowid,
          model: space.model,
          dims: space.dims,
          hash: r.contentHash,
          vector,
          now,
        });
        written += Number(result.changes);
      }
      return written;
    });
  }

  /** Writes vectors by chunk id (one transaction); a missing chunk or another content hash is skipped. */
  importRows(rows: readonly StoredEmbedding[]): number {
    const now = new Date().toISOString();
    const byId = this.db.prepare('SELECT rowid FROM chunks WHERE id = ?');
    return this.unit.run(() => {
      let written = 0;
      for (const r of rows) {
        const chunk = byId.get(r.chunkId) as { rowid: number } | undefined;
        if (!chunk || r.vector.length !== r.dims) continue;
        const vector = new Uint8Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength);
        written += Number(
          this.upsert.run({ rowid: chunk.rowid, model: r.model, dims: r.dims, hash: r.contentHash, vector, now })
            .changes,
        );
      }
      return written;
    });
  }

  /** Every stored embedding with its chunk id, in chunk order (one row at a time). */
  *iterate(): Generator<StoredEmbedding> {
    const rows = this.db.prepare(
      'SELECT c.id AS chunk_id, e.model, e.dims, e.content_hash, e.vector FROM embeddings e JOIN chunks c ON ' +
        'c.rowid = e.chunk_rowid ORDER BY e.chunk_rowid',
    );
    for (const row of rows.iterate() as Iterable<{
      chunk_id: string;
      model: string;
      dims: number;
      content_hash: string;
      vector: Uint8Array;
    }>) {
      const bytes = row.vector.slice();
      yield {
        chunkId: row.chunk_id,
        model: row.model,
        dims: Number(row.dims),
        contentHash: row.content_hash,
        vector: new Float32Array(bytes.buffer, 0, bytes.byteLength >> 2),
      };
    }
  }

  clear(): number {
    return this.unit.run(() => Number(this.db.prepare('DELETE FROM embeddings').run().changes));
  }

  /** Embedding counts per (model, dims), most numerous first; recomputed only when the generation moved. */
  spaces(): EmbeddingSpaceCount[] {
    const generation = this.generation();
    if (this.cachedSpaces?.generation !== generation) {
      const rows = this.spaceCounts.all() as { model: string; dims: number; n: number }[];
      this.cachedSpaces = {
        generation,
        spaces: rows.map((r) => ({ model: r.model, dims: Number(r.dims), count: Number(r.n) })),
      };
    }
    return this.cachedSpaces.spaces;
  }

  /** Bumped by triggers on every insert, update and delete of an embedding (migration 2). */
  generation(): number {
    return Number((this.generationRow.get() as { generation: number }).generation);
  }

  count(space: EmbeddingSpace): number {
    return this.spaces().find((s) => s.model === space.model && s.dims === space.dims)?.count ?? 0;
  }

  rowids(space: EmbeddingSpace): Int32Array {
    const rows = this.db
      .prepare('SELECT chunk_rowid AS rid FROM embeddings WHERE model = ? AND dims = ? ORDER BY chunk_rowid')
      .all(space.model, space.dims) as {
      rid: number;
    }[];
    return Int32Array.from(rows, (r) => Number(r.rid));
  }

  /** Every vector of a space, or only those of chunks whose document passes `filter` (source label or type, since). */
  load(space: EmbeddingSpace, filter?: SourceFilter): LoadedVectors {
    if (!isFiltering(filter)) {
      const all = this.db.prepare(
        'SELECT chunk_rowid AS rid, vector FROM embeddings WHERE model = ? AND dims = ? ORDER BY chunk_rowid',
      );
      return collect(all.iterate(space.model, space.dims) as Iterable<{ rid: number; vector: Uint8Array }>, space.dims);
    }
    const where = filterSql(filter);
    const statement = this.db.prepare(
      `SELECT e.chunk_rowid AS rid, e.vector FROM embeddings e JOIN chunks c ON c.rowid = e.chunk_rowid
         JOIN documents d ON d.rowid = c.document_rowid
       WHERE e.model = :model AND e.dims = :dims${where.sql} ORDER BY e.chunk_rowid`,
    );
    return collect(
      statement.iterate({ model: space.model, dims: space.dims, ...where.params }) as Iterable<{
        rid: number;
        vector: Uint8Array;
      }>,
      space.dims,
    );
  }

  /** Vectors of the given chunks (missing ones are left out). */
  loadRows(space: EmbeddingSpace, rowids: readonly number[]): LoadedVectors {
    const statement = this.db.prepare(
      'SELECT chunk_rowid AS rid, vector FROM embeddings WHERE model = ? AND dims = ? AND chunk_rowid IN (SELECT ' +
        'value FROM json_each(?)) ORDER BY chunk_rowid',
    );
    return collect(
      statement.iterate(space.model, space.dims, JSON.stringify(rowids)) as Iterable<{
        rid: number;
        vector: Uint8Array;
      }>,
      space.dims,
    );
  }
}

function collect(rows: Iterable<{ rid: number; vector: Uint8Array }>, dims: number): LoadedVectors {
  const bytesPerRow = dims * 4;
  let capacity = 1024;
  let rowids = new Int32Array(capacity);
  let bytes = new Uint8Array(capacity * bytesPerRow);
  let n = 0;
  for (const row of rows) {
    if (row.vector.byteLength !== bytesPerRow) continue; // a damaged row is never trusted
    if (n === capacity) {
      capacity *= 2;
      const r = new Int32Array(capacity);
      r.set(rowids);
      rowids = r;
      const b = new Uint8Array(capacity * bytesPerRow);
      b.set(bytes);
      bytes = b;
    }
    rowids[n] = Number(row.rid);
    bytes.set(row.vector, n * bytesPerRow);
    n++;
  }
  return { rowids: rowids.subarray(0, n), matrix: new Float32Array(bytes.buffer, 0, n * dims) };
}
