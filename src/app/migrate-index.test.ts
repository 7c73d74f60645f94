// migrateIndex between two real SQLite stores: an index synced from a folder and a git repository
// (fingerprints, a git checkpoint), embedded with the test hashing embedder, copied into a new file.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { parseConfig } from '../config/load-config.ts';
import { openLore } from '../compose.ts';
import { analyzeQuery } from '../core/search/analyze-query.ts';
import { openSqliteStore } from '../store/sqlite/sqlite-store.ts';
import type { Store, StoredEmbedding } from '../store/store.ts';
import { commit, initRepo } from '../../test/helpers/git-repo.ts';
import { HashingEmbedder, hashVector } from '../../test/helpers/hashing-embedder.ts';
import { IndexFixture } from '../../test/helpers/index-fixture.ts';
import { embedPending } from './embed.ts';
import { migrateIndex } from './migrate-index.ts';
import { selectConnectors } from './select-connectors.ts';
import { syncConnectors } from './sync.ts';

const CONNECTORS = '[connectors.filesystem.docs]\nroot = "docs"\n[connectors.git.repo]\nurl = "repo"\n';
const QUERIES = ['zebra stripes', 'river delta', 'mountain', 'quarterly earnings forecast', 'nothing-matches-this'];
const embedder = new HashingEmbedder({ dims: 32 });

let fx: IndexFixture;
let targets: Store[];
beforeEach(async () => {
  fx = new IndexFixture(CONNECTORS);
  targets = [];
  fx.ws.write('docs/zebra.md', '# Zebras\n\nZebra stripes confuse flies. A zebra herd crosses the river.');
  fx.ws.write('docs/river.md', '# Rivers\n\nA river delta forms where the river meets the sea.\n\nDeltas are fertile.');
  fx.ws.write('docs/notes/mountain.txt', 'Mountain passes close in winter; the mountain road reopens in spring.');
  initRepo(fx.ws.path('repo'));
  commit(fx.ws.path('repo'), { 'earnings.md': '# Earnings\n\nQuarterly earnings beat the forecast.', 'zebra-crossing.md': 'A zebra crossing on the main road.' }, 'first', '2026-01-05T10:00:00Z');
  await fx.sync();
  await embedPending({ store: fx.lore.store, embedder });
  await fx.lore.store.setSourceState('script:tickets', { checkpoint: 'cursor-42', lastSyncAt: '2026-02-01T00:00:00.000Z' });
});
afterEach(async () => {
  for (const t of targets) await t.close();
  await fx.close();
});

const openTarget = (name: string): Store => {
  const store = openSqliteStore(fx.ws.path(name));
  targets.push(store);
  return store;
};

async function embeddings(store: Store): Promise<unknown[]> {
  const rows: StoredEmbedding[] = [];
  for await (const r of store.iterateEmbeddings()) rows.push(r);
  return rows.map((r) => ({ ...r, vector: [...r.vector] })).sort((a, b) => (a.chunkId < b.chunkId ? -1 : 1));
}

/** Everything a user can observe of an index: documents, chunks, fingerprints, checkpoints, vectors, search answers. */
async function snapshot(store: Store): Promise<unknown> {
  const all = await store.exportAll();
  const connectors = [...new Set(all.documents.map((d) => d.connector))].sort();
  const states = await Promise.all(connectors.map(async (c) => [c, [...(await store.documentStates(c)).values()]]));
  const keyword = await Promise.all(QUERIES.map(async (q) => (await store.keywordSearch({ terms: analyzeQuery(q), limit: 10, candidateK: 10 })).hits));
  const space = { model: embedder.model, dims: embedder.dims };
  const vector = await Promise.all(QUERIES.map(async (q) => (await store.vectorSearch({ vector: hashVector(q, embedder.dims), space, limit: 10, candidateK: 10 })).hits));
  return { ...all, states, checkpoints: await store.sourceStates(), embeddings: await embeddings(store), spaces: await store.embeddingSpaces(), keyword, vector };
}

