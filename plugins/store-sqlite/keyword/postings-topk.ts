// Top-k groups (documents) over rows (chunks) scored with FTS5's BM25, by block-max MaxScore: rows
// that cannot enter the top k are never scored. Pure: postings in, hits out.
//
// 0. Seed the top k with the rows of the best block of the strongest terms, exactly scored (θ starts high).
// 1. Order the query's terms by their score upper bound, ascending; prefix[i] = Σ bounds of terms 0..i.
// 2. θ is the k-th best group score once k groups are held. Terms whose prefix ≤ θ are non-essential:
//    a row holding only those cannot beat θ, so candidates come from the essential terms' cursors only.
// 3. When the maxima of the essential cursors' current blocks plus the non-essential prefix cannot beat
//    θ, jump every essential cursor past the nearest block end. For a candidate row: skip it when its
//    group is not allowed (filters apply before the cut), or when the block maxima of the essential
//    terms holding it plus the non-essential prefix cannot beat θ. Otherwise add the
//    essential contributions, then the non-essential ones from the largest down, stopping as soon as
//    the score plus what is left cannot beat θ.
// 4. A row beating θ raises its group's score (a group keeps its best row); θ and the split move up.
// 5. The hits are rescored in the query's term order, so each sum is bit-for-bit FTS5's.
import { BM25_B, BM25_K1, bm25TermFactor } from './bm25.ts';

/** One term's postings: ascending row ids and, per row, the weighted term frequency. */
export interface Postings {
  readonly ids: Int32Array;
  readonly freqs: Uint16Array;
}

/** Per-row statistics, indexed by row id. */
export interface RowStats {
  /** Token count of the row over all columns (FTS5's D). */
  readonly lengths: Int32Array;
  /** The row's group (document); negative when the row does not exist. */
  readonly groups: Int32Array;
  /** FTS5's avgdl: all tokens over the number of rows. */
  readonly avgLength: number;
}

export const BLOCK_SIZE = 64;
const SEED_TERMS = 3;

/** Maxima of a term's tf factor, over its whole list and per block of BLOCK_SIZE postings. */
export interface TermBounds {
  readonly max: number;
  readonly blocks: Float64Array;
}

export interface ScoredTerm {
  readonly postings: Postings;
  readonly idf: number;
  readonly bounds: TermBounds;
}

export interface GroupHit {
  row: number;
  group: number;
  score: number;
}

export interface TopGroupsResult {
  /** Best first; ties by the lower group. */
  hits: GroupHit[];
  /** Rows fully scored. */
  scored: number;
}

/** The bounds of one term under the current average length (they change whenever it does). */
export function termBounds(postings: Postings, rows: RowStats): TermBounds {
  const { ids, freqs } = postings;
  const blocks = new Float64Array(Math.ceil(ids.length / BLOCK_SIZE));
  let max = 0;
  for (let i = 0; i < ids.length; i++) {
    const factor = bm25TermFactor(freqs[i]!, rows.lengths[ids[i]!]!, rows.avgLength);
    const b = i >> 6;
    if (factor > blocks[b]!) blocks[b] = factor;
    if (factor > max) max = factor;
  }
  return { max, blocks };
}

