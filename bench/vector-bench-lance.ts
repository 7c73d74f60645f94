// `BENCH_STORE=lancedb npm run bench:vectors`: the Lance vector index (plugins/store-lancedb/vector-index.ts,
// ADR 0229) on clustered 384-dim unit vectors: flat scan vs IVF-HNSW-SQ vs IVF-PQ — build time, p50/p95
// query latency and recall@10 against the exact top-10, for the chosen tuning and the alternatives
// measured, and the filtered p50 (prefilters passing 10 % and 1 % of rows, and a `doc_id IN` list as the
// store sends) before and after scalar indexes on the filter columns. Prints numbers only. BENCH_SIZES
// (default "52000,1000000"), BENCH_KINDS ("ivf_hnsw_sq,ivf_pq"), BENCH_QUERIES (200), BENCH_FLAT_QUERIES
// (all; 10 above 200k vectors; 0 skips the flat scan) narrow a run. BENCH_PLANS explores build settings
// instead of the module's plans: `;`-separated `kind:key=value,...` with kind ivf_hnsw_sq, ivf_pq, ivf_rq or
// ivf_flat and keys partitions, m, efc, sample, iter, sub, bits (build) and nprobes, ef, refine (query).
// BENCH_SCALAR=0 skips the scalar-index part.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Table, VectorQuery } from '@lancedb/lancedb';
import type * as Arrow from 'apache-arrow';
import { createRequire } from 'node:module';
import { loadLance } from '../plugins/store-lancedb/lance-module.ts';
import { applyTuning, type VectorIndexKind, type VectorSearchTuning } from '../plugins/store-lancedb/vector-index.ts';
import { dotAt } from '../plugins/store-sqlite/api.ts';
import {
  alternatives,
  benchIndexConfig,
  benchPlans,
  describePlan,
  describeTuning,
  tuned,
  type BenchPlan,
} from './lance-bench-plans.ts';
import { addScalarIndexes, benchFilters, dropScalarIndexes, type BenchFilter } from './lance-bench-filters.ts';
import { clusteredData, DIMS, recallAt } from './vector-data.ts';
import { fmtMs, percentile } from './stats.ts';

const K = 10;
const QUERIES = Number(process.env['BENCH_QUERIES'] ?? 200);
const sizes = (process.env['BENCH_SIZES'] ?? '52000,1000000').split(',').map(Number);
const kinds = (process.env['BENCH_KINDS'] ?? 'ivf_hnsw_sq,ivf_pq').split(',') as VectorIndexKind[];
const DISTANCE = 'cosine' as const;
const SCALAR = process.env['BENCH_SCALAR'] !== '0';
const FILTER_QUERIES = Number(process.env['BENCH_FILTER_QUERIES'] ?? 50);
const BATCH = 50_000;

const lance = await loadLance();
// @lancedb/lancedb is CommonJS: batches must be built with the CommonJS apache-arrow it checks against
// (the ESM build's classes fail its instanceof tests).
const arrow = createRequire(import.meta.url)('apache-arrow') as typeof Arrow;

const source = (i: number): string => `s${i % 10}`;
const part = (i: number): string => `p${i % 100}`;
const docOf = (i: number): string => `d${Math.floor(i / 4)}`;

async function writeTable(dir: string, matrix: Float32Array): Promise<Table> {
  const n = matrix.length / DIMS;
  const text = (name: string): Arrow.Field => new arrow.Field(name, new arrow.Utf8(), false);
  const schema = new arrow.Schema([
    new arrow.Field('id', new arrow.Int32(), false),
    text('source'),
    text('part'),
    text('doc_id'),
    new arrow.Field('vector', new arrow.FixedSizeList(DIMS, new arrow.Field('item', new arrow.Float32(), true)), false),
  ]);
  const db = await lance.lancedb.connect(dir);
  const table = await db.createEmptyTable('bench', schema);
  for (let start = 0; start < n; start += BATCH) {
    const end = Math.min(n, start + BATCH);
    const ids = Int32Array.from({ length: end - start }, (_, i) => start + i);
    const values = arrow.makeData({ type: new arrow.Float32(), data: matrix.subarray(start * DIMS, end * DIMS) });
    const vectors = arrow.makeData({
      type: schema.fields[4]!.type as InstanceType<typeof arrow.FixedSizeList>,
      length: end - start,
      nullCount: 0,
      child: values,
    });
    const texts = [source, part, docOf].map(
      (f) => arrow.vectorFromArray(Array.from(ids, f), new arrow.Utf8()).data[0]!,
    );
    const data = arrow.makeData({
      type: new arrow.Struct(schema.fields),
      length: end - start,
      nullCount: 0,
      children: [arrow.makeData({ type: new arrow.Int32(), data: ids }), ...texts, vectors],
    });
    const batch = new arrow.Table(schema, [new arrow.RecordBatch(schema, data)]);
    await table.add(batch);
  }
  return table;
}

interface Measured {
  p50: number;
  p95: number;
  recall: number;
}

async function measure(
  table: Table,
  queries: Float32Array[],
  truth: number[][],
  shape: (q: VectorQuery) => VectorQuery,
): Promise<Measured> {
  const latencies: number[] = [];
  const found: number[][] = [];
  // Not timed: the first queries after a build read the index files from disk.
  const search = (q: Float32Array): VectorQuery =>
    shape(table.vectorSearch(q).column('vector').distanceType(DISTANCE).select(['id', '_distance']).limit(K));
  // Not timed: a first pass reads the index partitions from disk into Lance's cache, as a serving process has.
  for (const q of queries) await search(q).toArray();
  for (const q of queries) {
    const s = performance.now();
    const rows = await search(q).toArray();
    latencies.push(performance.now() - s);
    found.push(rows.map((r: { id: number }) => r.id));
  }
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    recall: recallAt(found, truth.slice(0, queries.length), K),
  };
}

