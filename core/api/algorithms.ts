// The pure algorithms the engine runs and the plugins share, a light entry of the public API (ADR 0130): query
// analysis, CJK segmentation, unit vectors, the search filter's document predicate, ids and hashes. Keyword scoring
// (BM25, postings top-k) and the exact vector scan are store-sqlite's (its api.ts, ADR 0240); the default chunking is
// chunker-default's.
export { analyzeQuery, stem, tokenize } from '../search/analyze-query.ts';
export type { QueryTerm } from '../search/analyze-query.ts';
export { segmentCjk } from '../search/segment-cjk.ts';
export { normalizeInPlace } from '../search/unit-vector.ts';
export { toUnitVectors } from '../embed/check-vectors.ts';
export { documentId, sha256Hex } from '../domain/ids.ts';
export { pathProblem } from '../domain/path-problem.ts';
export {
  compilePaths,
  compileDocumentFilter,
  compileFacets,
  compileScopeSources,
  hasFacets,
  isFiltering,
  searchFilter,
  sourcesOf,
} from '../search/document-filter.ts';
export type { DocumentFacets, FacetPredicate, FilterableDocument } from '../search/document-filter.ts';
import { requireOwn } from '../load/require-own.ts';
import type * as Languages from '../domain/languages.ts';
/** The `lang` filter's language names (`domain/languages.ts`), required on first use (start-up, ADR 0130). */
export const languageNames = (): readonly string[] =>
  requireOwn<typeof Languages>(import.meta.url, '../domain/languages.ts').LANGUAGES;
