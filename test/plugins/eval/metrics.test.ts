// kbctx eval's figures: hand-computed values on a small graded qrels set, and agreement with an
// independent, straightforward trec_eval-style implementation written here on random runs.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { mrrAt, ndcgAt, percentile, rankRun, recallAt, scoreRuns } from '../../../plugins/eval/metrics.ts';

const grades = (o: Record<string, number>) => new Map(Object.entries(o));

// q1: graded (d1 2, d2 1, d4 1 never retrieved, d3 judged 0); d1 and d5 tie at 0.8 (id order: d1 first).
// q2: nothing relevant retrieved. q3: the one relevant first. q4: judged, nothing relevant (not counted).
const QRELS = new Map([
  ['q1', grades({ d1: 2, d2: 1, d3: 0, d4: 1 })],
  ['q2', grades({ d5: 1 })],
  ['q3', grades({ d2: 3 })],
  ['q4', grades({ d1: 0 })],
]);
const RUNS = new Map([
  [
    'q1',
    rankRun([
      { id: 'd5', score: 0.8 },
      { id: 'd3', score: 0.9 },
      { id: 'd2', score: 0.5 },
      { id: 'd1', score: 0.8 },
    ]),
  ],
  [
    'q2',
    rankRun([
      { id: 'd1', score: 0.7 },
      { id: 'd2', score: 0.6 },
    ]),
  ],
  ['q3', rankRun([{ id: 'd2', score: 1 }])],
]);

it('ties are broken by id after score: d1 before d5 at the same score', () => {
  assert.deepEqual(RUNS.get('q1'), ['d3', 'd1', 'd5', 'd2']);
});

it('nDCG@10, Recall@100 and MRR@10 match hand-computed values (graded gains, log2(rank+1) discount)', () => {
  const q1 = QRELS.get('q1')!;
  const ranked = RUNS.get('q1')!;
  // DCG = 0/log2(2) + 2/log2(3) + 0/log2(4) + 1/log2(5) = 1.692536; ideal = 2/1 + 1/log2(3) + 1/log2(4) = 3.130930.
  assert.equal(ndcgAt(10, ranked, q1).toFixed(4), '0.5406');
  assert.equal(recallAt(100, ranked, q1), 2 / 3);
  assert.equal(mrrAt(10, ranked, q1), 0.5);
  assert.equal(ndcgAt(10, RUNS.get('q2')!, QRELS.get('q2')!), 0);
  assert.equal(mrrAt(10, RUNS.get('q2')!, QRELS.get('q2')!), 0);
  const figures = scoreRuns(RUNS, QRELS);
  assert.equal(figures.queries, 3, 'q4 has no relevant document: not counted');
  assert.equal(figures.ndcg10.toFixed(4), '0.5135'); // (0.540586 + 0 + 1) / 3
  assert.equal(figures.recall100.toFixed(4), '0.5556'); // (2/3 + 0 + 1) / 3
  assert.equal(figures.mrr10.toFixed(4), '0.5000'); // (1/2 + 0 + 1) / 3
  assert.equal(scoreRuns(new Map(), QRELS).ndcg10, 0, 'a query with no run scores 0');
});

it('MRR@10 and nDCG@10 ignore a relevant document past rank 10; Recall@100 counts it', () => {
  const ranked = Array.from({ length: 12 }, (_, i) => `x${i}`);
  const g = grades({ x11: 1 });
  assert.equal(mrrAt(10, ranked, g), 0);
  assert.equal(ndcgAt(10, ranked, g), 0);
  assert.equal(recallAt(100, ranked, g), 1);
});

it('p50/p95 are nearest-rank percentiles', () => {
  const ms = Array.from({ length: 20 }, (_, i) => i + 1);
  assert.equal(percentile(ms, 50), 10);
  assert.equal(percentile(ms, 95), 19);
  assert.equal(percentile([], 50), 0);
});

// An independent implementation, the way trec_eval's ndcg_cut.10 reads: sort by score descending,
// then docno, walk the top 10 summing rel / log2(i + 2), divide by the same sum over the sorted grades.
function referenceNdcg10(run: { id: string; score: number }[], qrels: Record<string, number>): number {
  const sorted = run.slice().sort((a, b) => {
    if (a.score !== b.score) return b.score - a.score;
    return a.id.localeCompare(b.id, 'en', { sensitivity: 'variant' }) || 0;
  });
  let dcg = 0;
  for (let i = 0; i < sorted.length && i < 10; i++) {
    const rel = qrels[sorted[i]!.id] ?? 0;
    if (rel > 0) dcg += rel / Math.log2(i + 2);
  }
  const ideal = Object.values(qrels)
    .filter((r) => r > 0)
    .sort((a, b) => b - a);
  let idcg = 0;
  for (let i = 0; i < ideal.length && i < 10; i++) idcg += ideal[i]! / Math.log2(i + 2);
  return idcg === 0 ? 0 : dcg / idcg;
}

it('nDCG@10 agrees with an independent implementation to 4 decimals on 500 random graded queries', () => {
  let seed = 42;
  const rand = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let q = 0; q < 500; q++) {
    const ids = Array.from({ length: 30 }, (_, i) => `doc${String(i).padStart(2, '0')}`);
    const qrels: Record<string, number> = {};
    for (const id of ids) if (rand() < 0.25) qrels[id] = Math.floor(rand() * 4); // grades 0..3
    // Scores on a coarse grid, so that ties are frequent.
    const run = ids.filter(() => rand() < 0.7).map((id) => ({ id, score: Math.round(rand() * 5) / 5 }));
    const ours = ndcgAt(10, rankRun(run), new Map(Object.entries(qrels)));
    assert.equal(ours.toFixed(4), referenceNdcg10(run, qrels).toFixed(4), `query ${q}`);
  }
});
