// The search filter (SourceFilter) as one SQL condition over `documents d`, used by the FTS5 query and,
// as a per-document allow set, by the postings engine: a new filter field is one condition here.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SourceFilter } from '../store.ts';

export const DOCUMENT_FILTER_SQL = '(d.source = :source OR d.connector = :source OR d.connector LIKE :type_prefix)';

export function documentFilterParams(filter: SourceFilter): Record<string, string | null> {
  return { source: filter.source, type_prefix: `${filter.source.replace(/[%_]/g, '')}:%` };
}

/** Allow predicates by document rowid, built with one query per filter and index generation. */
export class AllowedDocuments {
  private readonly select: StatementSync;
  private readonly cache = new Map<string, { generation: string; bits: Uint8Array }>();

  constructor(db: DatabaseSync) {
    this.select = db.prepare(`SELECT d.rowid AS r FROM documents d WHERE ${DOCUMENT_FILTER_SQL}`);
  }

  predicate(filter: SourceFilter, generation: string): (document: number) => boolean {
    const key = JSON.stringify(documentFilterParams(filter));
    let held = this.cache.get(key);
    if (held?.generation !== generation) {
      const rowids = (this.select.all(documentFilterParams(filter)) as { r: number }[]).map((row) => Number(row.r));
      const bits = new Uint8Array(rowids.reduce((m, r) => Math.max(m, r), 0) + 1);
      for (const r of rowids) bits[r] = 1;
      if (this.cache.size >= 16) this.cache.clear();
      held = { generation, bits };
      this.cache.set(key, held);
    }
    const bits = held.bits;
    return (document) => bits[document] === 1;
  }
}
