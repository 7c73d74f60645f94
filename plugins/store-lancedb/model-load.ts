// Loads the LanceDB store's in-memory model (model.ts) from the table's latest version (ADR 0233): doc
// rows as a head signature (no body, content type or metadata); chunk rows without their text or terms (the keyword
// postings are built at the first keyword search: keyword-build.ts); emb rows without vectors;
// checkpoints and runs. Must not write the table.
import type { Table } from '@lancedb/lancedb';
import { chunkMeta, Model, type ChunkMeta } from './model.ts';
import { plainRows, toChunk, toHead, toSyncRun } from './rows.ts';
import { headSignature } from './head-signature.ts';

/** Read at load: not the body, text or vectors. One query, so one table version (readers see whole commits). */
const LOAD_COLUMNS = [
  'row_key',
  'kind',
  'doc_id',
  'seq',
  'chunk_index',
  'dims',
  'connector',
  'source',
  'source_id',
  'source_url',
  'title',
  'updated_at',
  'content_hash',
  'fingerprint',
  'metadata',
  'model',
  'checkpoint',
  'last_sync_at',
];
interface LoadedChunk {
  chunk: ChunkMeta;
  seq: number;
}

export async function loadModel(table: Table): Promise<Model> {
  const names = new Set((await table.schema()).fields.map((f) => f.name));
  const rowsOf = async (where: string | null, wanted: readonly string[]): Promise<Record<string, unknown>[]> => {
    const columns = wanted.filter((c) => names.has(c));
    const query = table.query();
    return plainRows(await (where === null ? query : query.where(where)).select(columns).toArrow(), columns);
  };
  const model = new Model();
  const chunksOf = new Map<string, LoadedChunk[]>();
  // Documents with chunks written before chunks had lines: an empty content hash makes the next sync rewrite them.
  const unplaced = new Set<string>();
  const docs: Record<string, unknown>[] = [];
  for (const r of await rowsOf(null, LOAD_COLUMNS)) {
    switch (r['kind']) {
      case 'doc':
        docs.push(r);
        break;
      case 'chunk': {
        const documentId = r['doc_id'] as string;
        const { chunk, placed } = toChunk(r);
        const loaded = { chunk: chunkMeta(chunk), seq: r['seq'] as number };
        if (!placed) unplaced.add(documentId);
        (chunksOf.get(documentId) ?? chunksOf.set(documentId, []).get(documentId)!).push(loaded);
        break;
      }
      case 'emb':
        model.setEmbedding((r['row_key'] as string).slice(2), {
          model: r['model'] as string,
          dims: r['dims'] as number,
          contentHash: r['content_hash'] as string,
        });
        break;
      case 'state':
        model.states.set(r['connector'] as string, {
          checkpoint: (r['checkpoint'] as string | null) ?? null,
          lastSyncAt: (r['last_sync_at'] as string | null) ?? null,
        });
        break;
      case 'run':
        model.runs.set(r['connector'] as string, toSyncRun(r));
        break;
    }
  }
  docs.sort((a, b) => (a['seq'] as number) - (b['seq'] as number));
  for (const r of docs) {
    const id = r['doc_id'] as string;
    const chunks = (chunksOf.get(id) ?? []).sort((a, b) => a.chunk.chunkIndex - b.chunk.chunkIndex);
    model.putDocument(
      {
        id,
        connector: r['connector'] as string,
        headSig: headSignature(toHead(r)),
        fingerprint: unplaced.has(id) ? null : ((r['fingerprint'] as string | null) ?? null),
        contentHash: unplaced.has(id) ? '' : (r['content_hash'] as string),
        seq: r['seq'] as number,
      },
      chunks,
    );
  }
  return model;
}
