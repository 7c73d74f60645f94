// The Store's reads answered from the in-memory model of the table (model.ts): keyword search with
// the project's analysis and BM25 over the postings table (keyword-source.ts) and counts (which chunks have
// vectors: embedding-state.ts) (vector searches are Lance's: lance-vectors.ts). lance-store.ts keeps
// the model fresh and passes it in, with the reader of chunk texts (chunk-texts.ts) where hits need them.
import type { KeywordHit, KeywordQuery, KeywordResult, StoreCounts } from '../../core/api/plugin.ts';
import type { QueryTerm } from '../../core/api/algorithms.ts';
import { bm25Reference, normalizeBm25 } from '../store-sqlite/api.ts';
import type { Chunk, DocumentHead } from '../../core/api/plugin.ts';
import type { ChunkMeta, Model } from './model.ts';
import type { KeywordSource } from './keyword-source.ts';
import type { HeadRef } from './row-reader.ts';

/** Reads chunks' texts and documents' heads by id (row-reader.ts); one Lance no longer has is left out. */
export type ReadRows = (
  chunks: readonly ChunkMeta[],
  docs?: readonly HeadRef[],
) => Promise<{ chunks: Map<string, Chunk>; heads: Map<string, DocumentHead> }>;

/** A query term in more than this share of the chunks is dropped while a rarer one remains. */
const COMMON_TERM_RATIO = 0.25;

export const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `source`: the model's postings (keyword-source.ts); `allowed`: the documents a search filter lets through
 * (doc-filter.ts), undefined: every document.
 */
export async function keywordSearch(
  model: Model,
  source: KeywordSource,
  query: KeywordQuery,
  allowed: ReadonlySet<string> | undefined,
  readRows: ReadRows,
): Promise<KeywordResult> {
  const total = await source.size();
  if (query.terms.length === 0 || total === 0) return { hits: [], matchedTerms: [], candidateCount: 0 };
  const freqs = await source.docFreqs(query.terms.map((t) => t.stem));
  const matched = chooseTerms(query.terms, freqs, total);
  const reference = bm25Reference(
    total,
    query.terms.map((t) => freqs.get(t.stem) ?? 0),
  );
  const { hits, scored } = await source.search(
    matched.map((t) => t.stem),
    query.limit,
    allowed,
  );
  // The postings may be ahead of or behind the model (another process's commit): a chunk it lacks is left out.
  const found = hits.flatMap((h) => {
    const chunk = model.chunks.get(h.chunkId);
    const doc = chunk?.chunk.documentId === h.documentId ? model.docs.get(h.documentId) : undefined;
    return chunk && doc ? [{ chunk: chunk.chunk, doc, score: h.score }] : [];
  });
  const read = await readRows(
    found.map((f) => f.chunk),
    found.map((f) => f.doc),
  );
  const out: KeywordHit[] = [];
  for (const { chunk, doc, score } of found) {
    const withText = read.chunks.get(chunk.id);
    const head = read.heads.get(doc.id);
    if (withText && head)
      out.push({
        document: head,
        chunk: withText,
        raw: score,
        score: normalizeBm25(score, reference),
      });
  }
  out.sort((a, b) => b.raw - a.raw || compare(a.document.id, b.document.id));
  return { hits: out, matchedTerms: matched, candidateCount: scored };
}

export function counts(model: Model, embedded: number): StoreCounts {
  return { documents: model.docs.size, chunks: model.chunks.size, embedded };
}

/**
 * Drops very common terms while at least one rarer term that occurs in the index remains (as the SQLite store does).
 */
function chooseTerms(terms: readonly QueryTerm[], freqs: ReadonlyMap<string, number>, total: number): QueryTerm[] {
  const df = (t: QueryTerm): number => freqs.get(t.stem) ?? 0;
  const rare = terms.filter((t) => df(t) > 0 && df(t) <= COMMON_TERM_RATIO * total);
  return rare.length > 0 ? [...rare, ...terms.filter((t) => df(t) === 0)] : [...terms];
}
