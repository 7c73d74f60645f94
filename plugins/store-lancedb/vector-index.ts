// The Lance vector index of one vector column (ADR 0229, 0235): when to build it, with which parameters, how
// it is kept current and how a query is tuned and prefiltered. Works on any Lance table whose column is
// a fixed-size list of float32; it never reads rows itself and holds no state between calls.
//
// 1. Due: no index until the column holds `threshold` vectors (Lance's flat query is as fast below it).
// 2. Build: IVF-RQ with √n partitions (IVF-HNSW-SQ: one per PARTITION_ROWS vectors; IVF-PQ: √n), plus scalar
//    indexes on the columns the caller's prefilter reads.
// 3. Current: rows added after the build are searched flat by Lance until `table.optimize()` folds them
//    into the index (refreshVectorIndex does, and so does the store's compaction); once the unindexed
//    rows outnumber the indexed ones the partitions no longer fit the data, and the index is rebuilt.
// 4. Query: nprobes/ef/refine chosen for recall@10 ≥ 0.95 on clustered 384-dim vectors (bench:vectors); refine
//    covers 10 · the rows that must be right, not every row asked for (ADR 0244).
// 5. Prefilter: source, since and until as a Lance `where`, applied before the vector search.
import type { Index, Table, VectorQuery } from '@lancedb/lancedb';
import type { SourceFilter } from '../../core/api/plugin.ts';
import { sourcesOf } from '../../core/api/algorithms.ts';
import type { LanceModule } from './lance-module.ts';

export type VectorIndexKind = 'ivf_rq' | 'ivf_hnsw_sq' | 'ivf_pq';

export interface VectorIndexSettings {
  /** Vectors in the column before an index is built; below it Lance scans flat. */
  readonly threshold: number;
  readonly kind: VectorIndexKind;
  /**
   * A search filter that leaves at most this many documents is answered by an exact scan of their rows (ADR 0235);
   * a wider one through the index with source/since/until as a prefilter (ADR 0246).
   */
  readonly exactFilterMax: number;
}

export const DEFAULT_VECTOR_INDEX: VectorIndexSettings = { threshold: 2_000, kind: 'ivf_rq', exactFilterMax: 2_000 };

/** `[plugin.store-lancedb]`'s settings (undefined where not written) over the defaults. */
export const vectorIndexSettings = (given: {
  readonly threshold?: number | undefined;
  readonly kind?: VectorIndexKind | undefined;
  readonly exactFilterMax?: number | undefined;
}): VectorIndexSettings => ({
  threshold: given.threshold ?? DEFAULT_VECTOR_INDEX.threshold,
  kind: given.kind ?? DEFAULT_VECTOR_INDEX.kind,
  exactFilterMax: given.exactFilterMax ?? DEFAULT_VECTOR_INDEX.exactFilterMax,
});

/** The column an index covers and the distance it was trained with (queries must use the same). */
export interface VectorColumn {
  readonly column: string;
  readonly distance: 'cosine' | 'dot' | 'l2';
}

/** Build parameters for `rows` vectors of `dims` dimensions. */
export interface VectorIndexPlan {
  readonly kind: VectorIndexKind;
  readonly partitions: number;
  /** IVF-PQ only: dims / 4 sub-vectors of 8 bits each. */
  readonly subVectors?: number;
  /** IVF-HNSW-SQ only: graph degree and build-time candidate list. */
  readonly m?: number;
  readonly efConstruction?: number;
  /** IVF k-means: training vectors per partition and iterations (Lance's defaults: 256 and 50). */
  readonly sampleRate?: number;
  readonly maxIterations?: number;
}

/** Query-time parameters (the ones the index kind ignores are left out). */
export interface VectorSearchTuning {
  readonly nprobes: number;
  readonly ef?: number;
  readonly refineFactor?: number;
}

