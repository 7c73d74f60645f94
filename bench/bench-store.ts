// What bench:stores, bench:scale and bench:lance-keyword share: the index file of each store kind, opening it,
// SciFact replicated into it and its train queries, its size on disk (every file the store keeps beside it), and
// the deterministic random 384-dim unit vector a chunk gets.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { toDocument } from '../core/app/sync.ts';
import type { EmbeddingSpace, Store } from '../core/store/store.ts';
import { loadQueries, readJsonl, SCIFACT_DIR } from '../test/eval/scifact.ts';
import { toChunks } from '../test/helpers/chunks.ts';
import { analyzeQuery } from '../core/search/analyze-query.ts';
import { openLanceStore } from '../plugins/store-lancedb/lance-store.ts';
import { openSqliteStore } from '../plugins/store-sqlite/sqlite-store.ts';

export type StoreKind = 'sqlite' | 'lancedb';
export const STORE_KINDS: readonly StoreKind[] = ['sqlite', 'lancedb'];
export const SPACE: EmbeddingSpace = { model: 'bench:random', dims: 384 };

/** The index's path in `dir` (a file for SQLite, a folder for LanceDB). */
export const indexFile = (kind: StoreKind, dir: string): string =>
  path.join(dir, kind === 'lancedb' ? 'index.lance' : 'index.sqlite');

export const openBenchStore = (kind: StoreKind, file: string): Promise<Store> =>
  kind === 'lancedb' ? openLanceStore(file) : Promise.resolve(openSqliteStore(file));

/** BENCH_STORES (comma-separated, default both), checked. */
export function storeKinds(env: string | undefined): StoreKind[] {
  const kinds = (env ?? STORE_KINDS.join(',')).split(',').map((k) => k.trim());
  const bad = kinds.filter((k) => !STORE_KINDS.includes(k as StoreKind));
  if (bad.length > 0)
    throw new Error(`BENCH_STORES: unknown store ${bad.join(', ')} (known: ${STORE_KINDS.join(', ')})`);
  return kinds as StoreKind[];
}

/**
 * SciFact's corpus replicated to `size` documents (`<id>-r<round>.md`), written in bulk mode as sync writes them
 * (700-token chunks, 80 overlapping), then compacted as a sync ends.
 */
export async function writeSciFact(store: Store, size: number): Promise<void> {
  const corpus = readJsonl<{ _id: string; title: string; text: string }>(path.join(SCIFACT_DIR, 'corpus.jsonl'));
  await store.beginBulk();
  for (let i = 0; i < size; i++) {
    const d = corpus[i % corpus.length]!;
    const sourceId = `${d._id}-r${Math.floor(i / corpus.length)}.md`;
    const doc = toDocument(
      { sourceId, title: d.title, body: `# ${d.title}\n\n${d.text}\n` },
      `scifact:${sourceId}`,
      'filesystem:scifact',
      'filesystem:scifact',
    );
    await store.upsertDocument(doc, toChunks(doc, { maxTokens: 700, overlapTokens: 80 }), null);
  }
  await store.endBulk();
  await store.compact();
}

/** SciFact's 809 train queries, analysed. */
export const sciFactQueries = (): ReturnType<typeof analyzeQuery>[] => loadQueries().map((q) => analyzeQuery(q.text));

function folderBytes(p: string): number {
  const s = statSync(p, { throwIfNoEntry: false });
  if (!s) return 0;
  if (s.isFile()) return s.size;
  return readdirSync(p, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(path.join(e.parentPath, e.name)).size, 0);
}

/** Bytes of the index and the files the store keeps beside it (WAL, postings, vectors). */
export const indexBytes = (file: string): number =>
  ['', '-wal', '.keyword', '.vectors'].reduce((sum, suffix) => sum + folderBytes(`${file}${suffix}`), 0);

/** A deterministic unit vector of SPACE's dimensions (xorshift from `seed`). */
export function randomVector(seed: number): Float32Array {
  const v = new Float32Array(SPACE.dims);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < v.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    v[i] = (x >>> 0) / 0xffffffff - 0.5;
  }
  const norm = Math.hypot(...v);
  return v.map((a) => a / norm);
}

/** Gives every chunk without a vector in SPACE its random vector (pages of 2,000, streamed); returns how many. */
export async function writeRandomEmbeddings(store: Store): Promise<number> {
  let written = 0;
  for (let after = 0; ; ) {
    const page = await store.pendingEmbeddings(SPACE, after, 2000);
    if (page.length === 0) return written;
    written += await store.writeEmbeddings(
      SPACE,
      page.map((p) => ({ rowid: p.rowid, contentHash: p.contentHash, vector: randomVector(p.rowid % 1_000_003) })),
    );
    after = page.at(-1)!.rowid;
  }
}
