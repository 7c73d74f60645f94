// The search filter as one SQL condition over `documents d`, shared by keyword (FTS5 and postings) and vector candidate
// retrieval so all apply it inside the query, before the cut (ADR 0213). Source, since and until are plain SQL; the
// document-level fields (path, lang, type, tags, meta, a token's scope: ADR 0225) call kbctx_facets, an SQL function
// over core's reference predicate (core/search/document-filter.ts).
import type { SourceFilter } from '../../core/api/plugin.ts';
import type { DatabaseSync } from 'node:sqlite';
import { compileFacets, hasFacets, sourcesOf, type FacetPredicate } from '../../core/api/algorithms.ts';

export { isFiltering } from '../../core/api/algorithms.ts';

export interface FilterSql {
  /** `AND …` conditions (empty when the filter restricts nothing). */
  sql: string;
  params: Record<string, string>;
}

export function filterSql(filter: SourceFilter | undefined): FilterSql {
  const parts: string[] = [];
  const params: Record<string, string> = {};
  const sources = sourcesOf(filter);
  if (sources !== undefined) {
    const any = sources.map((source, i) => {
      params[`f_source${i}`] = source;
      params[`f_type_prefix${i}`] = `${source.replace(/[%_]/g, '')}:%`;
      return `d.source = :f_source${i} OR d.connector = :f_source${i} OR d.connector LIKE :f_type_prefix${i}`;
    });
    parts.push(`(${any.join(' OR ')})`);
  }
  // julianday compares instants whatever the stored precision or offset (`…Z`, `….000Z`, `+02:00`).
  if (filter?.since !== undefined) {
    parts.push('julianday(d.updated_at) >= julianday(:f_since)');
    params['f_since'] = filter.since;
  }
  if (filter?.until !== undefined) {
    parts.push('julianday(d.updated_at) < julianday(:f_until)');
    params['f_until'] = filter.until;
  }
  if (filter !== undefined && hasFacets(filter)) {
    parts.push(
      `${FACETS_FUNCTION}(:f_facets, d.connector, d.source_id, d.source_url, d.content_type, d.metadata_json)`,
    );
    params['f_facets'] = facetsKey(filter);
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
}

const FACETS_FUNCTION = 'kbctx_facets';

/**
 * Registers kbctx_facets(spec, connector, source_id, source_url, content_type, metadata_json) → 1 or 0 on the
 * connection.
 */
export function registerFilterFunctions(db: DatabaseSync): void {
  const compiled = new Map<string, FacetPredicate>();
  db.function(
    FACETS_FUNCTION,
    { deterministic: true, directOnly: true },
    (spec, connector, sourceId, sourceUrl, contentType, metadataJson) => {
      const key = String(spec);
      let predicate = compiled.get(key);
      if (!predicate) {
        predicate = compileFacets(parseFacetsKey(key));
        if (compiled.size >= 64) compiled.clear();
        compiled.set(key, predicate);
      }
      let metadata: Record<string, unknown> | undefined;
      return predicate({
        connector: String(connector),
        sourceId: String(sourceId),
        sourceUrl: sourceUrl === null ? null : String(sourceUrl),
        contentType: String(contentType),
        metadata: () => (metadata ??= parseMetadata(metadataJson)),
      })
        ? 1
        : 0;
    },
  );
}

/** The document-level fields as canonical JSON: kbctx_facets' first argument (and its compiled predicates' key). */
export function facetsKey(filter: SourceFilter): string {
  const { path, lang, type, tags, tagsAll, meta, scope } = filter;
  const sorted = (m: Readonly<Record<string, unknown>> | undefined): unknown =>
    m === undefined
      ? null
      : Object.keys(m)
          .sort()
          .map((k) => [k, m[k]]);
  const scopeKey = scope === undefined ? null : [scope.sources ?? null, scope.paths ?? null, sorted(scope.meta)];
  return JSON.stringify([
    path ?? null,
    lang ?? null,
    type ?? null,
    tags ?? null,
    tagsAll ?? null,
    meta ?? null,
    scopeKey,
  ]);
}

/** Reads facetsKey's JSON back into the document-level fields. */
export function parseFacetsKey(key: string): SourceFilter {
  const [path, lang, type, tags, tagsAll, meta, scope] = JSON.parse(key) as (unknown[] | null)[];
  const opt = <T>(v: unknown): T | undefined => (v === null || v === undefined ? undefined : (v as T));
  const [sources, paths, pairs] = (scope ?? []) as [string[] | null, string[] | null, [string, string][] | null];
  return {
    path: opt(path),
    lang: opt(lang),
    type: opt(type),
    tags: opt(tags),
    tagsAll: opt(tagsAll),
    meta: opt(meta),
    scope:
      scope === null || scope === undefined
        ? undefined
        : { sources: opt(sources), paths: opt(paths), meta: pairs === null ? undefined : Object.fromEntries(pairs) },
  };
}

function parseMetadata(json: unknown): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(String(json));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