const PARTITION_ROWS = 250_000;
/** IVF-RQ (ADR 0235): k-means on 128 vectors per partition for 20 rounds, 40 partitions probed, 10·k refined. */
const RQ_TRAINING = { sampleRate: 128, maxIterations: 20 } as const;
const RQ_NPROBES = 40;
const RQ_REFINE = 10;

export function planVectorIndex(rows: number, dims: number, kind: VectorIndexKind): VectorIndexPlan {
  if (kind === 'ivf_rq') return { kind, partitions: Math.max(1, Math.round(Math.sqrt(rows))), ...RQ_TRAINING };
  if (kind === 'ivf_pq')
    return {
      kind,
      partitions: Math.max(1, Math.round(Math.sqrt(rows))),
      subVectors: dims % 4 === 0 ? dims / 4 : dims % 2 === 0 ? dims / 2 : dims,
    };
  return { kind, partitions: Math.max(1, Math.ceil(rows / PARTITION_ROWS)), m: 16, efConstruction: 150 };
}

/**
 * The query's tuning for `k` rows of which the first `top` must be right (the store asks for more rows than it
 * returns documents, to group chunks by document). Refine reads `refine · k` full vectors; the top rows need only
 * RQ_REFINE · top of them: Lance re-ranks the first refine · k candidates by exact distance, so with
 * refine · k ≥ RQ_REFINE · top the first `top` rows are those k = top, refine RQ_REFINE would give (ADR 0244).
 */
export function tuneVectorSearch(plan: VectorIndexPlan, k: number, top = k): VectorSearchTuning {
  const refineFactor = Math.max(1, Math.ceil((RQ_REFINE * Math.min(top, k)) / k));
  if (plan.kind === 'ivf_rq') return { nprobes: Math.min(RQ_NPROBES, plan.partitions), refineFactor };
  if (plan.kind === 'ivf_pq') return { nprobes: Math.max(20, Math.ceil(plan.partitions / 20)), refineFactor };
  return { nprobes: plan.partitions, ef: Math.max(100, 10 * k) };
}

export function indexConfig(
  { lancedb }: LanceModule,
  plan: VectorIndexPlan,
  distance: VectorColumn['distance'],
): Index {
  const ivf = {
    distanceType: distance,
    numPartitions: plan.partitions,
    ...(plan.sampleRate === undefined ? {} : { sampleRate: plan.sampleRate }),
    ...(plan.maxIterations === undefined ? {} : { maxIterations: plan.maxIterations }),
  };
  if (plan.kind === 'ivf_rq') return lancedb.Index.ivfRq({ ...ivf, numBits: 1 });
  if (plan.kind === 'ivf_pq')
    return lancedb.Index.ivfPq({
      ...ivf,
      ...(plan.subVectors === undefined ? {} : { numSubVectors: plan.subVectors }),
    });
  return lancedb.Index.hnswSq({
    ...ivf,
    ...(plan.m === undefined ? {} : { m: plan.m }),
    ...(plan.efConstruction === undefined ? {} : { efConstruction: plan.efConstruction }),
  });
}

export interface VectorIndexState {
  readonly name: string;
  readonly kind: VectorIndexKind;
  readonly indexed: number;
  readonly unindexed: number;
}

/** The column's vector index, or null when it has none. */
export async function vectorIndexState(table: Table, column: string): Promise<VectorIndexState | null> {
  const config = (await table.listIndices()).find((i) => i.columns.length === 1 && i.columns[0] === column);
  if (!config) return null;
  const stats = await table.indexStats(config.name);
  if (!stats) return null;
  const kind: VectorIndexKind = /rq/i.test(stats.indexType)
    ? 'ivf_rq'
    : /pq/i.test(stats.indexType)
      ? 'ivf_pq'
      : 'ivf_hnsw_sq';
  return { name: config.name, kind, indexed: stats.numIndexedRows, unindexed: stats.numUnindexedRows };
}

