import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeInPlace } from '../../../../core/search/unit-vector.ts';
import { exactTopK } from '../../../../plugins/store-sqlite/vector/vector-topk.ts';

function brute(matrix: Float32Array, dims: number, q: Float32Array, k: number, rows?: number[]): number[] {
  const all = (rows ?? Array.from({ length: matrix.length / dims }, (_, i) => i)).map((row) => {
    let s = 0;
    for (let j = 0; j < dims; j++) s += (matrix[row * dims + j] as number) * (q[j] as number);
    return { row, s };
  });
  return all
    .sort((a, b) => b.s - a.s || a.row - b.row)
    .slice(0, k)
    .map((x) => x.row);
}

describe('exactTopK', () => {
  const dims = 7;
  const n = 500;
  let seed = 42;
  const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5;
  const matrix = new Float32Array(n * dims).map(rand);
  const q = normalizeInPlace(new Float32Array(dims).map(rand));

  it('matches a brute-force sort', () => {
    assert.deepEqual(
      exactTopK(matrix, dims, q, 10).map((r) => r.row),
      brute(matrix, dims, q, 10),
    );
  });

  it('restricts the scan to the given rows before the cut', () => {
    const rows = Array.from({ length: 100 }, (_, i) => i * 5);
    assert.deepEqual(
      exactTopK(matrix, dims, q, 10, rows).map((r) => r.row),
      brute(matrix, dims, q, 10, rows),
    );
  });

  it('breaks ties by the lower row and returns fewer rows than k when the matrix is small', () => {
    const same = new Float32Array([1, 0, 1, 0, 1, 0]);
    assert.deepEqual(
      exactTopK(same, 2, new Float32Array([1, 0]), 5).map((r) => r.row),
      [0, 1, 2],
    );
  });
});
