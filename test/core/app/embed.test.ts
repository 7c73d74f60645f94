// The embed use-case and semantic/hybrid search over a real SQLite store, with the test-only
// hashing embedder (and one real OpenAI-compatible server for batching through the whole path).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { KbctxError } from '../../../core/domain/errors.ts';
import { OpenAiEmbedder } from '../../../plugins/embedder-openai/openai-embedder.ts';
import { openSqliteStore, type SqliteStore } from '../../../plugins/store-sqlite/sqlite-store.ts';
import { HashingEmbedder } from '../../helpers/hashing-embedder.ts';
import { embedPending } from '../../../core/app/embed.ts';
import { search } from '../../../core/app/search.ts';
import { createSemanticSearch } from '../../../core/app/semantic-search.ts';
import { indexStats } from '../../../plugins/tools-builtin/sources.ts';
import { toDocument } from '../../../core/app/sync.ts';
import { toChunks } from '../../helpers/chunks.ts';
import type { RetrievalConfig } from '../../../core/config/types.ts';
import { testRetrieval } from '../../helpers/retrieval.ts';
import type { Embedder } from '../../../core/embed/embedder.ts';
import { BUNDLED_LOCAL_MODEL, LocalEmbedder } from '../../../plugins/embedder-local/local-embedder.ts';
import { documentId } from '../../../core/domain/ids.ts';

const retrieval = testRetrieval();
const TEXTS: Record<string, string> = {
  'cats.md': 'cats purr and chase mice around the house',
  'dogs.md': 'dogs bark and fetch balls in the park',
  'stocks.md': 'stocks rose after quarterly earnings beat forecasts',
  'bonds.md': 'bond yields fell as markets priced in rate cuts',
  'rain.md': 'heavy rain and wind are forecast for the weekend',
  'snow.md': 'snow closed the mountain passes overnight',
};

let dir: string;
let store: SqliteStore;

async function addDocs(connector: string, texts: Record<string, string>): Promise<void> {
  for (const [sourceId, body] of Object.entries(texts)) {
    const doc = toDocument(
      { sourceId, body, title: sourceId.replace('.md', '') },
      documentId(connector, sourceId),
      connector,
      connector,
    );
    await store.upsertDocument(doc, toChunks(doc, { maxTokens: 700, overlapTokens: 0 }), null);
  }
}

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'kbctx-embed-'));
  store = openSqliteStore(path.join(dir, 'index.sqlite'));
  await addDocs('filesystem:a', TEXTS);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('embedPending', () => {
  it('embeds every chunk in batches, then says nothing is pending', async () => {
    const embedder = new HashingEmbedder({ batchSize: 4 });
    const progress: number[] = [];
    const first = await embedPending({ store, embedder, onProgress: (p) => progress.push(p.done) });
    assert.equal(first.pending, 6);
    assert.equal(first.embedded, 6);
    assert.equal(first.failure, null);
    assert.equal(embedder.calls, 2); // 4 + 2
    assert.equal(progress.at(-1), 6);
    assert.equal((await store.counts()).embedded, 6);
    const again = await embedPending({ store, embedder });
    assert.equal(again.pending, 0);
    assert.equal(embedder.calls, 2);
  });

  it('keeps what was written when the provider fails midway, and a rerun continues', async () => {
    const embedder = new HashingEmbedder({ batchSize: 2 });
    Object.defineProperty(embedder, 'concurrency', { value: 1 });
    embedder.failOnCall = 2;
    const failed = await embedPending({ store, embedder });
    assert.equal(failed.embedded, 2);
    assert.match(failed.failure?.message ?? '', /provider went away/);
    assert.equal((await store.counts()).embedded, 2);
    embedder.failOnCall = null;
    const resumed = await embedPending({ store, embedder });
    assert.equal(resumed.pending, 4);
    assert.equal(resumed.embedded, 4);
    assert.equal((await store.counts()).embedded, 6);
  });

  it('treats a model change as stale: pending again, reported by stats, replaced by rebuild', async () => {
    await embedPending({ store, embedder: new HashingEmbedder({ model: 'test:a' }) });
    const b = new HashingEmbedder({ model: 'test:b', dims: 32 });
    assert.equal(await store.countPendingEmbeddings({ model: b.model, dims: b.dims }), 6);
    const stats = await indexStats(store, [], { model: b.model, dims: b.dims });
    assert.deepEqual(stats.embeddings, [{ model: 'test:a', dims: 64, count: 6, current: false }]);
    const rebuilt = await embedPending({ store, embedder: b }, { rebuild: true });
    assert.equal(rebuilt.dropped, 6);
    assert.equal(rebuilt.embedded, 6);
    assert.deepEqual(await store.embeddingSpaces(), [{ model: 'test:b', dims: 32, count: 6 }]);
  });

  it('re-embeds a chunk whose document changed and drops vectors of deleted documents', async () => {
    const embedder = new HashingEmbedder();
    await embedPending({ store, embedder });
    await addDocs('filesystem:a', { 'cats.md': 'cats sleep all day in the sun' });
    await store.deleteDocuments([documentId('filesystem:a', 'snow.md')]);
    assert.equal((await store.counts()).embedded, 4);
    assert.equal((await embedPending({ store, embedder })).embedded, 1);
  });

  it('sends batches of batch_size to a real OpenAI-compatible server', async () => {
    const sizes: number[] = [];
    const server = createServer((req, res) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString()));
      req.on('end', () => {
        const input = (JSON.parse(data) as { input: string[] }).input;
        sizes.push(input.length);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: [t.length, 1, 2] })) }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const embedder = new OpenAiEmbedder({
        baseUrl,
        model: 'm',
        dims: null,
        apiKey: null,
        batchSize: 4,
        concurrency: 2,
        maxRetries: 0,
        timeoutMs: 2000,
      });
      const report = await embedPending({ store, embedder });
      assert.equal(report.embedded, 6);
      assert.deepEqual(sizes.sort(), [2, 4]);
      assert.deepEqual(await store.embeddingSpaces(), [{ model: 'openai:m', dims: 3, count: 6 }]);
    } finally {
      server.close();
    }
  });
});