/** First position at or after `from` whose id is ≥ target (galloping, then binary search). */
function seek(ids: Int32Array, from: number, target: number): number {
  const n = ids.length;
  if (from >= n || ids[from]! >= target) return from;
  let lo = from;
  let step = 1;
  while (lo + step < n && ids[lo + step]! < target) {
    lo += step;
    step *= 2;
  }
  let hi = Math.min(lo + step, n);
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The best `k` groups, each scored by its best row. `allow` (by group) filters before the cut. */
export function topGroups(
  rows: RowStats,
  terms: readonly ScoredTerm[],
  k: number,
  allow?: (group: number) => boolean,
): TopGroupsResult {
  const order = terms
    .map((_, i) => i)
    .sort((a, b) => terms[a]!.idf * terms[a]!.bounds.max - terms[b]!.idf * terms[b]!.bounds.max);
  const n = order.length;
  const ids = order.map((i) => terms[i]!.postings.ids);
  const freqs = order.map((i) => terms[i]!.postings.freqs);
  const idf = order.map((i) => terms[i]!.idf);
  const blocks = order.map((i) => terms[i]!.bounds.blocks);
  const prefix: number[] = [];
  order.forEach((i, j) => prefix.push((prefix[j - 1] ?? 0) + terms[i]!.idf * terms[i]!.bounds.max));
  const pos = new Array<number>(n).fill(0);
  const heap = new GroupHeap(k);
  const { lengths, groups, avgLength } = rows;
  let scored = seed(rows, terms, heap, allow);
  let theta = heap.threshold();
  let essential = 0;
  while (essential < n && prefix[essential]! <= theta) essential++;

  for (;;) {
    // The next candidate row, and (block skip) the nearest end of the essential cursors' current
    // blocks: rows up to it cannot beat θ when those blocks' maxima plus the non-essential prefix
    // do not, so every essential cursor can jump past it at once.
    let row = 0x7fffffff;
    let upTo = 0x7fffffff;
    let blockBound = essential > 0 ? prefix[essential - 1]! : 0;
    for (let i = essential; i < n; i++) {
      const p = pos[i]!;
      const list = ids[i]!;
      if (p >= list.length) continue;
      const id = list[p]!;
      if (id < row) row = id;
      blockBound += idf[i]! * blocks[i]![p >> 6]!;
      const last = list[Math.min(((p >> 6) + 1) << 6, list.length) - 1]!;
      if (last < upTo) upTo = last;
    }
    if (row === 0x7fffffff) break;
    if (blockBound <= theta) {
      for (let i = essential; i < n; i++) pos[i] = seek(ids[i]!, pos[i]!, upTo + 1);
      continue;
    }
    const group = groups[row]!;
    let bound = essential > 0 ? prefix[essential - 1]! : 0;
    for (let i = essential; i < n; i++) if (ids[i]![pos[i]!] === row) bound += idf[i]! * blocks[i]![pos[i]! >> 6]!;
    if (group < 0 || bound <= theta || (allow !== undefined && !allow(group))) {
      for (let i = essential; i < n; i++) if (ids[i]![pos[i]!] === row) pos[i]!++;
      continue;
    }
    const norm = BM25_K1 * (1 - BM25_B + (BM25_B * lengths[row]!) / avgLength);
    let score = 0;
    for (let i = essential; i < n; i++) {
      const p = pos[i]!;
      if (ids[i]![p] !== row) continue;
      const f = freqs[i]![p]!;
      score += (idf[i]! * (f * (BM25_K1 + 1))) / (f + norm);
      pos[i] = p + 1;
    }
    let pruned = false;
    for (let i = essential - 1; i >= 0; i--) {
      if (score + prefix[i]! <= theta) {
        pruned = true;
        break;
      }
      const p = seek(ids[i]!, pos[i]!, row);
      pos[i] = p;
      if (ids[i]![p] !== row) continue;
      const f = freqs[i]![p]!;
      score += (idf[i]! * (f * (BM25_K1 + 1))) / (f + norm);
    }
    if (pruned) continue;
    scored++;
    if (score > theta && heap.offer(row, group, score)) {
      theta = heap.threshold();
      while (essential < n && prefix[essential]! <= theta) essential++;
    }
  }
  const hits = heap.hits().map((h) => ({ ...h, score: exactScore(rows, terms, h.row) }));
  return { hits: hits.sort((a, b) => b.score - a.score || a.group - b.group), scored };
}

/**
 * Offers the rows of the best block of the SEED_TERMS terms with the highest bounds, exactly scored:
 * real rows, so the heap stays correct, and θ starts near its final value instead of at zero (a row
 * met again later changes nothing). Returns the rows scored.
 */
function seed(
  rows: RowStats,
  terms: readonly ScoredTerm[],
  heap: GroupHeap,
  allow: ((group: number) => boolean) | undefined,
): number {
  const strongest = [...terms].sort((a, b) => b.idf * b.bounds.max - a.idf * a.bounds.max).slice(0, SEED_TERMS);
  let scored = 0;
  for (const term of strongest) {
    const { blocks } = term.bounds;
    let best = 0;
    for (let b = 1; b < blocks.length; b++) if (blocks[b]! > blocks[best]!) best = b;
    const ids = term.postings.ids;
    for (let p = best * BLOCK_SIZE; p < Math.min((best + 1) * BLOCK_SIZE, ids.length); p++) {
      const row = ids[p]!;
      const group = rows.groups[row]!;
      if (group < 0 || (allow !== undefined && !allow(group))) continue;
      heap.offer(row, group, exactScore(rows, terms, row));
      scored++;
    }
  }
  return scored;
}

/** A row's score summed in the query's term order, as FTS5 sums it. */
function exactScore(rows: RowStats, terms: readonly ScoredTerm[], row: number): number {
  let score = 0;
  for (const term of terms) {
    const p = seek(term.postings.ids, 0, row);
    if (term.postings.ids[p] === row)
      score += term.idf * bm25TermFactor(term.postings.freqs[p]!, rows.lengths[row]!, rows.avgLength);
  }
  return score;
}

/** The best k groups seen so far (a group keeps its best row); threshold() is the k-th score. */
class GroupHeap {
  private readonly k: number;
  private readonly slots = new Map<number, GroupHit>();
  private min: GroupHit | null = null;

  constructor(k: number) {
    this.k = k;
  }

  /** Returns true when the threshold may have moved. */
  offer(row: number, group: number, score: number): boolean {
    const held = this.slots.get(group);
    if (held) {
      if (score <= held.score) return false;
      held.score = score;
      held.row = row;
      if (held === this.min) this.min = this.findMin();
      return true;
    }
    if (this.slots.size >= this.k) {
      if (this.min === null || score <= this.min.score) return false;
      this.slots.delete(this.min.group);
    }
    this.slots.set(group, { row, group, score });
    this.min = this.findMin();
    return true;
  }

  threshold(): number {
    return this.slots.size >= this.k && this.min !== null ? this.min.score : -1;
  }

  hits(): GroupHit[] {
    return [...this.slots.values()];
  }

  private findMin(): GroupHit | null {
    let min: GroupHit | null = null;
    for (const hit of this.slots.values())
      if (min === null || hit.score < min.score || (hit.score === min.score && hit.group > min.group)) min = hit;
    return min;
  }
}
