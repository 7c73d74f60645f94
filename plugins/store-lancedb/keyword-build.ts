// The LanceDB store's keyword postings, built at the first keyword search rather than at open (ADR 0233):
// each chunk's stored terms (ADR 0228) read from the table at the version the model was loaded at (a
// handle checked out there, so another process's later commits are not mixed in); chunks whose terms
// are missing or of another analysis (the first layout) have their text read and are analysed here.
// Must not write the table. Persisted postings read per query (issue 35) replace this.
import type { Connection } from '@lancedb/lancedb';
import { decodeRowTerms, type RowTerms } from './keyword-index.ts';
import { chunkTerms, type Model } from './model.ts';
import { chunkKey, plainRows, sqlList, TABLE } from './rows.ts';

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
      const terms = decodeRowTerms((r['terms'] as string | null | undefined) ?? null);
      if (terms) out.set(id, terms);
      else if (model.chunks.has(id)) unanalysed.push(id);
    }
    for (let i = 0; i < unanalysed.length; i += PAGE) {
      const page = unanalysed.slice(i, i + PAGE);
      const texts = await table
        .query()
        .where(`row_key IN ${sqlList(page.map(chunkKey))}`)
        .select(['row_key', 'text'])
        .toArrow();
      for (let r = 0; r < texts.numRows; r++) {
        const id = (texts.getChild('row_key')?.get(r) as string).slice(2);
        const chunk = model.chunks.get(id)!.chunk;
        const title = model.docs.get(chunk.documentId)?.head.title ?? '';
        out.set(id, chunkTerms(title, { ...chunk, text: texts.getChild('text')?.get(r) as string }));
      }
    }
    return out;
  } finally {
    table.close();
  }
}
