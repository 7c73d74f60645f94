// Loads the LanceDB store's in-memory model (model.ts) from the table's latest version (ADR 0233): doc
// rows without body, content type or metadata; chunk rows without their text (their stored `terms`
// feed the keyword postings, ADR 0228); emb rows without vectors; checkpoints and runs. Only chunks
// whose terms are missing or of another analysis (a table of the first layout) have their text read,
// to be analysed here. Must not write the table.
import type { Table } from '@lancedb/lancedb';
import { decodeRowTerms, type RowTerms } from './keyword-index.ts';
import { chunkMeta, chunkTerms, Model, type ChunkMeta } from './model.ts';
import { chunkKey, plainRows, sqlList, toChunk, toHead, toSyncRun } from './rows.ts';

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
  'terms',
];
const PAGE = 2000;

interface LoadedChunk {
  chunk: ChunkMeta;
  seq: number;
  terms: RowTerms | undefined;
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
  const unanalysed: LoadedChunk[] = [];
  const docs: Record<string, unknown>[] = [];
  for (const r of await rowsOf(null, LOAD_COLUMNS)) {
    switch (r['kind']) {
      case 'doc':
        docs.push(r);
        break;
      case 'chunk': {
        const documentId = r['doc_id'] as string;
        const { chunk, placed } = toChunk(r);
        const terms = decodeRowTerms((r['terms'] as string | null) ?? null);
        const loaded = { chunk: chunkMeta(chunk), seq: r['seq'] as number, terms };
        if (!terms) unanalysed.push(loaded);
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
  const titles = new Map(docs.map((r) => [r['doc_id'] as string, r['title'] as string]));
  for (let i = 0; i < unanalysed.length; i += PAGE) {
    const page = unanalysed.slice(i, i + PAGE);
    const texts = new Map(
      (await rowsOf(`row_key IN ${sqlList(page.map((c) => chunkKey(c.chunk.id)))}`, ['row_key', 'text'])).map((r) => [
        (r['row_key'] as string).slice(2),
        r['text'] as string,
      ]),
    );
    for (const c of page)
      c.terms = chunkTerms(titles.get(c.chunk.documentId) ?? '', { ...c.chunk, text: texts.get(c.chunk.id) ?? '' });
  }
  for (const r of docs) {
    const id = r['doc_id'] as string;
    const chunks = (chunksOf.get(id) ?? []).sort((a, b) => a.chunk.chunkIndex - b.chunk.chunkIndex);
    model.putDocument(
      {
        head: toHead(r),
        fingerprint: unplaced.has(id) ? null : ((r['fingerprint'] as string | null) ?? null),
        contentHash: unplaced.has(id) ? '' : (r['content_hash'] as string),
        seq: r['seq'] as number,
      },
      chunks.map((c) => ({ chunk: c.chunk, seq: c.seq, terms: c.terms! })),
    );
  }
  return model;
}
