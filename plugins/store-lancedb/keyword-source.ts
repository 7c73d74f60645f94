// What the LanceDB store's keyword search reads postings from (ADR 0233, 0234): the persisted postings
// table (postings-table.ts), read per query, its hits named by chunk and document id so the model needs
// no keyword numbering. Must not write: the store writes the postings table with the main table.
import type { PostingsTable } from './postings-table.ts';

/** A scored chunk: the best of its document. */
export interface KeywordChunkHit {
  chunkId: string;
  documentId: string;
  /** FTS5's BM25, positive (higher is better). */
  score: number;
}

export interface KeywordSource {
  /** Live rows (N of BM25). */
  size(): Promise<number>;
  /** Each term's document frequency (chunks holding it); 0 for a term no chunk holds. */
  docFreqs(terms: readonly string[]): Promise<Map<string, number>>;
  /** The best chunk of each of the best `limit` documents `allowed` holds (all: undefined), by descending score. */
  search(
    terms: readonly string[],
    limit: number,
    allowed?: ReadonlySet<string>,
  ): Promise<{ hits: KeywordChunkHit[]; scored: number }>;
}

/** The postings table as a KeywordSource: slots and groups mapped to chunk and document ids by their `doc` rows. */
export function postingsKeywordSource(postings: PostingsTable): KeywordSource {
  return {
    size: () => Promise.resolve(postings.size),
    docFreqs: (terms) => postings.docFreq(terms),
    async search(terms, limit, allowed) {
      let allow: ((group: number) => boolean) | undefined;
      if (allowed) {
        const groups = new Set((await postings.groupsOf([...allowed])).values());
        allow = (group) => groups.has(group);
      }
      const { hits, scored } = await postings.search(terms, limit, allow);
      const docs = await postings.documents([...new Set(hits.map((h) => h.group))]);
      const out: KeywordChunkHit[] = [];
      for (const h of hits) {
        const doc = docs.get(h.group);
        const at = doc?.record.slots.indexOf(h.row) ?? -1;
        if (doc && at >= 0) out.push({ chunkId: doc.record.chunkIds[at]!, documentId: doc.id, score: h.score });
      }
      return { hits: out, scored };
    },
  };
}
