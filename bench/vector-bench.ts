// `npm run bench:vectors`: vector top-10 at 100k and 1M chunks × 384 dims (clustered unit vectors):
// exact scan latency (native SIMD and pure JS), HNSW build time, latency and recall@10 against exact,
// index size and memory. Prints numbers only. BENCH_SIZES="100000" limits the sizes; BENCH_M,
// BENCH_EF_ADD and BENCH_EF override the HNSW parameters. BENCH_STORE=lancedb runs the LanceDB mode
// instead (vector-bench-lance.ts: Lance's own IVF-HNSW-SQ / IVF-PQ index, ADR 0229).
import { mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dotAt, exactTopK } from '../plugins/store-sqlite/vector/vector-topk.ts';
import { clusteredSource, DIMS } from './vector-data.ts';
import { AnnIndex, DEFAULT_ANN_PARAMS } from '../plugins/store-sqlite/vector/ann-index.ts';
import { exactScan } from '../plugins/store-sqlite/vector/exact-scan.ts';

if (process.env['BENCH_STORE'] === 'lancedb') {
  await import('./vector-bench-lance.ts');
  process.exit(0);
}

const QUERIES = 200;
const sizes = (process.env['BENCH_SIZES'] ?? '100000,1000000').split(',').map(Number);
const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const params = {
  connectivity: env('BENCH_M', DEFAULT_ANN_PARAMS.connectivity),
  expansionAdd: env('BENCH_EF_ADD', DEFAULT_ANN_PARAMS.expansionAdd),
  expansionSearch: env('BENCH_EF', DEFAULT_ANN_PARAMS.expansionSearch),
};

const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] as number;
const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(0)} MB`;

for (const n of sizes) {
  const t0 = performance.now();
  const clustered = clusteredSource(Math.max(10, n / 100), DIMS);
  const matrix = clustered(n);
  const queries = Array.from({ length: QUERIES }, () => clustered(1));
  console.log(
    `\n== ${n.toLocaleString('en')} vectors × ${DIMS} dims (${mb(matrix.byteLength)} float32; generated in ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );

  const exact: number[][] = [];
  const native: number[] = [];
  for (const q of queries) {
    const s = performance.now();
    exact.push(exactScan(matrix, DIMS, q, 10).map((r) => r.row));
    native.push(performance.now() - s);
  }
  const js: number[] = [];
  for (const q of queries.slice(0, 20)) {
    const s = performance.now();
    exactTopK(matrix, DIMS, q, 10);
    js.push(performance.now() - s);
  }
  console.log(
    `exact top-10 (usearch SIMD scan): p50 ${pct(native, 0.5).toFixed(2)} ms  p95 ${pct(native, 0.95).toFixed(2)} ms`,
  );
  console.log(`exact top-10 (pure JS scan):      p50 ${pct(js, 0.5).toFixed(2)} ms`);

  const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-bench-'));
  try {
    const rss0 = process.memoryUsage().rss;
    const ann = AnnIndex.open(dir, { model: 'bench', dims: DIMS }, params);
    if (!ann) throw new Error('usearch is not available on this platform');
    const rowids = Int32Array.from({ length: n }, (_, i) => i);
    const b = performance.now();
    ann.refresh({
      generation: () => 1,
      rowids: () => rowids,
      vectors: (ids) => ({
        rowids: Int32Array.from(ids),
        matrix: matrix.subarray((ids[0] ?? 0) * DIMS, ((ids.at(-1) ?? -1) + 1) * DIMS),
      }),
    });
    const buildS = (performance.now() - b) / 1000;
    const fileBytes = readdirSync(dir).reduce((sum, f) => sum + statSync(path.join(dir, f)).size, 0);
    const p = params;
    console.log(
      `HNSW (usearch, f16, M=${p.connectivity}, ef_add=${p.expansionAdd}, ef_search=${p.expansionSearch}): build ` +
        `${buildS.toFixed(1)} s, ` +
        `index files ${mb(fileBytes)}, RSS +${mb(process.memoryUsage().rss - rss0)}`,
    );
    // As kbctx searches: CANDIDATES nearest from the index, rescored with exact float32 dot products.
    for (const candidates of [10, 80]) {
      const latencies: number[] = [];
      let hits = 0;
      queries.forEach((q, i) => {
        const s = performance.now();
        const found = ann.search(q, candidates);
        const top = found
          .map((r) => ({ r, s: dotAt(matrix, r * DIMS, q, DIMS) }))
          .sort((a, b) => b.s - a.s || a.r - b.r)
          .slice(0, 10);
        latencies.push(performance.now() - s);
        const truth = new Set(exact[i]);
        hits += top.filter((t) => truth.has(t.r)).length;
      });
      console.log(
        `HNSW top-10 from ${candidates} candidates (rescored): p50 ${pct(latencies, 0.5).toFixed(3)} ms  p95 ` +
          `${pct(latencies, 0.95).toFixed(3)} ms  ` +
          `recall@10 vs exact ${(hits / (QUERIES * 10)).toFixed(4)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
