// Whether a document passes a search filter (ADR 0213): the one reference implementation. The LanceDB
// store calls compileDocumentFilter per query; the SQLite store (and the PostgreSQL store's SQLite
// mirror) keeps source/since/until in SQL and calls compileFacets from an SQL function. Pure: no I/O.
//
// 1. source: the document's label, its connector label or the connector's type equals one of them.
// 2. since/until: updated_at in [since, until).
// 3. path: includes (globs without `!`) — at least one matches when any are given; excludes (`!glob`)
//    — none matches. Matched against the source id (the path for file connectors) and, unless it is
//    a file:// URL (the same path with the machine's folder in front), the source URL.
// 4. lang: the language of the source id's (else the URL's) extension is one of them.
// 5. type: the content type (without parameters) or its subtype is one of them.
// 6. tags / tagsAll: metadata `tags` (a list, or a comma-separated string), compared lower-cased.
// 7. meta: for each key, metadata[key] (or one element of it when it is a list), as text, is one of the values.
// 8. scope (a token's, ADR 0225): its sources (globs on the connector label, or connector types), its paths (read
//    like 3) and its meta pairs (read like 7) hold as well — ANDed with 1–7, so a filter narrows it, never widens
//    it.
import { createRequire } from 'node:module';
import type PicomatchType from 'picomatch';
import type * as Languages from '../domain/languages.ts';
import { requireOwn } from '../load/require-own.ts';
import type { ScopeFilter, SourceFilter } from '../store/store.ts';
import type { SearchParams } from '../domain/models.ts';

/** The fields of a document the document-level filters read; metadata parsed only when a filter needs it. */
export interface DocumentFacets {
  /** The connector instance (`git:docs`): the scope's sources match it. */
  connector: string;
  sourceId: string;
  sourceUrl: string | null;
  contentType: string;
  metadata: () => Readonly<Record<string, unknown>>;
}

export interface FilterableDocument extends DocumentFacets {
  source: string;
  updatedAt: string;
}

export type FacetPredicate = (doc: DocumentFacets) => boolean;

/** Glob options: dotfiles match like any other path (as the connectors' globs); a broken glob throws. */
export const GLOB_OPTIONS = { dot: true, strictBrackets: true } as const;

const require = createRequire(import.meta.url);
// Loaded only when a path filter is given: `kbctx search` without one never reads picomatch.
const picomatch = (): typeof PicomatchType => require('picomatch') as typeof PicomatchType;
// Loaded only when a lang filter is given.
const languages = (): typeof Languages => requireOwn<typeof Languages>(import.meta.url, '../domain/languages.ts');

/** The filter's sources as a list (undefined: no source filter). */
export function sourcesOf(filter: SourceFilter | undefined): readonly string[] | undefined {
  const s = filter?.source;
  if (s === undefined) return undefined;
  return typeof s === 'string' ? [s] : s;
}

/** True when a document-level field (path, lang, type, tags, tagsAll, meta, scope) is set. */
export function hasFacets(filter: SourceFilter | undefined): boolean {
  if (!filter) return false;
  const { path, lang, type, tags, tagsAll, meta, scope } = filter;
  return (
    scope !== undefined ||
    path !== undefined ||
    lang !== undefined ||
    type !== undefined ||
    tags !== undefined ||
    tagsAll !== undefined ||
    meta !== undefined
  );
}

/** True when the filter restricts anything. */
export function isFiltering(filter: SourceFilter | undefined): filter is SourceFilter {
  return (
    filter !== undefined &&
    (filter.source !== undefined || filter.since !== undefined || filter.until !== undefined || hasFacets(filter))
  );
}

/** A source filter value matches the document's label, its connector label or its connector type. */
export function matchesSource(sources: readonly string[], source: string, connector: string): boolean {
  return sources.some((s) => source === s || connector === s || connector.startsWith(`${s}:`));
}

