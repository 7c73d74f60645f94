// Vector search over the embeddings table, best chunk per document.
//
// 1. Candidates: with a filter (source, since), an exact scan of the matching vectors (the filter is applied
//    before the cut); without one, the approximate index when the space holds ANN_MIN_VECTORS or more
//    (refreshed first if SQLite moved on), else an exact scan of a cached matrix (reloaded when the
//    embeddings generation changes).
// 2. Approximate candidates are rescored with their exact stored vectors, so scores are true cosines.
// 3. Group per document, keep the best chunk; fetch more candidates when grouping leaves too few.
import type { EmbeddingSpace, VectorHit, VectorIndexReport, VectorQuery, VectorResult } from '../../core/api/plugin.ts';
import { dotAt, exactTopK, type RowScore } from './vector/vector-topk.ts';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { AnnIndex, ANN_MIN_VECTORS, type VectorSource } from './vector/ann-index.ts';
import { exactScan } from './vector/exact-scan.ts';
import { isFiltering } from './filter-sql.ts';
import type { EmbeddingRows, LoadedVectors } from './embedding-rows.ts';
import {
  HEAD_COLUMNS,
  JOINED_CHUNK_COLUMNS,
  toHead,
  toJoinedChunk,
  type HeadRow,
  type JoinedChunkRow,
} from './rows.ts';

interface Candidate {
  rowid: number;
  score: number;
}

export class VectorSearcher {
  private readonly rows: EmbeddingRows;
  private readonly annDir: string | null;
  private readonly details: StatementSync;
  private readonly matrices = new Map<string, { generation: number; vectors: LoadedVectors }>();
  private readonly anns = new Map<string, AnnIndex | null>();

  constructor(db: DatabaseSync, rows: EmbeddingRows, annDir: string | null) {
    this.rows = rows;
    this.annDir = annDir;
    this.details = db.prepare(
      `SELECT c.rowid AS rid, c.document_rowid, ${HEAD_COLUMNS}, ${JOINED_CHUNK_COLUMNS}
       FROM chunks c JOIN documents d ON d.rowid = c.document_rowid WHERE c.rowid IN (SELECT value FROM json_each(?))`,
    );
  }

  search(query: VectorQuery): VectorResult {
    let want = Math.max(query.candidateK, query.limit);
    for (;;) {
      const { candidates, approximate } = this.candidates(query, want);
      const hits = this.groupByDocument(candidates);
      if (hits.length >= query.limit || candidates.length < want) {
        return { hits: hits.slice(0, query.limit), candidateCount: candidates.length, approximate };
      }
      want *= 4;
    }
  }

  refresh(space: EmbeddingSpace): VectorIndexReport {
    const vectors = this.rows.count(space);
    if (vectors < ANN_MIN_VECTORS) return { vectors, index: 'none' };
    const ann = this.ann(space);
    if (!ann) return { vectors, index: 'unavailable' };
    return { vectors, index: ann.refresh(this.source(space)) };
  }

  private candidates(query: VectorQuery, k: number): { candidates: Candidate[]; approximate: boolean } {
    const { space, vector } = query;
    if (isFiltering(query.filter)) {
      const loaded = this.rows.load(space, query.filter);
      return { candidates: toCandidates(loaded, exactTopK(loaded.matrix, space.dims, vector, k)), approximate: false };
    }
    if (this.rows.count(space) >= ANN_MIN_VECTORS) {
      const ann = this.ann(space);
      if (ann) {
        ann.refresh(this.source(space));
        const found = this.rows.loadRows(space, ann.search(vector, k));
        const rescored: Candidate[] = [];
        for (let i = 0; i < found.rowids.length; i++) {
          rescored.push({
            rowid: found.rowids[i] as number,
            score: dotAt(found.matrix, i * space.dims, vector, space.dims),
          });
        }
        return { candidates: rescored.sort((a, b) => b.score - a.score || a.rowid - b.rowid), approximate: true };
      }
    }
    const loaded = this.matrix(space);
    return { candidates: toCandidates(loaded, exactScan(loaded.matrix, space.dims, vector, k)), approximate: false };
  }

  private matrix(space: EmbeddingSpace): LoadedVectors {
    const key = `${space.model}\n${space.dims}`;
    const generation = this.rows.generation();
    const cached = this.matrices.get(key);
    if (cached && cached.generation === generation) return cached.vectors;
    this.matrices.clear(); // one space in memory at a time
    const vectors = this.rows.load(space);
    this.matrices.set(key, { generation, vectors });
    return vectors;
  }

  private ann(space: EmbeddingSpace): AnnIndex | null {
    if (this.annDir === null) return null;
    const key = `${space.model}\n${space.dims}`;
    if (!this.anns.has(key)) this.anns.set(key, AnnIndex.open(this.annDir, space));
    return this.anns.get(key) ?? null;
  }

  private source(space: EmbeddingSpace): VectorSource {
    return {
      generation: () => this.rows.generation(),
      rowids: () => this.rows.rowids(space),
      vectors: (rowids) => this.rows.loadRows(space, rowids),
    };
  }

  private groupByDocument(candidates: readonly Candidate[]): VectorHit[] {
    if (candidates.length === 0) return [];
    const rows = this.details.all(JSON.stringify(candidates.map((c) => c.rowid))) as unknown as (HeadRow &
      JoinedChunkRow & { rid: number; document_rowid: number })[];
    const byRid = new Map(rows.map((r) => [Number(r.rid), r]));
    const seen = new Set<number>();
    const hits: VectorHit[] = [];
    for (const c of candidates) {
      const row = byRid.get(c.rowid);
      if (!row || seen.has(row.document_rowid)) continue; // a chunk deleted since is dropped
      seen.add(row.document_rowid);
      hits.push({ document: toHead(row), chunk: toJoinedChunk(row), score: c.score });
    }
    return hits.sort(
      (a, b) => b.score - a.score || (a.document.id < b.document.id ? -1 : a.document.id > b.document.id ? 1 : 0),
    );
  }
}

function toCandidates(loaded: LoadedVectors, top: readonly RowScore[]): Candidate[] {
  return top.map((t) => ({ rowid: loaded.rowids[t.row] as number, score: t.score }));
}
