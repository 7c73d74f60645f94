// `BENCH_STORE=lancedb npm run bench:vectors`: the Lance vector index (plugins/store-lancedb/vector-index.ts,
// ADR 0229) on clustered 384-dim unit vectors: flat scan vs IVF-HNSW-SQ vs IVF-PQ — build time, p50/p95
// query latency and recall@10 against the exact top-10, for the chosen tuning and the alternatives
// measured. Prints numbers only. BENCH_SIZES (default "52000,1000000"), BENCH_KINDS
// ("ivf_hnsw_sq,ivf_pq"), BENCH_QUERIES (200), BENCH_FLAT_QUERIES (all; 10 above 200k vectors) narrow a run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Table, VectorQuery } from '@lancedb/lancedb';
import type * as Arrow from 'apache-arrow';
import { createRequire } from 'node:module';
import { loadLance } from '../plugins/store-lancedb/lance-module.ts';
import {
  indexConfig,
  planVectorIndex,
  tuneVectorSearch,
  type VectorIndexKind,
  type VectorIndexPlan,
  type VectorSearchTuning,
} from '../plugins/store-lancedb/vector-index.ts';
import { clusteredData, DIMS, recallAt } from './vector-data.ts';
import { fmtMs, percentile } from './stats.ts';

const K = 10;
const QUERIES = Number(process.env['BENCH_QUERIES'] ?? 200);
const sizes = (process.env['BENCH_SIZES'] ?? '52000,1000000').split(',').map(Number);
const kinds = (process.env['BENCH_KINDS'] ?? 'ivf_hnsw_sq,ivf_pq').split(',') as VectorIndexKind[];
const DISTANCE = 'cosine' as const;
const BATCH = 50_000;

const lance = await loadLance();
// @lancedb/lancedb is CommonJS: batches must be built with the CommonJS apache-arrow it checks against
// (the ESM build's classes fail its instanceof tests).
const arrow = createRequire(import.meta.url)('apache-arrow') as typeof Arrow;