/** Compiles one glob list (throws picomatch's error on a broken glob). */
export function compilePaths(globs: readonly string[]): (candidates: readonly string[]) => boolean {
  const pm = picomatch();
  const strip = (g: string): string => g.replace(/^\.\//, '');
  const includes = globs.filter((g) => !g.startsWith('!')).map(strip);
  const excludes = globs.filter((g) => g.startsWith('!')).map((g) => strip(g.slice(1)));
  const included = includes.length > 0 ? pm(includes, GLOB_OPTIONS) : () => true;
  const excluded = excludes.length > 0 ? pm(excludes, GLOB_OPTIONS) : () => false;
  return (candidates) => candidates.some((c) => included(c)) && !candidates.some((c) => excluded(c));
}

/** The document-level part of a filter as a predicate (always true when the filter sets none). */
export function compileFacets(filter: SourceFilter): FacetPredicate {
  const checks: FacetPredicate[] = [];
  if (filter.path !== undefined) {
    const paths = compilePaths(filter.path);
    checks.push((d) => paths(pathCandidates(d)));
  }
  if (filter.lang !== undefined) {
    const langs = new Set(filter.lang.map((l) => l.toLowerCase()));
    const { languageOf } = languages();
    checks.push((d) => {
      const lang = languageOf(d.sourceId) ?? (d.sourceUrl === null ? undefined : languageOf(d.sourceUrl));
      return lang !== undefined && langs.has(lang);
    });
  }
  if (filter.type !== undefined) {
    const types = new Set(filter.type.map((t) => t.toLowerCase()));
    checks.push((d) => {
      const full = d.contentType.split(';')[0]!.trim().toLowerCase();
      return types.has(full) || types.has(full.slice(full.indexOf('/') + 1));
    });
  }
  if (filter.tags !== undefined) {
    const wanted = filter.tags.map((t) => t.toLowerCase());
    checks.push((d) => {
      const have = tagsOf(d.metadata());
      return wanted.some((t) => have.has(t));
    });
  }
  if (filter.tagsAll !== undefined) {
    const wanted = filter.tagsAll.map((t) => t.toLowerCase());
    checks.push((d) => {
      const have = tagsOf(d.metadata());
      return wanted.every((t) => have.has(t));
    });
  }
  if (filter.meta !== undefined) {
    const entries = Object.entries(filter.meta).map(([key, values]) => [key, new Set(values)] as const);
    checks.push((d) => {
      const metadata = d.metadata();
      return entries.every(([key, values]) =>
        Object.hasOwn(metadata, key) ? textValues(metadata[key]).some((v) => values.has(v)) : false,
      );
    });
  }
  if (filter.scope !== undefined) checks.push(compileScope(filter.scope));
  return (d) => checks.every((check) => check(d));
}

/** A scope's sources as a predicate on a connector label (`git:docs`): a glob matches it or an entry names its type. */
export function compileScopeSources(sources: readonly string[]): (connector: string) => boolean {
  if (sources.length === 0) return () => false;
  const globs = picomatch()([...sources], GLOB_OPTIONS);
  const types = new Set(sources);
  return (connector) => globs(connector) || types.has(connector.split(':')[0]!);
}

/** Step 8: the scope's own fields, each ANDed (an empty scope lets everything through). */
function compileScope(scope: ScopeFilter): FacetPredicate {
  const checks: FacetPredicate[] = [];
  if (scope.sources !== undefined) {
    const sources = compileScopeSources(scope.sources);
    checks.push((d) => sources(d.connector));
  }
  if (scope.paths !== undefined) {
    // No globs at all admit nothing (a filter's `path` is never empty: filter-params.ts refuses it).
    const paths = scope.paths.length === 0 ? () => false : compilePaths(scope.paths);
    checks.push((d) => paths(pathCandidates(d)));
  }
  if (scope.meta !== undefined) {
    const pairs = Object.entries(scope.meta);
    checks.push((d) => {
      const metadata = d.metadata();
      return pairs.every(([key, value]) => Object.hasOwn(metadata, key) && textValues(metadata[key]).includes(value));
    });
  }
  return (d) => checks.every((check) => check(d));
}

/** The whole filter as a predicate over a document (the stores that filter in memory). */
export function compileDocumentFilter(filter: SourceFilter): (doc: FilterableDocument) => boolean {
  const sources = sourcesOf(filter);
  const since = filter.since === undefined ? undefined : Date.parse(filter.since);
  const until = filter.until === undefined ? undefined : Date.parse(filter.until);
  const facets = hasFacets(filter) ? compileFacets(filter) : undefined;
  return (d) => {
    if (sources !== undefined && !matchesSource(sources, d.source, d.connector)) return false;
    if (since !== undefined || until !== undefined) {
      const t = Date.parse(d.updatedAt);
      if (since !== undefined && !(t >= since)) return false;
      if (until !== undefined && !(t < until)) return false;
    }
    return facets === undefined || facets(d);
  };
}

function pathCandidates(d: DocumentFacets): string[] {
  return d.sourceUrl === null || d.sourceUrl.startsWith('file:') ? [d.sourceId] : [d.sourceId, d.sourceUrl];
}

/** Metadata `tags` as a lower-cased set: a list's scalar elements, or a comma-separated string's parts. */
export function tagsOf(metadata: Readonly<Record<string, unknown>>): Set<string> {
  const raw = metadata['tags'];
  const values = typeof raw === 'string' ? raw.split(',') : textValues(raw);
  return new Set(values.map((v) => v.trim().toLowerCase()).filter((v) => v !== ''));
}

/** A metadata value as the texts an equality filter compares: a scalar's, or each scalar element's of a list. */
function textValues(value: unknown): string[] {
  const scalar = (v: unknown): string | undefined =>
    typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
  if (Array.isArray(value)) return value.map(scalar).filter((v) => v !== undefined);
  const one = scalar(value);
  return one === undefined ? [] : [one];
}

/**
 * The store filter for a search, applied inside candidate retrieval, before the cut: `params.filter` with the
 * request's own `source` (unless several sources were given) and `since`, which a `query` tap may have edited.
 */
export function searchFilter(params: Pick<SearchParams, 'source' | 'since' | 'filter'>): SourceFilter | undefined {
  const filter = params.filter ?? {};
  const sources = sourcesOf(filter);
  const merged: SourceFilter = { ...filter };
  delete merged.source;
  delete merged.since;
  if (sources !== undefined && sources.length > 1) merged.source = sources;
  else if (params.source !== undefined) merged.source = params.source;
  if (params.since !== undefined) merged.since = params.since;
  return isFiltering(merged) ? merged : undefined;
}
