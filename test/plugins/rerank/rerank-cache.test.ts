// Reranked pages in the search cache (ADR 0197): an in-process kbctx (real SQLite index, the bundled rerank
// plugin) against the stand-in remote reranker, which counts requests and reverses the order it is given.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseSearchParams } from '../../../plugins/tools-builtin/search-params.ts';
import { search } from '../../../core/app/search.ts';
import type { RerankConfig } from '../../../plugins/rerank/rerank-section.ts';
import { rerankCacheKey } from '../../../plugins/rerank/rerank-section.ts';
import { IndexFixture } from '../../helpers/index-fixture.ts';
import { startStandInReranker, type StandInReranker } from '../../helpers/stand-in-reranker.ts';

let remote: StandInReranker;
const fx = new IndexFixture();
const useRemote = (path: string, extra = ''): Promise<void> =>
  fx.setConfig(
    `[connectors.filesystem.docs]\nroot = "docs"\n[rerank]\nprovider = "http"\nformat = "tei"\nbase_url = ` +
      `"${remote.url}/${path}"\n${extra}`,
  );

const run = async (input: Record<string, unknown>): Promise<string[]> => {
  await fx.kbctx.ready();
  const params = parseSearchParams({ query: 'alpha', ...input }, fx.kbctx.config.retrieval);
  return (await search(fx.kbctx.index.searchDeps(), params)).results.map((r) => r.title);
};
/** Waits (up to 5 s) until the remote has received `count` requests. */
async function requestsReach(count: number): Promise<void> {
  for (let i = 0; i < 100 && remote.requests.length < count; i++) await new Promise((r) => setTimeout(r, 50));
}
const cacheHits = (): number => fx.kbctx.index.searchDeps().cache!.hits;

before(async () => {
  remote = await startStandInReranker(3000);
  // Five documents with fewer and fewer mentions of the query word: a fixed keyword order.
  for (let i = 1; i <= 5; i++) fx.ws.write(`docs/d${i}.md`, `# Doc ${i}\n\n${'alpha '.repeat(7 - i)}beta gamma ${i}\n`);
  await useRemote('tei');
  await fx.sync();
});
after(async () => {
  await remote.close();
  await fx.close();
});

describe('reranked results in the search cache', () => {
  it(
    'a repeated search is answered from the cache: no second ' + 'request to the reranker, a cache hit counted',
    async () => {
      await useRemote('tei');
      const sent = remote.requests.length;
      const first = await run({ limit: 3 });
      assert.deepEqual(first, ['Doc 5', 'Doc 4', 'Doc 3']);
      assert.equal(remote.requests.length, sent + 1);
      const hits = cacheHits();
      assert.deepEqual(await run({ limit: 3 }), first);
      assert.equal(remote.requests.length, sent + 1, 'the reranker is not asked again');
      assert.equal(cacheHits(), hits + 1, 'one hit: the ranked page itself');
      await run({ limit: 2 });
      assert.equal(remote.requests.length, sent + 2, 'another page size is another entry');
    },
  );

  it('rerank: false and reranked are separate entries', async () => {
    await useRemote('tei');
    const sent = remote.requests.length;
    const fused = await run({ rerank: false });
    assert.deepEqual(fused, ['Doc 1', 'Doc 2', 'Doc 3', 'Doc 4', 'Doc 5']);
    assert.equal(remote.requests.length, sent);
    assert.deepEqual(await run({}), [...fused].reverse(), 'a cached rerank: false page is not the reranked one');
    assert.equal(remote.requests.length, sent + 1);
    assert.deepEqual(await run({ rerank: false }), fused);
    assert.deepEqual(await run({}), [...fused].reverse());
    assert.equal(remote.requests.length, sent + 1, 'both answered from the cache');
  });

  it('a fail-open page is not cached: the next search asks the reranker again', async () => {
    await useRemote('fail/tei');
    const sent = remote.requests.length;
    const fused = ['Doc 1', 'Doc 2', 'Doc 3', 'Doc 4', 'Doc 5'];
    assert.deepEqual(await run({}), fused);
    assert.deepEqual(await run({}), fused);
    assert.equal(remote.requests.length, sent + 2);
    await useRemote('slow/tei', 'budget_ms = 100');
    assert.deepEqual(await run({}), fused);
    assert.deepEqual(await run({}), fused);
    // The search gave up on the slow remote before it read the request: wait until both have arrived.
    await requestsReach(sent + 4);
    assert.equal(remote.requests.length, sent + 4, 'past the budget: not cached either');
  });

  it('a write to the index invalidates a cached reranked page', async () => {
    await useRemote('tei');
    const sent = remote.requests.length;
    await run({});
    await run({});
    assert.equal(remote.requests.length, sent + 1);
    fx.ws.write('docs/d6.md', '# Doc 6\n\nalpha beta\n');
    await fx.sync();
    const after = await run({});
    assert.equal(remote.requests.length, sent + 2, 'the reranker is asked again after the write');
    assert.ok(after.includes('Doc 6'), 'the new document is in the page');
  });
});

describe('rerankCacheKey', () => {
  const config: RerankConfig = {
    provider: 'http',
    format: 'tei',
    baseUrl: 'http://127.0.0.1:1',
    model: 'm1',
    modelPath: null,
    threads: 1,
    apiKeyEnv: null,
    candidates: 30,
    budgetMs: 2000,
    failOpen: true,
  };
  it('is "off" for rerank: false, else names the reranker and the settings that shape its answer', () => {
    const key = rerankCacheKey(config);
    assert.equal(key({ rerank: false }), 'off');
    assert.equal(key({}), key({ rerank: true }));
    for (const change of [{ model: 'm2' }, { baseUrl: 'http://127.0.0.1:2' }, { candidates: 20 }, { format: 'jina' }])
      assert.notEqual(rerankCacheKey({ ...config, ...change } as RerankConfig)({}), key({}), JSON.stringify(change));
  });
});
