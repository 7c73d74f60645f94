// Vector reads answered by Lance's own query over the `vector_<dims>` column (ADR 0227): flat below the
// threshold, through the ANN index on that column (vector-index.ts, ADR 0229) once it exists. Lance orders by
// its `cosine` distance (the index is trained with it: with `dot`, rows optimize folded into the index were
// not found, measured in the vector-index test); the scores are recomputed from the returned vectors with
// core's dotAt (query and stored vectors are unit length: the cosine), so they equal the other stores' to the
// last bit.
//
// 1. Only emb rows have a `vector_<dims>` value, so a where clause is needed only when another model
//    shares the column (`model = ...`) or a search filter (ADR 0213) leaves at most PREFILTER_MAX
//    documents (`doc_id IN (...)`, a prefilter, answered by an exact scan of those rows: ADR 0235):
//    measured, a where on `kind` makes Lance's flat scan several times slower.
// 2. A wider filter is checked on the hits (postfilter) and the query is asked again for 4× the rows
//    until `limit` distinct documents pass or the space is exhausted (as best-chunk grouping needs).
// 3. Through the index, Lance returns refine · k candidates with their vectors and no refine of its own; they are
//    ranked here by dotAt and cut to k (candidateVectorQuery, ADR 0244: one read of vectors instead of two).
// Must not write: lance-store.ts owns commits.
import type { Table } from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';
import type { EmbeddingSpace, VectorHit, VectorQuery, VectorResult } from '../../core/api/plugin.ts';
import { dotAt } from '../store-sqlite/api.ts';
import type { Model } from './model.ts';
import { compare, type ReadRows } from './model-queries.ts';
import { sqlList, sqlString, vectorColumn } from './rows.ts';
import { candidateVectorQuery, tunedVectorQuery, type VectorIndexState } from './vector-index.ts';

function spaceWhere(space: EmbeddingSpace): string {
  return `kind = 'emb' AND model = ${sqlString(space.model)} AND dims = ${Math.trunc(space.dims)}`;
}

/** What a vector search reads besides the table: the filter's documents (doc-filter.ts) and chunk texts. */
export interface VectorReads {
  /** The documents the search filter lets through; undefined: every document. */
  allowed: ReadonlySet<string> | undefined;
  /** The filter's source/since/until as a `where` on the emb rows' stamps (emb-stamp.ts); undefined: none. */
  prefilter: string | undefined;
  /** At most this many allowed documents are scanned exactly (`doc_id IN`), more go through the index. */
  exactMax: number;
  readRows: ReadRows;
  /** The space's vector count and whether another model's vectors share its column (embedding-state.ts). */
  space: { size: number; shared: boolean };
}

/**
 * Best chunk per document by cosine, through Lance's vector query; `columns`: the table's vector columns; `index`:
 * the column's ANN index (ADR 0229; its tuning is applied and the answer is approximate), null: a flat scan.
 */
