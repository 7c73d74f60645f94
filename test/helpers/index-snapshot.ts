// A populated index to move around (`kbctx migrate` tests) and everything a user can observe of an
// index, as one comparable value: documents, chunks, fingerprints, checkpoints, vectors, search answers.
import { analyzeQuery } from '../../core/search/analyze-query.ts';
import { embedPending } from '../../core/app/embed.ts';
import type { Store, StoredEmbedding } from '../../core/store/store.ts';
import { commit, initRepo } from './git-repo.ts';
import { HashingEmbedder, hashVector } from './hashing-embedder.ts';
import { IndexFixture } from './index-fixture.ts';

export const MIGRATE_CONNECTORS = '[connectors.filesystem.docs]\nroot = "docs"\n[connectors.git.repo]\nurl = "repo"\n';
export const snapshotEmbedder = new HashingEmbedder({ dims: 32 });
const QUERIES = ['zebra stripes', 'river delta', 'mountain', 'quarterly earnings forecast', 'nothing-matches-this'];

/**
 * Five documents from a folder and a git repository (fingerprints, a commit checkpoint), all embedded, plus a script
 * checkpoint.
 */
export async function populatedIndex(): Promise<IndexFixture> {
  const fx = new IndexFixture(MIGRATE_CONNECTORS);
  fx.ws.write('docs/zebra.md', '# Zebras\n\nZebra stripes confuse flies. A zebra herd crosses the river.');
  fx.ws.write('docs/river.md', '# Rivers\n\nA river delta forms where the river meets the sea.\n\nDeltas are fertile.');
  fx.ws.write('docs/notes/mountain.txt', 'Mountain passes close in winter; the mountain road reopens in spring.');
  initRepo(fx.ws.path('repo'));
  commit(
    fx.ws.path('repo'),
    {
      'earnings.md': '# Earnings\n\nQuarterly earnings beat the forecast.',
      'zebra-crossing.md': 'A zebra crossing on the main road.',
    },
    'first',
    '2026-01-05T10:00:00Z',
  );
  await fx.sync();
  await embedPending({ store: fx.kbctx.store, embedder: snapshotEmbedder });
  await fx.kbctx.store.setSourceState('script:tickets', {
    checkpoint: 'cursor-42',
    lastSyncAt: '2026-02-01T00:00:00.000Z',
  });
  return fx;
}

export interface IndexSnapshot {
  documents: unknown[];
  chunks: unknown[];
  states: unknown[];
  checkpoints: { connector: string; checkpoint: string | null; lastSyncAt: string | null }[];
  embeddings: unknown[];
  spaces: unknown[];
  keyword: { document: { id: string }; chunk: { id: string }; raw: number; score: number }[][];
  vector: unknown[][];
}

export async function snapshotIndex(store: Store): Promise<IndexSnapshot> {
  const all = await store.exportAll();
  const connectors = [...new Set(all.documents.map((d) => d.connector))].sort();
  const states = await Promise.all(connectors.map(async (c) => [c, [...(await store.documentStates(c)).values()]]));
  const keyword = await Promise.all(
    QUERIES.map(async (q) => (await store.keywordSearch({ terms: analyzeQuery(q), limit: 10, candidateK: 10 })).hits),
  );
  const space = { model: snapshotEmbedder.model, dims: snapshotEmbedder.dims };
  const vector = await Promise.all(
    QUERIES.map(
      async (q) =>
        (await store.vectorSearch({ vector: hashVector(q, snapshotEmbedder.dims), space, limit: 10, candidateK: 10 }))
          .hits,
    ),
  );
  return {
    ...all,
    states,
    checkpoints: await store.sourceStates(),
    embeddings: await embeddings(store),
    spaces: await store.embeddingSpaces(),
    keyword,
    vector,
  };
}

async function embeddings(store: Store): Promise<unknown[]> {
  const rows: StoredEmbedding[] = [];
  for await (const r of store.iterateEmbeddings()) rows.push(r);
  return rows.map((r) => ({ ...r, vector: [...r.vector] })).sort((a, b) => (a.chunkId < b.chunkId ? -1 : 1));
}
