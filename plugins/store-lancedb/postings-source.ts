// The main table's documents as postings-table.ts takes them (catchUp, differences): each chunk row's
// stored analysed terms (ADR 0228), or the chunk analysed again when its row has none (first layout).
// Reads only; holds every chunk's terms of the table in memory while it runs (a catch-up, not a query).
import type { Table } from '@lancedb/lancedb';
import { chunkTerms } from './model.ts';
import { decodeRowTerms, type RowTerms } from './keyword-index.ts';
import type { PostingsDoc } from './postings-changes.ts';
import { plainRows, toChunk } from './rows.ts';

const COLUMNS = ['row_key', 'doc_id', 'chunk_index', 'text', 'metadata', 'terms'];

/** Every document with chunks, its chunks in chunk order. */
export async function* chunkDocuments(table: Table): AsyncGenerator<PostingsDoc> {
  const names = new Set((await table.schema()).fields.map((f) => f.name));
  const columns = COLUMNS.filter((c) => names.has(c));
  const rows = plainRows(await table.query().where(`kind = 'chunk'`).select(columns).toArrow(), columns);
  const byDoc = new Map<
    string,
    { index: number; id: string; terms: RowTerms | undefined; row: Record<string, unknown> }[]
  >();
  for (const r of rows) {
    const list = byDoc.get(r['doc_id'] as string) ?? [];
    const terms = decodeRowTerms((r['terms'] as string | null | undefined) ?? null);
    list.push({ index: r['chunk_index'] as number, id: (r['row_key'] as string).slice(2), terms, row: r });
    byDoc.set(r['doc_id'] as string, list);
  }
  const titles = [...byDoc.values()].some((l) => l.some((c) => c.terms === undefined)) ? await docTitles(table) : null;
  for (const [id, list] of byDoc) {
    list.sort((a, b) => a.index - b.index);
    yield {
      id,
      chunks: list.map((c) => ({
        id: c.id,
        terms: c.terms ?? chunkTerms(titles?.get(id) ?? '', toChunk(c.row).chunk),
      })),
    };
  }
}

async function docTitles(table: Table): Promise<Map<string, string>> {
  const rows = await table.query().where(`kind = 'doc'`).select(['doc_id', 'title']).toArray();
  return new Map(rows.map((r) => [r['doc_id'] as string, r['title'] as string]));
}
