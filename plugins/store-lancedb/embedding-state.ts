// Which chunks have a current vector, asked of Lance when a caller wants it (ADR 0243), not kept per chunk in
// the model: the emb rows' small columns (row key, model, dims, content hash, document) read at call time, and
// counts per space cached by the store per table version. An emb row is current when its chunk is in the model
// with the same content hash. Must not write the table.
import type { Table } from '@lancedb/lancedb';
import type { EmbeddingSpaceCount, PendingChunk, SourceStats } from '../../core/api/plugin.ts';
import type { ChunkMeta, Model } from './model.ts';
import { compare, type ReadRows } from './model-queries.ts';
import { plainRows, sqlString } from './rows.ts';

export type SpaceSelector = { model: string; dims: number | null };

/** The emb rows of `space` (every model: null) as chunk id → content hash. */
async function embHashes(table: Table, space: SpaceSelector | null): Promise<Map<string, string>> {
  let where = "kind = 'emb'";
  if (space) where += ` AND model = ${sqlString(space.model)}`;
  if (space?.dims != null) where += ` AND dims = ${Math.trunc(space.dims)}`;
  const read = await table.query().where(where).select(['row_key', 'content_hash']).toArrow();
  const keys = Array.from<string>(read.getChild('row_key') ?? []);
  const hashes = Array.from<string>(read.getChild('content_hash') ?? []);
  return new Map(keys.map((k, i) => [k.slice(2), hashes[i]!]));
}

/** The model's chunks, ascending by seq, that lack a current vector of `space`: after `afterRowid`, `limit` of them. */
export async function pendingEmbeddings(
  table: Table,
  model: Model,
  space: SpaceSelector,
  afterRowid: number,
  limit: number,
  readRows: ReadRows,
): Promise<PendingChunk[]> {
  const seqs = model.seqs();
  const current = await embHashes(table, space);
  const pending: { seq: number; chunk: ChunkMeta }[] = [];
  for (let i = upperBound(seqs, afterRowid); i < seqs.length && pending.length < limit; i++) {
    const entry = model.chunkBySeq(seqs[i]!)!;
    if (current.get(entry.chunk.id) !== entry.chunk.contentHash) pending.push({ seq: entry.seq, chunk: entry.chunk });
  }
  const { chunks } = await readRows(pending.map((p) => p.chunk));
  return pending.flatMap(({ seq, chunk }) => {
    const text = chunks.get(chunk.id)?.text;
    return text === undefined ? [] : [{ rowid: seq, text, contentHash: chunk.contentHash }];
  });
}

export async function countPendingEmbeddings(table: Table, model: Model, space: SpaceSelector): Promise<number> {
  let n = model.chunks.size;
  for (const [id, hash] of await embHashes(table, space)) if (model.chunks.get(id)?.chunk.contentHash === hash) n--;
  return n;
}

/** The chunk ids that have an emb row (of any space), ascending. */
export async function embeddedChunkIds(table: Table): Promise<string[]> {
  return [...(await embHashes(table, null)).keys()].sort(compare);
}

/** Vectors per space, most first (one scan of the emb rows' model and dims). */
export async function embeddingSpaces(table: Table): Promise<EmbeddingSpaceCount[]> {
  const rows = plainRows(await table.query().where("kind = 'emb'").select(['model', 'dims']).toArrow(), [
    'model',
    'dims',
  ]);
  const counts = new Map<string, EmbeddingSpaceCount>();
  for (const r of rows) {
    const [model, dims] = [r['model'] as string, r['dims'] as number];
    const key = `${dims}:${model}`;
    const c = counts.get(key) ?? counts.set(key, { model, dims, count: 0 }).get(key)!;
    c.count++;
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || compare(a.model, b.model) || a.dims - b.dims);
}

/** Per-connector statistics: documents and chunks from the model, embedded chunks from the emb rows. */
export async function sources(table: Table, model: Model): Promise<SourceStats[]> {
  const stats = new Map<string, SourceStats>();
  const of = (connector: string): SourceStats =>
    stats.get(connector) ??
    stats
      .set(connector, {
        source: connector,
        documentCount: 0,
        chunkCount: 0,
        embeddedCount: 0,
        lastSyncAt: model.states.get(connector)?.lastSyncAt ?? null,
      })
      .get(connector)!;
  for (const d of model.docs.values()) {
    const s = of(d.connector);
    s.documentCount++;
    s.chunkCount += d.chunkIds.length;
  }
  for (const id of (await embHashes(table, null)).keys()) {
    const chunk = model.chunks.get(id);
    const doc = chunk && model.docs.get(chunk.chunk.documentId);
    if (doc) of(doc.connector).embeddedCount++;
  }
  for (const connector of model.states.keys()) of(connector);
  return [...stats.values()].sort((a, b) => compare(a.source, b.source));
}

function upperBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
