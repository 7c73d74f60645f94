// Hybrid fusion of a keyword and a vector candidate list (documents). Pure: lists and params in,
// ranked list out; knows nothing of storage or config.
//
// weighted: 1. bring both signals to [0, 1]: `absolute` keeps the calibrated scores (keyword is already
//              in [0, 1); cosine is clamped to [0, 1]); `minmax` rescales each list to span [0, 1]
//              (a list of equal scores becomes all 1);
//           2. hybrid = alpha · semantic + (1 − alpha) · keyword, a signal missing for a document = 0.
// rrf:      hybrid = (K + 1) · (alpha / (K + rank_vector) + (1 − alpha) / (K + rank_keyword)), ranks
//           1-based, a missing rank contributes 0; first in both lists scores 1. alpha 0.5 = plain RRF.
// Then: sort by hybrid descending, ties by id ascending; cut to `limit`. Scores stay in [0, 1].

export interface FusionCandidate {
  id: string;
  /** The list's own score (keyword: scaled BM25; vector: cosine). */
  score: number;
}

export interface FusionParams {
  method: 'weighted' | 'rrf';
  /** Weight of the semantic signal, 0..1. */
  alpha: number;
  limit: number;
  /** RRF rank constant (default 60). */
  rrfK?: number;
  /** Weighted fusion only: how scores are brought to [0, 1] (default `absolute`). */
  normalize?: 'absolute' | 'minmax';
}

export interface FusedResult {
  id: string;
  /** The input scores, null where the document was not a candidate of that list. */
  keyword: number | null;
  semantic: number | null;
  hybrid: number;
}

export const DEFAULT_RRF_K = 60;

export function fuse(
  keyword: readonly FusionCandidate[],
  vector: readonly FusionCandidate[],
  params: FusionParams,
): FusedResult[] {
  const alpha = Math.min(1, Math.max(0, params.alpha));
  const k = params.rrfK ?? DEFAULT_RRF_K;
  const scaleList = params.normalize === 'minmax' ? minMax : clamped;
  const kw = params.method === 'rrf' ? rrfSignal(keyword, k) : scaleList(keyword);
  const vec = params.method === 'rrf' ? rrfSignal(vector, k) : scaleList(vector);
  const scale = params.method === 'rrf' ? k + 1 : 1;
  const raw = new Map<string, { keyword: number | null; semantic: number | null }>();
  for (const c of keyword) if (!raw.has(c.id)) raw.set(c.id, { keyword: c.score, semantic: null });
  for (const c of vector) {
    const entry = raw.get(c.id);
    if (entry) entry.semantic ??= c.score;
    else raw.set(c.id, { keyword: null, semantic: c.score });
  }
  const out: FusedResult[] = [];
  for (const [id, scores] of raw) {
    const hybrid = scale * (alpha * (vec.get(id) ?? 0) + (1 - alpha) * (kw.get(id) ?? 0));
    out.push({ id, keyword: scores.keyword, semantic: scores.semantic, hybrid: Math.min(1, Math.max(0, hybrid)) });
  }
  out.sort((a, b) => b.hybrid - a.hybrid || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out.slice(0, params.limit);
}

/** id → score scaled to [0, 1] within the list; the first occurrence of an id counts. */
function minMax(list: readonly FusionCandidate[]): Map<string, number> {
  const out = new Map<string, number>();
  if (list.length === 0) return out;
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of list) {
    lo = Math.min(lo, c.score);
    hi = Math.max(hi, c.score);
  }
  for (const c of list) if (!out.has(c.id)) out.set(c.id, hi > lo ? (c.score - lo) / (hi - lo) : 1);
  return out;
}

/** id → score clamped to [0, 1] (calibrated scores kept as they are); the first occurrence counts. */
function clamped(list: readonly FusionCandidate[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of list) if (!out.has(c.id)) out.set(c.id, Math.min(1, Math.max(0, c.score)));
  return out;
}

/** id → 1 / (K + rank), rank 1-based in the given (best-first) order. */
function rrfSignal(list: readonly FusionCandidate[], k: number): Map<string, number> {
  const out = new Map<string, number>();
  list.forEach((c, i) => {
    if (!out.has(c.id)) out.set(c.id, 1 / (k + i + 1));
  });
  return out;
}
