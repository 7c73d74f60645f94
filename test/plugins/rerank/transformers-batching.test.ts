// Micro-batching in the transformers provider (ADR 0198): the real worker thread running the tests' tiny
// cross-encoder (test/helpers/tiny-cross-encoder.ts). Concurrent searches share model runs and each gets its
// own scores, the cap bounds a run's pairs, a failing batch fails each search (open, through a real search).
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { parseSearchParams } from '../../../plugins/tools-builtin/search-params.ts';
import { search } from '../../../core/app/search.ts';
import { createTransformersReranker } from '../../../plugins/rerank/transformers-reranker.ts';
import { IndexFixture } from '../../helpers/index-fixture.ts';
import { writeTinyCrossEncoder } from '../../helpers/tiny-cross-encoder.ts';

const fx = new IndexFixture();
const words = 'oven bread loaf kiwi crust flour'.split(' ');
const modelPath = fx.ws.path('models/ce');
const brokenPath = fx.ws.path('models/broken');
// The query's words count too (a pair is scored as a whole), so each search's scores are its own.
const weights = { oven: 1, bread: 0.5, loaf: -0.5, kiwi: 2, crust: 0.25 };
const searches = [
  { query: 'oven', documents: ['bread oven', 'loaf', 'oven oven crust'] },
  { query: 'kiwi bread', documents: ['kiwi', 'flour', 'bread bread', 'crust kiwi oven'] },
  { query: 'loaf', documents: ['oven', 'loaf loaf'] },
  { query: 'crust', documents: ['flour crust', 'kiwi kiwi', 'bread'] },
];

before(async () => {
  await writeTinyCrossEncoder(modelPath, words, weights);
  await writeTinyCrossEncoder(brokenPath, words, weights);
  await writeFile(`${brokenPath}/onnx/model.onnx`, 'not an onnx model');
});
after(() => fx.close());

describe('the transformers reranker batches concurrent searches', { timeout: 120_000 }, () => {
  let sequential: number[][];

  it('one at a time: one model run per search', async () => {
    const rerank = createTransformersReranker(() => Promise.resolve(modelPath));
    sequential = [];
    for (const s of searches) sequential.push(await rerank(s.query, s.documents));
    assert.deepEqual(rerank.stats(), { searches: 4, modelRuns: 4, largestBatch: 1, largestBatchPairs: 4 });
    // sigmoid of the summed word weights of query and document: 'oven' + 'oven oven crust' = 3.25
    assert.equal(sequential[0]![2]!.toFixed(6), (1 / (1 + Math.exp(-3.25))).toFixed(6));
  });

  it(
    'concurrent: the first search runs alone, the three ' + 'waiting meanwhile share one run; same scores each',
    async () => {
      const rerank = createTransformersReranker(() => Promise.resolve(modelPath));
      const scores = await Promise.all(searches.map((s) => rerank(s.query, s.documents)));
      assert.deepEqual(scores, sequential);
      assert.deepEqual(rerank.stats(), { searches: 4, modelRuns: 2, largestBatch: 3, largestBatchPairs: 9 });
    },
  );

  it('a batch holds at most maxBatchPairs pairs, a search never split', async () => {
    const rerank = createTransformersReranker(() => Promise.resolve(modelPath), 1, 6);
    const scores = await Promise.all(searches.map((s) => rerank(s.query, s.documents)));
    assert.deepEqual(scores, sequential);
    // [oven] alone; then [kiwi bread] (4) + [loaf] (2) = 6; then [crust] (3)
    assert.deepEqual(rerank.stats(), { searches: 4, modelRuns: 3, largestBatch: 2, largestBatchPairs: 6 });
  });

  it('a failing batch rejects each of its searches', async () => {
    const rerank = createTransformersReranker(() => Promise.resolve(brokenPath));
    const settled = await Promise.allSettled(searches.map((s) => rerank(s.query, s.documents)));
    assert.deepEqual(
      settled.map((r) => r.status),
      ['rejected', 'rejected', 'rejected', 'rejected'],
    );
    for (const r of settled)
      assert.match(String((r as PromiseRejectedResult).reason), /could not load the rerank model/);
    assert.equal(rerank.stats().modelRuns, 0);
  });
});

describe('concurrent searches through the rerank plugin', { timeout: 120_000 }, () => {
  const queries = ['oven', 'bread kiwi', 'loaf crust', 'kiwi'];
  const useModel = (path: string): Promise<void> =>
    fx.setConfig(
      `[connectors.filesystem.docs]\nroot = "docs"\n[retrieval]\ncache_size = 0\n` +
        `[rerank]\nprovider = "transformers"\nmodel_path = "${path}"\nbudget_ms = 9000\n`,
    );
  const run = async (query: string, rerank = true): Promise<{ order: string[]; notes: (string | undefined)[] }> => {
    await fx.kbctx.ready();
    const params = parseSearchParams({ query, explain: true, rerank }, fx.kbctx.config.retrieval);
    const { results } = await search(fx.kbctx.index.searchDeps(), params);
    return { order: results.map((r) => r.sourceId), notes: results.map((r) => r.explain?.rerankNote) };
  };

  before(async () => {
    const lines = ['oven bread kiwi', 'bread bread loaf', 'kiwi kiwi crust oven', 'loaf crust bread kiwi', 'oven loaf'];
    lines.forEach((line, i) => fx.ws.write(`docs/d${i}.md`, `${line}\n`));
    await useModel(modelPath);
    await fx.sync();
  });

  it('N concurrent searches give the orders of N sequential ones', async () => {
    await useModel(modelPath);
    const alone: string[][] = [];
    for (const q of queries) alone.push((await run(q)).order);
    const together = await Promise.all(queries.map((q) => run(q)));
    assert.deepEqual(
      together.map((r) => r.order),
      alone,
    );
    assert.ok(
      together.every((r) => r.notes.every((n) => n === undefined)),
      'every search was reranked',
    );
    const fused: string[][] = [];
    for (const q of queries) fused.push((await run(q, false)).order);
    assert.notDeepEqual(fused, alone, 'the model changes some order (else this test could not fail)');
  });

  it('a failing model: each concurrent search keeps its fused order, with the note', async () => {
    await useModel(brokenPath);
    const results = await Promise.all(queries.map((q) => run(q)));
    for (const r of results) assert.match(r.notes[0] ?? '', /could not load the rerank model.*fused order kept/);
  });
});
