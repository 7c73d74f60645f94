// The document columns an emb row carries so that a vector search can send source/since/until to Lance as a
// prefilter (ADR 0246): Lance cannot join the emb rows to their documents' rows, so `source`, `connector` and
// `updated_at` are copied onto them. Written with the vector (lance-store.ts's writeEmbeddings), rewritten in the
// document's own commit when a rewrite keeps a chunk (and its vector) but changes those (restampRows), and filled
// on rows written before them by backfillStamps (refreshVectorIndex: `kbctx embed` and migrate run it).
//
// A row without a stamp (NULL) passes every prefilter: the store checks the filter on the hits too (doc-filter.ts),
// so the prefilter only has to let through a superset of what the filter allows, never less.
import type { Table } from '@lancedb/lancedb';
import type { DocumentHead, SourceFilter } from '../../core/api/plugin.ts';
import { plainRows, restampedEmbRow, sqlList, type EmbRowStamp, type LanceRow } from './rows.ts';
import { prefilterWhere } from './vector-index.ts';

/** The stamp's columns on an emb row; updated_at as `toISOString()` spells it (text order is time order). */
export type EmbStamp = EmbRowStamp;

/**
 * The scalar indexes the prefilter reads through (built with the vector index, vector-index.ts). None on `connector`:
 * a source type is matched with `starts_with(connector, …)`, which Lance 0.31 refuses on a BITMAP ("LIKE prefix
 * queries are not supported for bitmap indexes") and the column is scanned.
 */
export const STAMP_INDEXES = [
  { column: 'source', index: 'bitmap' },
  { column: 'updated_at', index: 'btree' },
] as const;

/** An instant as fixed-width UTC text (years 1000–9999), or null: then the prefilter leaves it to the postfilter. */
export function instantText(value: string): string | null {
  const t = Date.parse(value);
  if (Number.isNaN(t)) return null;
  const text = new Date(t).toISOString();
  return /^\d{4}-/.test(text) && !text.startsWith('0') ? text : null;
}

export const stampOf = (head: Pick<DocumentHead, 'source' | 'connector' | 'updatedAt'>): EmbStamp => ({
  source: head.source,
  connector: head.connector,
  updated_at: instantText(head.updatedAt),
});

/**
 * The `where` on emb rows for a search filter's source/since/until (undefined: none of them). Instants compare as
 * text, so updated_at's BTREE serves since/until; an unparsable bound is left to the postfilter.
 */
export function stampWhere(filter: SourceFilter | undefined): string | undefined {
  const parts: string[] = [];
  const sources = prefilterWhere(filter?.source === undefined ? undefined : { source: filter.source }, {
    source: 'source',
    connector: 'connector',
    updatedAt: 'updated_at',
  });
  if (sources !== undefined) parts.push(`(source IS NULL OR ${sources})`);
  const since = filter?.since === undefined ? null : instantText(filter.since);
  const until = filter?.until === undefined ? null : instantText(filter.until);
  if (since !== null) parts.push(`(updated_at IS NULL OR updated_at >= '${since}')`);
  if (until !== null) parts.push(`(updated_at IS NULL OR updated_at < '${until}')`);
  return parts.length === 0 ? undefined : parts.join(' AND ');
}

/**
 * The emb rows of `stamps`' documents as rows that rewrite only their stamp (no vector column: merge-insert keeps
 * the vectors), for the commit that rewrites the documents; `dropped`: emb rows that commit deletes.
 */
export async function restampRows(
  table: Table,
  stamps: ReadonlyMap<string, EmbStamp>,
  dropped: ReadonlySet<string>,
): Promise<LanceRow[]> {
  if (stamps.size === 0) return [];
  const columns = ['row_key', 'doc_id', 'model', 'dims', 'content_hash'];
  const where = `kind = 'emb' AND doc_id IN ${sqlList([...stamps.keys()])}`;
  const rows = plainRows(await table.query().where(where).select(columns).toArrow(), columns);
  return rows
    .filter((r) => !dropped.has(r['row_key'] as string))
    .map((r) => restampedEmbRow(r, stamps.get(r['doc_id'] as string)!));
}

/**
 * Whether the table has the stamps' `source` index: until refreshVectorIndex stamped the emb rows and indexed them,
 * every row would pass a prefilter (ADR 0246), so the store sends none. Read once per loaded model (by identity).
 */
export class StampIndex {
  private known: { model: object; indexed: boolean } | null = null;

  async indexed(table: Table, model: object): Promise<boolean> {
    if (this.known?.model !== model) {
      const columns = (await table.listIndices()).flatMap((i) => i.columns);
      this.known = { model, indexed: columns.includes('source') };
    }
    return this.known.indexed;
  }

  /** Forgets the answer (the indexes were refreshed). */
  forget(): void {
    this.known = null;
  }
}

/** Rows of emb rows stamped per pass of backfillStamps (one merge-insert each). */
const BACKFILL_PAGE = 50_000;

/**
 * Stamps the emb rows written before stamps existed (or whose stamp a crash left behind), from their documents' rows;
 * `commit` runs each write (the store's: locked, one at a time). Returns how many rows it stamped.
 */
export async function backfillStamps(
  table: Table,
  commit: (write: (t: Table) => Promise<{ version: number }>) => Promise<void>,
): Promise<number> {
  const missing = "kind = 'emb' AND source IS NULL";
  if ((await table.countRows(missing)) === 0) return 0;
  const docColumns = ['doc_id', 'source', 'connector', 'updated_at'];
  const docs = plainRows(await table.query().where("kind = 'doc'").select(docColumns).toArrow(), docColumns);
  const stamps = new Map(
    docs.map((d) => [
      d['doc_id'] as string,
      stampOf({
        source: d['source'] as string,
        connector: d['connector'] as string,
        updatedAt: d['updated_at'] as string,
      }),
    ]),
  );
  const embs = plainRows(await table.query().where(missing).select(['row_key', 'doc_id']).toArrow(), [
    'row_key',
    'doc_id',
  ]);
  // Only the stamp's columns: merge-insert with a subset of the columns leaves the others as they are.
  const updates = embs.flatMap((r) => {
    const stamp = stamps.get(r['doc_id'] as string);
    return stamp ? [{ row_key: r['row_key'] as string, ...stamp }] : [];
  });
  for (let i = 0; i < updates.length; i += BACKFILL_PAGE) {
    const page = updates.slice(i, i + BACKFILL_PAGE);
    await commit((t) => t.mergeInsert('row_key').whenMatchedUpdateAll().execute(page));
  }
  return updates.length;
}
