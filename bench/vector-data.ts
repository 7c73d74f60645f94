// Synthetic embeddings for the vector benchmarks: seeded, clustered unit vectors (documents on a few
// thousand topics) and their exact top-k, so every run of every mode sees the same data.
import { normalizeInPlace } from '../core/search/unit-vector.ts';
import { exactScan } from '../plugins/store-sqlite/vector/exact-scan.ts';

export const DIMS = 384;

/** mulberry32: 32-bit integer steps, so hundreds of millions of draws never fall into a short cycle
 * (a float LCG does, and duplicate vectors then make recall meaningless). Values in [-0.5, 0.5). */
export function seededRandom(start = 12345): () => number {
  let seed = start;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

export interface VectorData {
  matrix: Float32Array;
  queries: Float32Array[];
  /** Exact top-k rows per query, best first. */
  truth: number[][];
}

/** Draws unit vectors around `centres` random centres (documents on a few thousand topics), seeded. */
export function clusteredSource(centres: number, dims = DIMS): (count: number) => Float32Array {
  const rand = seededRandom();
  const cs = Array.from({ length: centres }, () => normalizeInPlace(new Float32Array(dims).map(rand)));
  return (count) => {
    const m = new Float32Array(count * dims);
    for (let i = 0; i < count; i++) {
      const c = cs[Math.floor(Math.abs(rand()) * 2 * cs.length) % cs.length] as Float32Array;
      const row = m.subarray(i * dims, (i + 1) * dims);
      for (let j = 0; j < dims; j++) row[j] = (c[j] as number) + rand() * 0.12;
      normalizeInPlace(row);
    }
    return m;
  };
}

/** n unit vectors around n/100 centres, `queries` more from the same centres, and their exact top-k. */
export function clusteredData(n: number, queries: number, k: number, dims = DIMS): VectorData {
  const clustered = clusteredSource(Math.max(10, n / 100), dims);
  const matrix = clustered(n);
  const qs = Array.from({ length: queries }, () => clustered(1));
  return { matrix, queries: qs, truth: qs.map((q) => exactScan(matrix, dims, q, k).map((r) => r.row)) };
}

/** Share of the exact top-k found, over all queries. */
export function recallAt(
  found: readonly (readonly number[])[],
  truth: readonly (readonly number[])[],
  k: number,
): number {
  let hits = 0;
  found.forEach((rows, i) => {
    const exact = new Set((truth[i] ?? []).slice(0, k));
    hits += rows.slice(0, k).filter((r) => exact.has(r)).length;
  });
  return hits / (truth.length * k);
}
