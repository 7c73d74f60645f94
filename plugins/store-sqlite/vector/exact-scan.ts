// Exact top-k over an in-memory matrix: usearch's SIMD scan when its binary is there (near memory
// bandwidth), else the pure scan from core. Either way the kept rows are rescored in JS and sorted
// by (score desc, row asc), so the answer is deterministic.
import { dotAt, exactTopK, type RowScore } from './vector-topk.ts';
import { loadUsearch } from './usearch-module.ts';

export function exactScan(matrix: Float32Array, dims: number, query: Float32Array, k: number): RowScore[] {
  const n = Math.floor(matrix.length / dims);
  const usearch = n >= 2048 ? loadUsearch() : null;
  if (!usearch) return exactTopK(matrix, dims, query, k);
  const matches = usearch.exactSearch(matrix.subarray(0, n * dims), query, dims, Math.min(k, n), 'ip', 1);
  return Array.from(matches.keys, (key) => {
    const row = Number(key);
    return { row, score: dotAt(matrix, row * dims, query, dims) };
  }).sort((a, b) => b.score - a.score || a.row - b.row);
}