describe('migrateIndex', () => {
  it('copies documents, chunks, fingerprints, checkpoints and embeddings: the copy answers as the source does', async () => {
    const source = fx.lore.store;
    const before = await snapshot(source);
    const counts = await source.counts();
    const progress: string[] = [];
    const report = await migrateIndex(source, openTarget('copy.sqlite'), { onProgress: (p) => progress.push(`${p.phase} ${p.done}/${p.total}`) });
    assert.deepEqual(report.mismatches, []);
    assert.deepEqual([report.documents, report.chunks, report.embeddings, report.checkpoints, report.removed], [counts.documents, counts.chunks, counts.embedded, 3, 0]);
    assert.ok(counts.documents === 5 && counts.embedded === counts.chunks, `a full index: ${JSON.stringify(counts)}`);
    assert.deepEqual(report.target, counts);
    assert.equal(progress.at(-1), `embeddings ${counts.embedded}/${counts.embedded}`);
    assert.ok(progress.includes(`documents ${counts.documents}/${counts.documents}`));
    assert.deepEqual(await snapshot(targets[0]!), before, 'the copy is observably the same index');
    assert.deepEqual(await snapshot(source), before, 'the source is untouched');
    assert.equal((before as { keyword: unknown[][] }).keyword.filter((hits) => hits.length > 0).length, 4, 'the compared searches found something');
  });

  it('carries fingerprints and checkpoints: a sync against the copy changes nothing', async () => {
    await migrateIndex(fx.lore.store, openTarget('copy.sqlite'));
    await targets.pop()!.close();
    const lore = openLore(parseConfig(`[db]\npath = "copy.sqlite"\n${CONNECTORS}`, { file: 'copy.toml', cwd: fx.ws.dir, env: {} }));
    try {
      const states = async (): Promise<unknown> => Promise.all(['filesystem:docs', 'git:repo'].map(async (c) => [...(await lore.store.documentStates(c)).values()]));
      const before = await states();
      const connectors = await Promise.all(selectConnectors(lore.config, 'all').map((r) => lore.createConnector(r)));
      const reports = await syncConnectors(lore.syncDeps(), connectors, { full: false });
      assert.deepEqual(await states(), before, 'fingerprints matched: no document was even touched');
      for (const r of reports) {
        assert.equal(r.failure, null);
        assert.deepEqual([r.connector, r.upserted, r.chunksWritten, r.deleted], [r.connector, 0, 0, 0], `${r.connector} touched nothing`);
      }
      assert.equal(reports.reduce((n, r) => n + r.unchanged, 0), 5);
      assert.equal(await lore.store.countPendingEmbeddings(embedder), 0, 'no chunk needs embedding again');
    } finally {
      await lore.close();
    }
  });

  it('refuses a target that holds an index; with force, makes it equal to the source', async () => {
    const target = openTarget('copy.sqlite');
    const other = new IndexFixture('[connectors.filesystem.other]\nroot = "other"\n');
    try {
      other.ws.write('other/extra.md', 'An extra document only the target has.');
      await other.sync();
      await embedPending({ store: other.lore.store, embedder });
      await migrateIndex(other.lore.store, target);
    } finally {
      await other.close();
    }
    await assert.rejects(migrateIndex(fx.lore.store, target), (e: Error & { code?: string }) => e.code === 'conflict' && /--force/.test(e.message) && /1 documents/.test(e.message));
    assert.equal((await target.counts()).documents, 1, 'a refusal writes nothing');
    const report = await migrateIndex(fx.lore.store, target, { force: true });
    assert.deepEqual(report.mismatches, []);
    assert.deepEqual([report.replaced.documents, report.replaced.checkpoints, report.removed], [1, 1, 1]);
    const source = await snapshot(fx.lore.store);
    const copy = (await snapshot(target)) as { checkpoints: { connector: string }[] };
    assert.deepEqual(copy.checkpoints.find((c) => c.connector === 'filesystem:other'), { connector: 'filesystem:other', checkpoint: null, lastSyncAt: null }, "the target's own connector is reset");
    copy.checkpoints = copy.checkpoints.filter((c) => c.connector !== 'filesystem:other');
    // SQLite's contentless FTS5 keeps a deleted row in its BM25 totals, so keyword scores of a target
    // that had documents deleted differ slightly from the source: compare what was found, in order.
    const found = (s: unknown): unknown => ({ ...(s as object), keyword: (s as { keyword: { document: { id: string }; chunk: { id: string } }[][] }).keyword.map((hits) => hits.map((h) => [h.document.id, h.chunk.id])) });
    assert.deepEqual(found(copy), found(source));
  });

  it('with force, leaves no vector the source does not have', async () => {
    const target = openTarget('copy.sqlite');
    await migrateIndex(fx.lore.store, target);
    await fx.lore.store.clearEmbeddings();
    const report = await migrateIndex(fx.lore.store, target, { force: true });
    assert.deepEqual(report.mismatches, []);
    assert.equal(report.removed, 0);
    assert.equal((await target.counts()).embedded, 0);
    assert.deepEqual(await target.embeddingSpaces(), []);
  });
});