/** `unavailable`: the column is not a fixed-size list of floats (Lance indexes only those). */
export type VectorIndexOutcome = 'none' | 'fresh' | 'updated' | 'rebuilt' | 'unavailable';

/**
 * Brings the column's index in step with its rows: builds it once the column holds `threshold` vectors,
 * folds new rows in with `optimize` (the caller's: it compacts too, so it runs under the caller's write
 * lock), rebuilds when the unindexed rows outnumber the indexed ones. The build itself takes no lock:
 * Lance commits an index over the fragments it read, and rows appended meanwhile stay unindexed.
 */
export async function refreshVectorIndex(
  lance: LanceModule,
  table: Table,
  target: VectorColumn & { readonly dims: number },
  settings: Pick<VectorIndexSettings, 'threshold' | 'kind'>,
  optimize: () => Promise<unknown>,
  prefilter: readonly PrefilterColumn[] = [],
): Promise<VectorIndexOutcome> {
  const field = (await table.schema()).fields.find((f) => f.name === target.column);
  if (!field || !lance.arrow.DataType.isFixedSizeList(field.type)) return 'unavailable';
  const state = await vectorIndexState(table, target.column);
  // An index built before the prefilter's scalar indexes existed gets them at its next refresh.
  if (state) await addPrefilterIndexes(lance, table, prefilter);
  if (state && state.unindexed === 0) {
    if (await scalarIndexesBehind(table, prefilter)) await optimize();
    return 'fresh';
  }
  if (state && state.unindexed <= state.indexed) {
    await optimize();
    return 'updated';
  }
  const rows = await table.countRows(`${quoteIdent(target.column)} IS NOT NULL`);
  if (!state && rows < settings.threshold) return 'none';
  const plan = planVectorIndex(rows, target.dims, state?.kind ?? settings.kind);
  await table.createIndex(target.column, { config: indexConfig(lance, plan, target.distance), replace: true });
  await addPrefilterIndexes(lance, table, prefilter);
  if (await scalarIndexesBehind(table, prefilter)) await optimize();
  return 'rebuilt';
}

/**
 * Whether a prefilter column's scalar index misses rows appended since it was built (ADR 0246): Lance then scans
 * those rows for every query that reads through it. The vectors a store writes after its documents are such rows:
 * at 52k the `doc_id` BTREE missed all 55,420 emb rows, and each row read scanned them.
 */
async function scalarIndexesBehind(table: Table, prefilter: readonly PrefilterColumn[]): Promise<boolean> {
  const columns = new Set(prefilter.map((p) => p.column));
  for (const i of await table.listIndices())
    if (
      i.columns.length === 1 &&
      columns.has(i.columns[0]!) &&
      ((await table.indexStats(i.name))?.numUnindexedRows ?? 0) > 0
    )
      return true;
  return false;
}

/** A column the vector query's `where` reads, and its scalar index: BTREE for many values, BITMAP for few. */
export interface PrefilterColumn {
  readonly column: string;
  readonly index: 'btree' | 'bitmap';
}

/**
 * Scalar indexes on the prefilter's columns that lack one (ADR 0235): Lance then finds the rows a `where` allows
 * from the index instead of scanning the column. Built with the vector index, kept current by the same
 * `optimize`. Never on a merge key: Lance's merge-insert misses matches through one (lancedb#3177).
 */
export async function addPrefilterIndexes(
  { lancedb }: LanceModule,
  table: Table,
  columns: readonly PrefilterColumn[],
): Promise<void> {
  const indexed = new Set((await table.listIndices()).flatMap((i) => (i.columns.length === 1 ? i.columns : [])));
  for (const { column, index } of columns)
    if (!indexed.has(column))
      await table.createIndex(column, { config: index === 'btree' ? lancedb.Index.btree() : lancedb.Index.bitmap() });
}

