import type { SourceFilter } from '../../core/api/plugin.ts';
// The search filter (source label or type, updated since) as one SQL condition over `documents d`,
// shared by keyword and vector candidate retrieval so both apply it inside the query, before the cut.

export interface FilterSql {
  /** `AND …` conditions (empty when the filter restricts nothing). */
  sql: string;
  params: Record<string, string>;
}

export function filterSql(filter: SourceFilter | undefined): FilterSql {
  const parts: string[] = [];
  const params: Record<string, string> = {};
  if (filter?.source !== undefined) {
    parts.push('(d.source = :f_source OR d.connector = :f_source OR d.connector LIKE :f_type_prefix)');
    params['f_source'] = filter.source;
    params['f_type_prefix'] = `${filter.source.replace(/[%_]/g, '')}:%`;
  }
  if (filter?.since !== undefined) {
    // julianday compares instants whatever the stored precision or offset (`…Z`, `….000Z`, `+02:00`).
    parts.push('julianday(d.updated_at) >= julianday(:f_since)');
    params['f_since'] = filter.since;
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
}

/** True when the filter restricts anything. */
export function isFiltering(filter: SourceFilter | undefined): filter is SourceFilter {
  return filter?.source !== undefined || filter?.since !== undefined;
}