export async function lanceVectorSearch(
  table: Table,
  columns: ReadonlySet<string>,
  model: Model,
  query: VectorQuery,
  reads: VectorReads,
  index: VectorIndexState | null = null,
): Promise<VectorResult> {
  const { space } = query;
  const { size } = reads.space;
  const column = vectorColumn(space.dims);
  if (size === 0 || !columns.has(column) || query.vector.length !== space.dims)
    return { hits: [], candidateCount: 0, approximate: false };
  const conditions = reads.space.shared ? [`model = ${sqlString(space.model)}`] : [];
  let postfilter = reads.allowed;
  // A narrow filter is answered exactly: a flat scan of the rows it allows (found through doc_id's BTREE once the
  // ANN index exists, ADR 0235); IVF probes only some partitions, where few of those rows may lie.
  let exact = index === null;
  if (reads.allowed) {
    const allowed = [...reads.allowed].filter((id) => model.docs.has(id));
    if (allowed.length === 0) return { hits: [], candidateCount: 0, approximate: false };
    if (allowed.length <= reads.exactMax) {
      conditions.push(`doc_id IN ${sqlList(allowed)}`);
      postfilter = undefined;
      exact = true;
    } else if (reads.prefilter !== undefined && index !== null) {
      // Through the index, Lance applies it before the vector search, so the candidates all pass it; the postfilter
      // stays for what it cannot say (path, tags, …) and for rows whose stamp is missing (emb-stamp.ts).
      conditions.push(reads.prefilter);
    }
  }
  for (let want = Math.max(query.candidateK, query.limit); ; want *= 4) {
    const target = { column, distance: 'cosine', dims: space.dims } as const;
    const candidates =
      exact || index === null
        ? {
            query: tunedVectorQuery(table.vectorSearch(query.vector), target, null, want).bypassVectorIndex(),
            rerank: 1,
          }
        : candidateVectorQuery(table.vectorSearch(query.vector), target, index, want, query.limit);
    const { rerank } = candidates;
    let search = candidates.query;
    if (conditions.length > 0) search = search.where(conditions.join(' AND '));
    // _distance is selected only to keep Lance from warning that it adds it anyway (we rank by dotAt).
    const rows = await search.select(['row_key', 'content_hash', column, '_distance']).toArrow();
    const best = new Map<string, { chunkId: string; score: number }>();
    for (const { key, hash, score } of rankedRows(rows, column, query.vector).slice(0, want)) {
      const entry = model.chunks.get(key.slice(2));
      // A chunk removed or rewritten by a write not yet committed (bulk mode) is skipped.
      if (!entry || hash !== entry.chunk.contentHash) continue;
      const documentId = entry.chunk.documentId;
      if (best.has(documentId)) continue;
      const doc = model.docs.get(documentId);
      if (!doc || (postfilter && !postfilter.has(documentId))) continue;
      best.set(documentId, { chunkId: entry.chunk.id, score });
    }
    if (best.size >= query.limit || rows.numRows < want * rerank || want >= size) {
      const top = [...best.entries()]
        .sort(([a, x], [b, y]) => y.score - x.score || compare(a, b))
        .slice(0, query.limit);
      const read = await reads.readRows(
        top.map(([, h]) => model.chunks.get(h.chunkId)!.chunk),
        top.map(([docId]) => model.docs.get(docId)!),
      );
      const hits: VectorHit[] = top.flatMap(([docId, h]) => {
        const chunk = read.chunks.get(h.chunkId);
        const document = read.heads.get(docId);
        return chunk && document ? [{ document, chunk, score: h.score }] : [];
      });
      return { hits, candidateCount: rows.numRows, approximate: !exact };
    }
  }
}

/** A vector row ranked: its key, the chunk hash it was computed for, its exact cosine. */
interface RankedRow {
  key: string;
  hash: string;
  score: number;
}

/** The rows by exact cosine (core's dotAt on unit vectors), best first, ties by row key. */
function rankedRows(rows: ArrowTable, column: string, vector: Float32Array): RankedRow[] {
  const keys = rows.getChild('row_key');
  const hashes = rows.getChild('content_hash');
  const vectors = rows.getChild(column);
  const ranked: RankedRow[] = [];
  for (let i = 0; i < rows.numRows; i++) {
    const stored = (vectors?.get(i) as { toArray(): Float32Array } | null)?.toArray();
    if (stored)
      ranked.push({
        key: keys?.get(i) as string,
        hash: hashes?.get(i) as string,
        score: dotAt(stored, 0, vector, vector.length),
      });
  }
  return ranked.sort((a, b) => b.score - a.score || compare(a.key, b.key));
}

/** Best cosine per document over its chunks' vectors in `space`, read from Lance for those documents only. */
export async function lanceDocumentScores(
  table: Table,
  columns: ReadonlySet<string>,
  model: Model,
  vector: Float32Array,
  space: EmbeddingSpace,
  documentIds: readonly string[],
): Promise<Map<string, number>> {
  const best = new Map<string, number>();
  const column = vectorColumn(space.dims);
  const ids = documentIds.filter((id) => model.docs.has(id));
  if (ids.length === 0 || !columns.has(column) || vector.length !== space.dims) return best;
  const rows = await table
    .query()
    .where(`${spaceWhere(space)} AND doc_id IN ${sqlList(ids)}`)
    .select(['row_key', 'doc_id', 'content_hash', column])
    .toArrow();
  const keys = rows.getChild('row_key');
  const hashes = rows.getChild('content_hash');
  const docIds = rows.getChild('doc_id');
  const vectors = rows.getChild(column);
  for (let i = 0; i < rows.numRows; i++) {
    const entry = model.chunks.get((keys?.get(i) as string).slice(2));
    if (!entry || hashes?.get(i) !== entry.chunk.contentHash) continue;
    const stored = (vectors?.get(i) as { toArray(): Float32Array } | null)?.toArray();
    if (!stored) continue;
    const score = dotAt(stored, 0, vector, space.dims);
    const id = docIds?.get(i) as string;
    if (score > (best.get(id) ?? -Infinity)) best.set(id, score);
  }
  return best;
}

/** The `vector_<dims>` columns the table has. */
export async function vectorColumns(table: Table): Promise<Set<string>> {
  const schema = await table.schema();
  return new Set(schema.fields.map((f) => f.name).filter((name) => /^vector_\d+$/.test(name)));
}