async function writeTable(dir: string, matrix: Float32Array): Promise<Table> {
  const n = matrix.length / DIMS;
  const schema = new arrow.Schema([
    new arrow.Field('id', new arrow.Int32(), false),
    new arrow.Field('source', new arrow.Utf8(), false),
    new arrow.Field('vector', new arrow.FixedSizeList(DIMS, new arrow.Field('item', new arrow.Float32(), true)), false),
  ]);
  const db = await lance.lancedb.connect(dir);
  const table = await db.createEmptyTable('bench', schema);
  for (let start = 0; start < n; start += BATCH) {
    const end = Math.min(n, start + BATCH);
    const ids = Int32Array.from({ length: end - start }, (_, i) => start + i);
    const values = arrow.makeData({ type: new arrow.Float32(), data: matrix.subarray(start * DIMS, end * DIMS) });
    const vectors = arrow.makeData({
      type: schema.fields[2]!.type as InstanceType<typeof arrow.FixedSizeList>,
      length: end - start,
      nullCount: 0,
      child: values,
    });
    const source = arrow.vectorFromArray(
      Array.from(ids, (i) => `s${i % 10}`),
      new arrow.Utf8(),
    );
    const data = arrow.makeData({
      type: new arrow.Struct(schema.fields),
      length: end - start,
      nullCount: 0,
      children: [arrow.makeData({ type: new arrow.Int32(), data: ids }), source.data[0]!, vectors],
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
  for (const q of queries) {
    const s = performance.now();
    const rows = await shape(
      table.vectorSearch(q).column('vector').distanceType(DISTANCE).select(['id', '_distance']).limit(K),
    ).toArray();
    latencies.push(performance.now() - s);
    found.push(rows.map((r: { id: number }) => r.id));
  }
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    recall: recallAt(found, truth.slice(0, queries.length), K),
  };
}

const line = (label: string, m: Measured): string =>
  `${label.padEnd(52)} p50 ${fmtMs(m.p50).padStart(7)} ms  p95 ${fmtMs(m.p95).padStart(7)} ms  recall@10 ${m.recall.toFixed(4)}`;

const tuned =
  (t: VectorSearchTuning) =>
  (q: VectorQuery): VectorQuery => {
    let r = q.nprobes(t.nprobes);
    if (t.ef !== undefined) r = r.ef(t.ef);
    if (t.refineFactor !== undefined) r = r.refineFactor(t.refineFactor);
    return r;
  };
const describe = (t: VectorSearchTuning): string =>
  `nprobes ${t.nprobes}${t.ef === undefined ? '' : `, ef ${t.ef}`}${t.refineFactor === undefined ? '' : `, refine ${t.refineFactor}`}`;

/** The chosen tuning first, then neighbours cheaper and dearer. */
function alternatives(plan: VectorIndexPlan, chosen: VectorSearchTuning): VectorSearchTuning[] {
  if (plan.kind === 'ivf_pq')
    return [
      { nprobes: chosen.nprobes, refineFactor: 1 },
      { nprobes: chosen.nprobes, refineFactor: 5 },
      { nprobes: chosen.nprobes * 2, refineFactor: chosen.refineFactor ?? 10 },
      { nprobes: chosen.nprobes, refineFactor: 20 },
    ];
  return [
    { nprobes: chosen.nprobes, ef: 40 },
    { nprobes: chosen.nprobes, ef: 200 },
    { nprobes: chosen.nprobes, ef: chosen.ef ?? 100, refineFactor: 2 },
    ...(plan.partitions > 1 ? [{ nprobes: Math.max(1, Math.ceil(plan.partitions / 2)), ef: chosen.ef ?? 100 }] : []),
  ];
}

console.log(
  `LanceDB vector index bench (@lancedb/lancedb 0.31, LANCE_CPU_THREADS=${process.env['LANCE_CPU_THREADS']}, ` +
    `distance ${DISTANCE}); machine: 2 cores shared with other jobs, so absolute times are pessimistic`,
);
for (const n of sizes) {
  const t0 = performance.now();
  const { matrix, queries, truth } = clusteredData(n, QUERIES, K);
  console.log(
    `\n== ${n.toLocaleString('en')} vectors × ${DIMS} dims, ${QUERIES} queries (data + exact top-10 in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-lance-vec-'));
  try {
    const w = performance.now();
    const table = await writeTable(dir, matrix);
    console.log(`table written in ${((performance.now() - w) / 1000).toFixed(1)} s`);
    // A flat scan reads every vector: at 1M a few queries give its latency (BENCH_FLAT_QUERIES).
    const flatCount = process.env['BENCH_FLAT_QUERIES'] ?? (n > 200_000 ? '10' : undefined);
    const flatQueries = flatCount === undefined ? queries : queries.slice(0, Number(flatCount));
    console.log(
      line(`flat scan (no index; ${flatQueries.length} queries)`, await measure(table, flatQueries, truth, (q) => q)),
    );
    for (const kind of kinds) {
      const plan = planVectorIndex(n, DIMS, kind);
      const b = performance.now();
      await table.createIndex('vector', { config: indexConfig(lance, plan, DISTANCE), replace: true });
      console.log(
        `${kind}: partitions ${plan.partitions}${plan.subVectors ? `, sub-vectors ${plan.subVectors}` : ''}` +
          `${plan.m ? `, m ${plan.m}, ef_construction ${plan.efConstruction}` : ''}: build ${((performance.now() - b) / 1000).toFixed(1)} s`,
      );
      const chosen = tuneVectorSearch(plan, K);
      console.log(line(`  chosen: ${describe(chosen)}`, await measure(table, queries, truth, tuned(chosen))));
      for (const alt of alternatives(plan, chosen))
        console.log(line(`  ${describe(alt)}`, await measure(table, queries, truth, tuned(alt))));
      const filtered = await measure(table, queries, truth, (q) => tuned(chosen)(q.where("source = 's3'")));
      console.log(
        `${`  chosen + prefilter source = 's3' (10% of rows)`.padEnd(52)} p50 ${fmtMs(filtered.p50).padStart(7)} ms  p95 ${fmtMs(filtered.p95).padStart(7)} ms`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