/**
 * The store's query (lance-vectors.ts, ADR 0244): `refine · k` candidates through the index without Lance's refine,
 * their vectors re-ranked by exact cosine in JS and cut to k.
 */
async function measureReranked(
  table: Table,
  queries: Float32Array[],
  truth: number[][],
  tuning: VectorSearchTuning,
): Promise<Measured> {
  const { refineFactor = 1, ...rest } = tuning;
  const search = async (q: Float32Array): Promise<number[]> => {
    const query = table
      .vectorSearch(q)
      .column('vector')
      .distanceType(DISTANCE)
      .limit(K * refineFactor);
    const rows = await applyTuning(query, rest).select(['id', 'vector', '_distance']).toArrow();
    const ids = rows.getChild('id')!;
    const vectors = rows.getChild('vector')!;
    const scored = Array.from({ length: rows.numRows }, (_, i) => ({
      id: ids.get(i) as number,
      score: dotAt((vectors.get(i) as { toArray(): Float32Array }).toArray(), 0, q, DIMS),
    }));
    return scored
      .sort((a, b) => b.score - a.score)
      .slice(0, K)
      .map((r) => r.id);
  };
  for (const q of queries) await search(q);
  const latencies: number[] = [];
  const found: number[][] = [];
  for (const q of queries) {
    const s = performance.now();
    found.push(await search(q));
    latencies.push(performance.now() - s);
  }
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    recall: recallAt(found, truth.slice(0, queries.length), K),
  };
}

const line = (label: string, m: Measured): string =>
  `${label.padEnd(52)} p50 ${fmtMs(m.p50).padStart(7)} ms  p95 ` +
  `${fmtMs(m.p95).padStart(7)} ms  recall@10 ${m.recall.toFixed(4)}`;

/** Each prefilter through the index, and (`exact`) as a flat scan of the rows it allows (bypassVectorIndex). */
async function measureFilters(table: Table, plan: BenchPlan, filters: BenchFilter[], queries: Float32Array[]) {
  const qs = queries.slice(0, FILTER_QUERIES);
  for (const f of filters) {
    const indexed = await measure(table, qs, f.truth, (q) => tuned(plan.tuning)(q.where(f.where)));
    console.log(line(`  chosen + where ${f.label}`, indexed));
    const flat = await measure(table, qs, f.truth, (q) => q.where(f.where).bypassVectorIndex());
    console.log(line(`  exact scan of the rows that where allows`, flat));
  }
}

console.log(
  `LanceDB vector index bench (@lancedb/lancedb 0.31, LANCE_CPU_THREADS=${process.env['LANCE_CPU_THREADS']}, ` +
    `distance ${DISTANCE}); machine: 2 cores shared with other jobs, so absolute times are pessimistic`,
);
for (const n of sizes) {
  const t0 = performance.now();
  const { matrix, queries, truth } = clusteredData(n, QUERIES, K);
  const filters = SCALAR
    ? benchFilters(matrix, DIMS, queries.slice(0, FILTER_QUERIES), K, { source, part, doc: docOf })
    : [];
  console.log(
    `\n== ${n.toLocaleString('en')} vectors × ${DIMS} dims, ${QUERIES} queries (data + exact top-10 in ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-lance-vec-'));
  try {
    const w = performance.now();
    const table = await writeTable(dir, matrix);
    console.log(`table written in ${((performance.now() - w) / 1000).toFixed(1)} s`);
    // A flat scan reads every vector: at 1M a few queries give its latency (BENCH_FLAT_QUERIES).
    const flatCount = process.env['BENCH_FLAT_QUERIES'] ?? (n > 200_000 ? '10' : undefined);
    const flatQueries = flatCount === undefined ? queries : queries.slice(0, Number(flatCount));
    if (flatQueries.length > 0)
      console.log(
        line(`flat scan (no index; ${flatQueries.length} queries)`, await measure(table, flatQueries, truth, (q) => q)),
      );
    for (const plan of benchPlans(n, DIMS, kinds, process.env['BENCH_PLANS'])) {
      const b = performance.now();
      await table.createIndex('vector', { config: benchIndexConfig(lance, plan, DISTANCE), replace: true });
      console.log(`${describePlan(plan)}: build ${((performance.now() - b) / 1000).toFixed(1)} s`);
      console.log(
        line(`  chosen: ${describeTuning(plan.tuning)}`, await measure(table, queries, truth, tuned(plan.tuning))),
      );
      for (const alt of alternatives(plan))
        console.log(line(`  ${describeTuning(alt)}`, await measure(table, queries, truth, tuned(alt))));
      // The first line after a build measured slow in every 1M run (ADR 0235): the chosen tuning once more.
      console.log(line(`  chosen again`, await measure(table, queries, truth, tuned(plan.tuning))));
      console.log(
        line(`  chosen, re-ranked in JS (the store)`, await measureReranked(table, queries, truth, plan.tuning)),
      );
      if (!SCALAR) continue;
      console.log(`  prefilters without scalar indexes (${Math.min(FILTER_QUERIES, QUERIES)} queries):`);
      await measureFilters(table, plan, filters, queries);
      console.log(
        `  scalar indexes (BITMAP source/part, BTREE doc_id): build ` +
          `${(await addScalarIndexes(table, lance)).toFixed(1)} s`,
      );
      await measureFilters(table, plan, filters, queries);
      await dropScalarIndexes(table);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
