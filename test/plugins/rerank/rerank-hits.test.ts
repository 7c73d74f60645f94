// The rerank plugin's pure parts: reordering within `candidates`, the score it leaves, fail-open and
// fail-closed, and the wire formats' answers (a stand-in Reranker function, no network).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Hit, SearchRequest } from '../../../core/api/plugin.ts';
import { rerankHits } from '../../../plugins/rerank/rerank-hits.ts';
import { parseRerankAnswer, rerankBody } from '../../../plugins/rerank/wire-formats.ts';

const hit = (n: number, explain = true): Hit => ({
  id: `d${n}`,
  source: 'filesystem:docs',
  sourceId: `d${n}.md`,
  title: `Doc ${n}`,
  score: 1 - n / 10,
  snippet: `snippet ${n}`,
  chunkText: `chunk ${n}`,
  sourceUrl: null,
  updatedAt: '2026-01-01T00:00:00Z',
  explain: explain
    ? { keywordScore: 1 - n / 10, semanticScore: null, hybridScore: 1 - n / 10, chunkId: 'c', chunkIndex: 0 }
    : undefined,
});
const request = (over: Partial<SearchRequest> = {}): SearchRequest => ({
  query: 'q',
  mode: 'keyword',
  limit: 10,
  source: undefined,
  explain: true,
  ...over,
});
const config = { candidates: 3, budgetMs: 1000, failOpen: true };
const warnings: string[] = [];
const ctx = { log: { info: () => {}, debug: () => {}, warn: (m: string) => void warnings.push(m) } };
/** Scores the documents in reverse: the last one sent scores highest. */
const reverse = async (_q: string, docs: readonly string[]): Promise<number[]> => docs.map((_, i) => (i + 1) / 10);

describe('rerankHits', () => {
  it('reorders the first `candidates` hits by the reranker; the rest follow, scores capped below', async () => {
    const hits = [1, 2, 3, 4, 5].map((n) => hit(n));
    const copy = structuredClone(hits);
    const sent: string[][] = [];
    const out = await rerankHits(hits, request(), async (q, d) => (sent.push([...d]), reverse(q, d)), config, ctx);
    assert.deepEqual(
      out.map((h) => h.id),
      ['d3', 'd2', 'd1', 'd4', 'd5'],
    );
    assert.deepEqual(
      out.map((h) => h.score),
      [0.3, 0.2, 0.1, 0.1, 0.1],
    );
    assert.deepEqual(
      out.map((h) => [h.explain?.fusedRank, h.explain?.rerankScore]),
      [
        [3, 0.3],
        [2, 0.2],
        [1, 0.1],
        [4, null],
        [5, null],
      ],
    );
    assert.deepEqual(sent, [['Doc 1\nchunk 1', 'Doc 2\nchunk 2', 'Doc 3\nchunk 3']]);
    assert.deepEqual(hits, copy, 'the hits given (the search cache’s) are not changed');
  });

  it('rerank: false, or one hit: as they came, the reranker not called', async () => {
    const never = async (): Promise<number[]> => assert.fail('called');
    const hits = [hit(1), hit(2)];
    assert.equal(await rerankHits(hits, request({ rerank: false }), never, config, ctx), hits);
    assert.deepEqual(await rerankHits([hit(1)], request(), never, config, ctx), [hit(1)]);
  });

  it('without explain the hits carry no rerank fields', async () => {
    const out = await rerankHits([hit(1, false), hit(2, false)], request({ explain: false }), reverse, config, ctx);
    assert.deepEqual(
      out.map((h) => [h.id, h.explain]),
      [
        ['d2', undefined],
        ['d1', undefined],
      ],
    );
  });

  it('fails open on an error or past the budget: fused order, a note, a log line', async () => {
    const hits = [hit(1), hit(2)];
    const broken = async (): Promise<number[]> => Promise.reject(new Error('boom'));
    const out = await rerankHits(hits, request(), broken, config, ctx);
    assert.deepEqual(
      out.map((h) => [h.id, h.score, h.explain?.rerankScore, h.explain?.rerankNote]),
      [
        ['d1', 0.9, null, 'reranking skipped (boom); fused order kept'],
        ['d2', 0.8, null, 'reranking skipped (boom); fused order kept'],
      ],
    );
    assert.match(warnings.at(-1)!, /boom/);
    const slow = (): Promise<number[]> => new Promise((r) => setTimeout(() => r([1, 0]), 500));
    const late = await rerankHits(hits, request(), slow, { ...config, budgetMs: 20 }, ctx);
    assert.match(late[0]!.explain?.rerankNote ?? '', /budget_ms \(20 ms\)/);
  });

  it('fail_open = false: an upstream_error', async () => {
    const broken = async (): Promise<number[]> => Promise.reject(new Error('boom'));
    await assert.rejects(rerankHits([hit(1), hit(2)], request(), broken, { ...config, failOpen: false }, ctx), {
      code: 'upstream_error',
    });
  });
});

describe('rerank wire formats', () => {
  it('builds each request body', () => {
    assert.deepEqual(rerankBody('cohere', 'm', 'q', ['a', 'b']), {
      model: 'm',
      query: 'q',
      documents: ['a', 'b'],
      top_n: 2,
    });
    assert.deepEqual(rerankBody('voyage', 'm', 'q', ['a']), { model: 'm', query: 'q', documents: ['a'], top_k: 1 });
    assert.deepEqual(rerankBody('tei', 'm', 'q', ['a']), { query: 'q', texts: ['a'], truncate: true });
  });

  it('reads each answer into scores by index; another shape is an upstream_error', () => {
    const results = [
      { index: 1, relevance_score: 0.9 },
      { index: 0, relevance_score: 0.1 },
    ];
    assert.deepEqual(parseRerankAnswer('jina', { results }, 2), [0.1, 0.9]);
    assert.deepEqual(parseRerankAnswer('voyage', { data: results }, 2), [0.1, 0.9]);
    assert.deepEqual(parseRerankAnswer('tei', [{ index: 1, score: 0.7 }], 2), [Number.NaN, 0.7]);
    assert.throws(() => parseRerankAnswer('cohere', { data: results }, 2), { code: 'upstream_error' });
    assert.throws(() => parseRerankAnswer('cohere', { results: [{ index: 5, relevance_score: 1 }] }, 2), {
      code: 'upstream_error',
    });
  });
});
