// What `kbctx export` and migrations read from the LanceDB table (ADR 0233): documents with their chunks
// and stored embeddings, in pages of EXPORT_PAGE read from Lance (never the whole table in memory). The
// store (lance-store.ts) passes the ids to read, from its model at the moment the export starts.
// Must not write the table.
import type { Table } from '@lancedb/lancedb';
import type { Chunk, StoredDocument, StoredEmbedding } from '../../core/api/plugin.ts';
import { compare } from './model-queries.ts';
import { COLUMNS, embKey, plainRows, sqlList, toChunk, toDocument, vectorColumn } from './rows.ts';

const EXPORT_PAGE = 500;

/** Rows matching `where`, every column but the vectors. */
export async function rowsWhere(table: Table, where: string): Promise<Record<string, unknown>[]> {
  return plainRows(
    await table
      .query()
      .where(where)
      .select([...COLUMNS])
      .toArrow(),
    COLUMNS,
  );
}

/** The ids of the documents `known` holds, by source, then source id (read from the doc rows). */
export async function exportOrder(table: Table, known: (id: string) => boolean): Promise<string[]> {
  const columns = ['doc_id', 'source', 'source_id'];
  return plainRows(await table.query().where("kind = 'doc'").select(columns).toArrow(), columns)
    .filter((r) => known(r['doc_id'] as string))
    .sort(
      (a, b) =>
        compare(a['source'] as string, b['source'] as string) ||
        compare(a['source_id'] as string, b['source_id'] as string),
    )
    .map((r) => r['doc_id'] as string);
}

/**
 * Documents of `ids` in that order with their chunks, EXPORT_PAGE documents per query: a document and its
 * chunks come from one query, so from one table version, whatever another process commits meanwhile.
 */
export async function* documentsWithChunks(
  table: Table,
  ids: readonly string[],
): AsyncGenerator<{ document: StoredDocument; chunks: Chunk[] }> {
  for (let i = 0; i < ids.length; i += EXPORT_PAGE) {
    const page = ids.slice(i, i + EXPORT_PAGE);
    const found = new Map<string, { document?: StoredDocument; chunks: Chunk[] }>();
    const entry = (id: string) => found.get(id) ?? found.set(id, { chunks: [] }).get(id)!;
    for (const r of await rowsWhere(table, `kind IN ('doc', 'chunk') AND doc_id IN ${sqlList(page)}`)) {
      const id = r['doc_id'] as string;
      if (r['kind'] === 'doc') entry(id).document = toDocument(r);
      else entry(id).chunks.push(toChunk(r).chunk);
    }
    for (const id of page) {
      const d = found.get(id);
      if (d?.document) yield { document: d.document, chunks: d.chunks.sort((a, b) => a.chunkIndex - b.chunkIndex) };
    }
  }
}

/** The stored embeddings of the chunks `ids` (in that order), EXPORT_PAGE per query; `columns`: the vector columns. */
export async function* embeddingsOf(
  table: Table,
  ids: readonly string[],
  columns: readonly string[],
): AsyncGenerator<StoredEmbedding> {
  for (let i = 0; i < ids.length; i += EXPORT_PAGE) {
    const page = ids.slice(i, i + EXPORT_PAGE);
    const rows = await table
      .query()
      .where(`row_key IN ${sqlList(page.map(embKey))}`)
      .select(['row_key', 'model', 'dims', 'content_hash', ...columns])
      .toArrow();
    const found = new Map<string, StoredEmbedding>();
    for (let r = 0; r < rows.numRows; r++) {
      const dims = rows.getChild('dims')?.get(r) as number;
      const vector = (rows.getChild(vectorColumn(dims))?.get(r) as { toArray(): Float32Array } | null)?.toArray();
      if (!vector) continue;
      const chunkId = (rows.getChild('row_key')?.get(r) as string).slice(2);
      found.set(chunkId, {
        chunkId,
        model: rows.getChild('model')?.get(r) as string,
        dims,
        contentHash: rows.getChild('content_hash')?.get(r) as string,
        vector: Float32Array.from(vector),
      });
    }
    for (const id of page) {
      const e = found.get(id);
      if (e) yield e;
    }
  }
}
