// Test data for the store contract suite: documents with known chunks, unit vectors, and the
// fresh-store wrapper every case runs in. Built from core only (ids, query analysis): never from a
// store implementation, so the same data means the same thing to every engine.
import { analyzeQuery, type QueryTerm } from '../../../core/search/analyze-query.ts';
import { chunkIds, documentId, sha256Hex } from '../../../core/domain/ids.ts';
import type { Chunk } from '../../../core/domain/models.ts';
import type { EmbeddingSpace, EmbeddingWrite, Store, StoredDocument } from '../../../core/store/store.ts';

/** How the suite gets stores: each call must return a new, empty one. */
export type OpenStore = () => Promise<Store>;

export interface TestDoc {
  doc: StoredDocument;
  chunks: Chunk[];
}

export interface DocOptions {
  /** Defaults to the connector label. */
  source?: string;
  title?: string;
  sourceUrl?: string | null;
  updatedAt?: string;
  contentType?: string;
  metadata?: Record<string, unknown>;
}

/** A document of `connector` whose chunks are exactly `texts` (ids derived as the app derives them). */
export function makeDoc(
  connector: string,
  sourceId: string,
  texts: readonly string[],
  options: DocOptions = {},
): TestDoc {
  const id = documentId(connector, sourceId);
  const title = options.title ?? sourceId;
  const body = texts.join('\n\n');
  const sourceUrl = options.sourceUrl === undefined ? `https://example.test/${sourceId}` : options.sourceUrl;
  const contentType = options.contentType ?? 'text/markdown';
  const metadata = options.metadata ?? {};
  const doc: StoredDocument = {
    id,
    source: options.source ?? connector,
    connector,
    sourceId,
    sourceUrl,
    title,
    body,
    contentType,
    metadata,
    updatedAt: options.updatedAt ?? '2026-01-15T10:00:00.000Z',
    contentHash: sha256Hex(JSON.stringify([title, body, sourceUrl, contentType, metadata])),
  };
  const ids = chunkIds(id, texts);
  const chunks = texts.map((text, i) => ({
    id: ids[i]!,
    documentId: id,
    chunkIndex: i,
    text,
    contentHash: sha256Hex(text),
    lineStart: null,
    lineEnd: null,
    symbol: null,
    lang: null,
  }));
  return { doc, chunks };
}

/** Upserts each document (fingerprint `fp:<sourceId>`) in order. */
export async function putAll(store: Store, docs: readonly TestDoc[]): Promise<void> {
  for (const d of docs) await store.upsertDocument(d.doc, d.chunks, `fp:${d.doc.sourceId}`);
}

/** `values` scaled to unit length. */
export function unit(values: readonly number[]): Float32Array {
  const v = Float32Array.from(values);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** The cosine of two unit vectors, in float32 as stores compute it. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** A seeded generator of numbers in [-0.5, 0.5) (a linear congruential one): the same seed, the same vectors. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  };
}

/**
 * The exact answer a vector search is checked against: the top `k` of `docs` that `keep` lets through, each scored
 * by its best chunk's cosine with `query` (`vectorOf(text)`: the chunk's unit vector), best first, ties by id.
 */
export function exactTopDocuments(
  docs: readonly TestDoc[],
  vectorOf: (text: string) => Float32Array,
  query: Float32Array,
  k: number,
  keep: (d: TestDoc) => boolean = () => true,
): { id: string; score: number }[] {
  return docs
    .filter(keep)
    .map((d) => ({ id: d.doc.id, score: Math.max(...d.chunks.map((c) => cosine(vectorOf(c.text), query))) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, k);
}

export const SPACE: EmbeddingSpace = { model: 'test:contract', dims: 4 };

/**
 * Embeds the given chunks in `space` with the vectors `vectorOf(text)`, through the pending queue
 * as the app does (the store's rowids are opaque). Returns the rows written.
 */
export async function embedChunks(
  store: Store,
  space: EmbeddingSpace,
  vectorOf: (text: string) => Float32Array | null,
): Promise<number> {
  const writes: EmbeddingWrite[] = [];
  for (let after = 0; ; ) {
    const page = await store.pendingEmbeddings(space, after, 100);
    if (page.length === 0) break;
    for (const p of page) {
      const vector = vectorOf(p.text);
      if (vector) writes.push({ rowid: p.rowid, contentHash: p.contentHash, vector });
    }
    after = page.at(-1)!.rowid;
  }
  return store.writeEmbeddings(space, writes);
}

/**
 * Writes `docs` in one bulk group as a sync does (then `compact()`, as a sync ends, when `compact`), embeds every
 * chunk with `vectorOf(text)` and refreshes the space's vector index; returns what the refresh built.
 */
export async function writeIndexed(
  store: Store,
  docs: readonly TestDoc[],
  space: EmbeddingSpace,
  vectorOf: (text: string) => Float32Array | null,
  options: { compact?: boolean } = {},
): Promise<string> {
  await store.beginBulk();
  await putAll(store, docs);
  await store.endBulk();
  if (options.compact) await store.compact();
  await embedChunks(store, space, vectorOf);
  return (await store.refreshVectorIndex(space)).index;
}

export function terms(query: string): QueryTerm[] {
  return analyzeQuery(query);
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Runs `fn` on a fresh store from `open`, closing it afterwards whatever happens. */
export async function withStore(open: OpenStore, fn: (store: Store) => Promise<void>): Promise<void> {
  const store = await open();
  try {
    await fn(store);
  } finally {
    await store.close();
  }
}

/** Sorts by a string key (ids), for comparisons where the contract leaves the order open. */
export function byKey<T>(key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}
