// Search filters (ADR 0213) for the LanceDB store (ADR 0233): the documents a filter lets through, found
// by one scan of the doc rows' filter columns in Lance (core's compileDocumentFilter on each) and cached
// per filter and table version, so the model holds neither content types nor metadata. Documents of this
// process's bulk group not yet committed are judged from their rows as written. Must not write the table.
import type { Table } from '@lancedb/lancedb';
import type { SourceFilter } from '../../core/api/plugin.ts';
import { compileDocumentFilter, isFiltering } from '../../core/api/algorithms.ts';
import { parseMetadata, plainRows } from './rows.ts';

/** Filters remembered (each a set of document ids); the oldest is dropped beyond this. */
const CACHE_SIZE = 16;
const FILTER_COLUMNS = ['doc_id', 'source', 'connector', 'updated_at', 'source_id', 'source_url', 'content_type'];

export class DocumentFilters {
  private readonly cache = new Map<string, ReadonlySet<string>>();
  private version = -1;

  /**
   * The ids of the documents `filter` lets through at table version `version`; undefined when it restricts
   * nothing. `uncommitted`: doc rows written but not committed (they are judged too, and nothing is cached).
   */
  async allowed(
    table: Table,
    version: number,
    filter: SourceFilter | undefined,
    uncommitted: readonly Record<string, unknown>[],
  ): Promise<ReadonlySet<string> | undefined> {
    if (!isFiltering(filter)) return undefined;
    if (version !== this.version) {
      this.cache.clear();
      this.version = version;
    }
    const key = JSON.stringify(filter);
    const passes = compileDocumentFilter(filter);
    let committed = this.cache.get(key);
    if (!committed) {
      // Metadata is read only when the filter needs it (tags, meta, scope).
      const columns = needsMetadata(filter) ? [...FILTER_COLUMNS, 'metadata'] : FILTER_COLUMNS;
      const rows = plainRows(await table.query().where("kind = 'doc'").select(columns).toArrow(), columns);
      committed = new Set(rows.filter((r) => passes(facetsOf(r))).map((r) => r['doc_id'] as string));
      if (uncommitted.length === 0) {
        this.cache.set(key, committed);
        if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
      }
    }
    if (uncommitted.length === 0) return committed;
    const out = new Set(committed);
    for (const r of uncommitted) {
      const id = r['doc_id'] as string;
      if (passes(facetsOf(r))) out.add(id);
      else out.delete(id);
    }
    return out;
  }
}

function needsMetadata(filter: SourceFilter | undefined): boolean {
  return filter?.tags !== undefined || filter?.tagsAll !== undefined || filter?.meta !== undefined || !!filter?.scope;
}

function facetsOf(r: Record<string, unknown>): Parameters<ReturnType<typeof compileDocumentFilter>>[0] {
  return {
    source: r['source'] as string,
    connector: r['connector'] as string,
    updatedAt: r['updated_at'] as string,
    sourceId: r['source_id'] as string,
    sourceUrl: (r['source_url'] as string | null) ?? null,
    contentType: r['content_type'] as string,
    metadata: () => parseMetadata(r['metadata']),
  };
}
