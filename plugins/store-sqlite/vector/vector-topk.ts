// Exact top-k by dot product over a row-major Float32Array of unit vectors (so dot = cosine): the SQLite store's
// vector scan, whose dot product LanceDB's store reuses (store-sqlite's api.ts). Pure and allocation-light: one pass
// over the matrix, a bounded min-heap of the k best rows. Ties are broken by the lower row index (deterministic).

export interface RowScore {
  row: number;
  score: number;
}

/**
 * The k rows of `matrix` (n × dims, row-major) with the highest dot product with `query`, best first.
 * `rows`, when given, restricts the scan to those row indexes (a pre-filter, applied before the cut).
 */
export function exactTopK(
  matrix: Float32Array,
  dims: number,
  query: Float32Array,
  k: number,
  rows?: ArrayLike<number>,
): RowScore[] {
  const n = rows ? rows.length : Math.floor(matrix.length / dims);
  const heapRows = new Int32Array(k);
  const heapScores = new Float64Array(k);
  let size = 0;
  for (let i = 0; i < n; i++) {
    const row = rows ? (rows[i] as number) : i;
    const s = dotAt(matrix, row * dims, query, dims);
    if (size < k) {
      heapRows[size] = row;
      heapScores[size] = s;
      siftUp(heapRows, heapScores, size++);
    } else if (worse(heapScores[0] as number, heapRows[0] as number, s, row)) {
      heapRows[0] = row;
      heapScores[0] = s;
      siftDown(heapRows, heapScores, size);
    }
  }
  const out: RowScore[] = [];
  for (let i = 0; i < size; i++) out.push({ row: heapRows[i] as number, score: heapScores[i] as number });
  return out.sort((a, b) => b.score - a.score || a.row - b.row);
}

/** Dot product of matrix[offset .. offset+dims) with q; four accumulators let the JIT pipeline the adds. */
export function dotAt(m: Float32Array, offset: number, q: Float32Array, dims: number): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let j = 0;
  for (; j + 3 < dims; j += 4) {
    a += (m[offset + j] as number) * (q[j] as number);
    b += (m[offset + j + 1] as number) * (q[j + 1] as number);
    c += (m[offset + j + 2] as number) * (q[j + 2] as number);
    d += (m[offset + j + 3] as number) * (q[j + 3] as number);
  }
  for (; j < dims; j++) a += (m[offset + j] as number) * (q[j] as number);
  return a + b + c + d;
}

// Min-heap on (score, then higher row = worse), so the root is the weakest kept candidate.
const worse = (s1: number, r1: number, s2: number, r2: number): boolean => s1 < s2 || (s1 === s2 && r1 > r2);

function siftUp(rows: Int32Array, scores: Float64Array, i: number): void {
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!worse(scores[i] as number, rows[i] as number, scores[p] as number, rows[p] as number)) break;
    swap(rows, scores, i, p);
    i = p;
  }
}

function siftDown(rows: Int32Array, scores: Float64Array, size: number): void {
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < size && worse(scores[l] as number, rows[l] as number, scores[m] as number, rows[m] as number)) m = l;
    if (r < size && worse(scores[r] as number, rows[r] as number, scores[m] as number, rows[m] as number)) m = r;
    if (m === i) return;
    swap(rows, scores, i, m);
    i = m;
  }
}

function swap(rows: Int32Array, scores: Float64Array, i: number, j: number): void {
  const r = rows[i] as number;
  rows[i] = rows[j] as number;
  rows[j] = r;
  const s = scores[i] as number;
  scores[i] = scores[j] as number;
  scores[j] = s;
}