describe('semantic and hybrid search', () => {
  const embedder = new HashingEmbedder();
  const deps = () => ({ store, retrieval, semantic: createSemanticSearch(() => embedder) });
  const params = (over: object) => ({
    query: 'cats chase mice',
    mode: 'semantic' as const,
    limit: 3,
    source: undefined,
    explain: true,
    ...over,
  });

  it('fails with embeddings_not_configured before anything is embedded', async () => {
    await assert.rejects(
      search(deps(), params({})),
      (e: unknown) => e instanceof KbctxError && e.code === 'embeddings_not_configured',
    );
    await assert.rejects(search({ store, retrieval }, params({})), /configure|set \[embedding\]/);
  });

  it('ranks by cosine with scores in [0, 1] and explains them', async () => {
    await embedPending({ store, embedder });
    const out = await search(deps(), params({}));
    assert.equal(out.results[0]?.sourceId, 'cats.md');
    assert.equal(out.explain.mode, 'semantic');
    for (const r of out.results) assert.ok(r.score >= 0 && r.score <= 1 && r.explain?.semanticScore !== null);
  });

  it('hybrid fuses both lists and reports candidate counts and per-signal scores', async () => {
    await embedPending({ store, embedder });
    const out = await search(deps(), params({ mode: 'hybrid', query: 'rain forecast' }));
    assert.equal(out.results[0]?.sourceId, 'rain.md');
    assert.equal(out.explain.alpha, 0.6);
    assert.ok(out.explain.keywordCandidates > 0 && out.explain.vectorCandidates > 0);
    const top = out.results[0]?.explain;
    assert.ok(
      top && top.keywordScore !== null && top.semanticScore !== null && top.hybridScore === out.results[0]?.score,
    );
    const rrf = await search(
      { ...deps(), retrieval: { ...retrieval, fusion: 'rrf' } },
      params({ mode: 'hybrid', query: 'rain forecast' }),
    );
    assert.equal(rrf.results[0]?.sourceId, 'rain.md');
  });

  it(
    "hybrid_alpha unset: the embedder's own weight (the bundled " +
      'local model: 0.3), else 0.6; a configured one wins',
    async () => {
      await embedPending({ store, embedder });
      const unset = { ...retrieval, hybridAlpha: null };
      const alphaOf = async (e: Embedder, r: RetrievalConfig) =>
        (
          await search(
            { store, retrieval: r, semantic: createSemanticSearch(() => e) },
            params({ mode: 'hybrid', query: 'rain forecast' }),
          )
        ).explain.alpha;
      assert.equal(await alphaOf(embedder, unset), 0.6);
      const weighted = Object.assign(new HashingEmbedder(), { hybridAlpha: 0.3 });
      assert.equal(await alphaOf(weighted, unset), 0.3);
      assert.equal(await alphaOf(weighted, { ...retrieval, hybridAlpha: 0.45 }), 0.45);
      assert.equal(new LocalEmbedder({ model: BUNDLED_LOCAL_MODEL, dims: null, batchSize: 8 }).hybridAlpha, 0.3);
    },
  );

  it('scores keyword candidates outside the vector cut with their true cosine', async () => {
    await embedPending({ store, embedder });
    const query = (await embedder.embed(['rain forecast']))[0] as Float32Array;
    const space = { model: embedder.model, dims: embedder.dims };
    const ids = ['rain.md', 'snow.md'].map((f) => documentId('filesystem:a', f));
    const scores = await store.documentVectorScores(query, space, [...ids, 'no-such-document']);
    assert.deepEqual([...scores.keys()].sort(), [...ids].sort());
    const top = await store.vectorSearch({ vector: query, space, limit: 1, candidateK: 1 });
    assert.ok(Math.abs((scores.get(ids[0] as string) ?? 0) - (top.hits[0]?.score ?? -1)) < 1e-6);
    // With a vector cut of one document, hybrid still knows the other candidates' cosines.
    const narrow = await search(
      { ...deps(), retrieval: { ...retrieval, candidateKVector: 1 } },
      params({ mode: 'hybrid', query: 'rain and snow forecast' }),
    );
    assert.ok(narrow.results.filter((r) => r.explain?.semanticScore !== null).length >= 2);
  });

  it('applies the source filter inside candidate retrieval, so a filtered search still fills the limit', async () => {
    await addDocs('git:docs', {
      'g1.md': 'git notes about cats',
      'g2.md': 'git notes about bonds',
      'g3.md': 'git notes about snow',
    });
    await embedPending({ store, embedder });
    for (const mode of ['semantic', 'hybrid'] as const) {
      const out = await search(deps(), params({ mode, source: 'git', limit: 3 }));
      assert.deepEqual(out.results.map((r) => r.source).sort(), ['git:docs', 'git:docs', 'git:docs'], mode);
    }
  });
});
