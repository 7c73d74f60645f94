// A token's data scope (core/domain/access-scope.ts) as the filter conjunct every store applies (SourceFilter.scope),
// and as a check on one document (`get`) or one source (`sources`). The one place a scope becomes a predicate's input
// (ADR 0225); the predicate itself is document-filter.ts's. Pure: no I/O.
import type { AccessScope } from '../domain/access-scope.ts';
import type { ScopeFilter, SourceFilter } from '../store/store.ts';
import { compileDocumentFilter, compileScopeSources, type FilterableDocument } from './document-filter.ts';

/** The data part of a scope (sources, paths, meta as text, keys sorted); undefined when it limits nothing. */
export function scopeFilter(scope: AccessScope | undefined): ScopeFilter | undefined {
  if (scope === undefined) return undefined;
  const { sources, paths, meta } = scope;
  const pairs =
    meta === undefined
      ? undefined
      : Object.fromEntries(
          Object.keys(meta)
            .sort()
            .map((k) => [k, String(meta[k])]),
        );
  const out: ScopeFilter = {
    ...(sources !== undefined ? { sources: [...sources] } : {}),
    ...(paths !== undefined ? { paths: [...paths] } : {}),
    ...(pairs !== undefined ? { meta: pairs } : {}),
  };
  return Object.keys(out).length === 0 ? undefined : out;
}

/** `filter` ANDed with the scope: the scope rides along as its own conjunct, so nothing in `filter` can widen it. */
export function scopedFilter(
  filter: SourceFilter | undefined,
  scope: AccessScope | undefined,
): SourceFilter | undefined {
  const conjunct = scopeFilter(scope);
  return conjunct === undefined ? filter : { ...filter, scope: conjunct };
}

/** Whether a stored document exists for the caller (`get`, resources): the search filter's predicate on one row. */
export function documentInScope(
  doc: Omit<FilterableDocument, 'metadata'> & { metadata: Readonly<Record<string, unknown>> },
  scope: AccessScope | undefined,
): boolean {
  const conjunct = scopeFilter(scope);
  if (conjunct === undefined) return true;
  const { metadata } = doc;
  return compileDocumentFilter({ scope: conjunct })({ ...doc, metadata: () => metadata });
}

/**
 * Whether a source (a connector label, `git:docs`) may hold documents the caller sees: the scope's sources match it
 * (paths and meta are per document: the source is listed, its documents are filtered where they are read).
 */
export function sourceInScope(label: string, scope: AccessScope | undefined): boolean {
  return scope?.sources === undefined || compileScopeSources(scope.sources)(label);
}
