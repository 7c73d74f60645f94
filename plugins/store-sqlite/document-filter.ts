// The search filter as a per-document allow set for the postings engine, built from the same SQL
// condition the FTS5 and vector queries use (filter-sql.ts): a new filter field is one condition there.
import type { SourceFilter } from '../../core/api/plugin.ts';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { filterSql } from './filter-sql.ts';

/** Allow predicates by document rowid, built with one query per filter and index generation. */
export class AllowedDocuments {
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly cache = new Map<string, { generation: string; bits: Uint8Array }>();

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  predicate(filter: SourceFilter, generation: string): (document: number) => boolean {
    const where = filterSql(filter);
    const key = JSON.stringify([where.sql, where.params]);
    let held = this.cache.get(key);
    if (held?.generation !== generation) {
      let select = this.statements.get(where.sql);
      if (!select) {
        select = this.db.prepare(`SELECT d.rowid AS r FROM documents d WHERE 1${where.sql}`);
        this.statements.set(where.sql, select);
      }
      const rowids = (select.all(where.params) as { r: number }[]).map((row) => Number(row.r));
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
