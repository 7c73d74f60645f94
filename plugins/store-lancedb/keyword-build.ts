// The LanceDB store's keyword postings, built at the first keyword search rather than at open (ADR 0233):
// each chunk's stored terms (ADR 0228) read from the table at the version the model was loaded at (a
// handle checked out there, so another process's later commits are not mixed in); chunks whose terms
// are missing or of another analysis (the first layout) have their text read and are analysed here.
// Must not write the table. Persisted postings read per query (issue 35) replace this.
import type { Connection } from '@lancedb/lancedb';
import { decodeRowTerms, type RowTerms } from './keyword-index.ts';
import { chunkTerms, type Model } from './model.ts';
import { chunkKey, docKey, plainRows, sqlList, TABLE } from './rows.ts';

const PAGE = 2000;

/** Each chunk's analysed terms at table version `version`, by chunk id. */
export async function readTerms(db: Connection, version: number, model: Model): Promise<Map<string, RowTerms>> {
  const table = await db.openTable(TABLE);
  try {
    await table.checkout(version);
    const hasTerms = (await table.schema()).fields.some((f) => f.name === 'terms');
    const columns = hasTerms ? ['row_key', 'terms'] : ['row_key'];
    const rows = plainRows(await table.query().where("kind = 'chunk'").select(columns).toArrow(), columns);
    const out = new Map<string, RowTerms>();
    const unanalysed: string[] = [];
    for (const r of rows) {
      const id = (r['row_key'] as string).slice(2);
      const stored = (r['terms'] as string | null | undefined) ?? null;
      const terms = decodeRowTerms(stored);
      if (terms) out.set(id, { ...terms, stored: stored! });
      else if (model.chunks.has(id)) unanalysed.push(id);
    }
    for (let i = 0; i < unanalysed.length; i += PAGE) {
      const page = unanalysed.slice(i, i + PAGE);
      const docIds = [...new Set(page.map((id) => model.chunks.get(id)!.chunk.documentId))];
      const where = `row_key IN ${sqlList([...page.map(chunkKey), ...docIds.map(docKey)])}`;
      const read = ['row_key', 'kind', 'title', 'text'];
      const rows = plainRows(await table.query().where(where).select(read).toArrow(), read);
      const titles = new Map(rows.filter((r) => r['kind'] === 'doc').map((r) => [r['row_key'], r['title'] as string]));
      for (const r of rows.filter((r) => r['kind'] === 'chunk')) {
        const chunk = model.chunks.get((r['row_key'] as string).slice(2))!.chunk;
        const title = titles.get(docKey(chunk.documentId)) ?? '';
        out.set(chunk.id, chunkTerms(title, { ...chunk, text: r['text'] as string }));
      }
    }
    return out;
  } finally {
    table.close();
  }
}
