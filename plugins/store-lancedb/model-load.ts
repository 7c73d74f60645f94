// Loads the LanceDB store's in-memory model (model.ts) at one table version (ADR 0233): doc rows without their
// head (its signature is set when first read, ADR 0243), body, content type or metadata; chunk rows without their
// text or terms (the keyword postings are a table of their own: postings-table.ts); checkpoints and runs (not emb
// rows: embedding-state.ts asks Lance, ADR 0243). One query per kind of row with only the columns that kind needs,
// on a handle checked out at the version (readers see whole commits), read column by column. Must not write.
import type { Connection, Table } from '@lancedb/lancedb';
import { Model, type ChunkMeta } from './model.ts';
import { TABLE, toChunkMeta, toSyncRun } from './rows.ts';

const DOC = ['doc_id', 'seq', 'connector', 'content_hash', 'fingerprint'];
const CHUNK = ['row_key', 'doc_id', 'seq', 'chunk_index', 'content_hash', 'metadata'];
const OTHER = ['kind', 'connector', 'checkpoint', 'last_sync_at', 'updated_at', 'metadata'];

/** The rows of one kind as columns: `at(i)` is row i as a plain object of the asked columns. */
async function rowsOf(
  table: Table,
  where: string,
  columns: readonly string[],
): Promise<{ n: number; col: (c: string) => unknown[]; at: (i: number) => Record<string, unknown> }> {
  const read = await table
    .query()
    .where(where)
    .select([...columns])
    .toArrow();
  // Whole columns by their iterators: get(i) looks the batch up for every cell (slow over many batches).
  const cols = new Map(columns.map((c) => [c, Array.from<unknown>(read.getChild(c) ?? [])]));
  const col = (c: string): unknown[] => cols.get(c) ?? [];
  const at = (i: number): Record<string, unknown> =>
    Object.fromEntries(columns.map((c) => [c, cols.get(c)?.[i] ?? null]));
  return { n: read.numRows, col, at };
}

/** The model of the table at `version` (the caller's handle is left at the latest version). */
export async function loadModel(db: Connection, version: number): Promise<Model> {
  const table = await db.openTable(TABLE);
  try {
    await table.checkout(version);
    return await modelOf(table, new Set((await table.schema()).fields.map((f) => f.name)));
  } finally {
    table.close();
  }
}

async function modelOf(table: Table, names: ReadonlySet<string>): Promise<Model> {
  const has = (columns: readonly string[]): string[] => columns.filter((c) => names.has(c));
  const model = new Model();
  const chunksOf = new Map<string, { chunk: ChunkMeta; seq: number }[]>();
  // Documents with chunks written before chunks had lines: an empty content hash makes the next sync rewrite them.
  const unplaced = new Set<string>();
  // The three reads run at once: Lance reads the doc rows while the chunk rows are turned into entries.
  const reads = [
    rowsOf(table, "kind = 'chunk'", has(CHUNK)),
    rowsOf(table, "kind = 'doc'", has(DOC)),
    rowsOf(table, "kind IN ('state', 'run')", has(OTHER)),
  ] as const;
  for (const read of reads) read.catch(() => undefined);
  const chunks = await reads[0];
  const [keys, chunkDocs, chunkSeqs, indexes, chunkHashes, metas] = CHUNK.map((c) => chunks.col(c));
  for (let i = 0; i < chunks.n; i++) {
    const documentId = chunkDocs![i] as string;
    const { chunk, placed } = toChunkMeta(
      keys![i] as string,
      documentId,
      indexes![i] as number,
      chunkHashes![i] as string,
      metas![i],
    );
    if (!placed) unplaced.add(documentId);
    const list = chunksOf.get(documentId) ?? chunksOf.set(documentId, []).get(documentId)!;
    list.push({ chunk, seq: chunkSeqs![i] as number });
  }
  // Heads are not read: their signatures are set when first read (row-reader.ts) or by a sync's diff (ADR 0243).
  const docs = await reads[1];
  const [ids, docSeqs, connectors, hashes, fingerprints] = DOC.map((c) => docs.col(c));
  const order = Array.from({ length: docs.n }, (_, i) => i).sort(
    (a, b) => (docSeqs![a] as number) - (docSeqs![b] as number),
  );
  for (const i of order) {
    const id = ids![i] as string;
    model.putDocument(
      {
        id,
        connector: connectors![i] as string,
        headSig: null,
        fingerprint: unplaced.has(id) ? null : ((fingerprints![i] as string | null | undefined) ?? null),
        contentHash: unplaced.has(id) ? '' : ((hashes![i] as string | undefined) ?? ''),
        seq: docSeqs![i] as number,
      },
      (chunksOf.get(id) ?? []).sort((a, b) => a.chunk.chunkIndex - b.chunk.chunkIndex),
    );
  }
  const other = await reads[2];
  for (let i = 0; i < other.n; i++) {
    const r = other.at(i);
    if (r['kind'] === 'state')
      model.states.set(r['connector'] as string, {
        checkpoint: (r['checkpoint'] as string | null) ?? null,
        lastSyncAt: (r['last_sync_at'] as string | null) ?? null,
      });
    else model.runs.set(r['connector'] as string, toSyncRun(r));
  }
  return model;
}