/**
 * Applies the column, distance and the tuning of the column's index to a vector query for `k` rows whose first
 * `top` must be right (tuneVectorSearch). `state` is
 * vectorIndexState's answer, which a caller reads once per table version rather than per query. The
 * partitions are re-planned from the indexed rows: after optimize that can exceed the trained count, and
 * Lance probes at most the partitions there are.
 */
export function tunedVectorQuery(
  query: VectorQuery,
  target: VectorColumn & { readonly dims: number },
  state: VectorIndexState | null,
  k: number,
  top = k,
): VectorQuery {
  const q = query.column(target.column).distanceType(target.distance).limit(k);
  if (!state) return q;
  return applyTuning(q, tuneVectorSearch(planVectorIndex(state.indexed, target.dims, state.kind), k, top));
}

/**
 * The store's form of tunedVectorQuery: the index's candidates without Lance's refine, `rerank` · k of them, which
 * the caller re-ranks by exact distance on the vectors it selects and cuts to k. The same answer as Lance's refine
 * (its first refine · k candidates by the quantized distance, re-ranked exactly) for a fraction of the time: at
 * 52k Lance's refine 2 over 50 rows cost 15 ms against 6 ms for 100 rows with their vectors (ADR 0244).
 */
export function candidateVectorQuery(
  query: VectorQuery,
  target: VectorColumn & { readonly dims: number },
  state: VectorIndexState,
  k: number,
  top = k,
): { query: VectorQuery; rerank: number } {
  const { refineFactor, ...rest } = tuneVectorSearch(planVectorIndex(state.indexed, target.dims, state.kind), k, top);
  const rerank = refineFactor ?? 1;
  const q = query
    .column(target.column)
    .distanceType(target.distance)
    .limit(k * rerank);
  return { query: applyTuning(q, rest), rerank };
}

/** Sets a tuning's parameters on a vector query (the index kind's: the others are absent). */
export function applyTuning(query: VectorQuery, tuning: VectorSearchTuning): VectorQuery {
  let q = query.nprobes(tuning.nprobes);
  if (tuning.ef !== undefined) q = q.ef(tuning.ef);
  if (tuning.refineFactor !== undefined) q = q.refineFactor(tuning.refineFactor);
  return q;
}

/** The columns a prefilter reads. */
export interface FilterColumns {
  /** The document's label (`git:docs`). */
  readonly source: string;
  /** The connector's label; its type is the part before `:`. */
  readonly connector: string;
  /** ISO 8601 text. */
  readonly updatedAt: string;
}

/**
 * source/since/until as a Lance SQL predicate (undefined: no restriction). The document-level facets
 * (path, lang, type, tags, meta) are not expressible here: the caller applies them to the hits.
 */
export function prefilterWhere(filter: SourceFilter | undefined, columns: FilterColumns): string | undefined {
  const parts: string[] = [];
  const sources = sourcesOf(filter);
  if (sources !== undefined) {
    const s = quoteIdent(columns.source);
    const c = quoteIdent(columns.connector);
    const any = sources.map(
      (v) => `${s} = ${quoteText(v)} OR ${c} = ${quoteText(v)} OR starts_with(${c}, ${quoteText(`${v}:`)})`,
    );
    parts.push(any.length === 0 ? 'false' : `(${any.join(' OR ')})`);
  }
  // Instants, not text: `…Z`, `….000Z` and `+02:00` spellings compare by time.
  const at = `to_timestamp(${quoteIdent(columns.updatedAt)})`;
  if (filter?.since !== undefined) parts.push(`${at} >= to_timestamp(${quoteText(filter.since)})`);
  if (filter?.until !== undefined) parts.push(`${at} < to_timestamp(${quoteText(filter.until)})`);
  return parts.length === 0 ? undefined : parts.join(' AND ');
}

const quoteText = (value: string): string => `'${value.replaceAll("'", "''")}'`;
const quoteIdent = (name: string): string => `\`${name.replaceAll('`', '``')}\``;
