// SciFact documents cut into one to three chunks, and the in-memory KeywordIndex fed the same writes
// as a PostingsTable (groups kept on update, as the store's model keeps them): the reference the
// persisted postings must equal.
import path from 'node:path';
import { analyzeQuery } from '../../../core/api/algorithms.ts';
import { KeywordIndex, rowTerms } from '../../../plugins/store-lancedb/keyword-index.ts';
import type { PostingsChange, PostingsDoc } from '../../../plugins/store-lancedb/postings-changes.ts';
import { loadQueries, readJsonl, SCIFACT_DIR } from '../../eval/scifact.ts';

interface Abstract {
  _id: string;
  title: string;
  text: string;
}

export const abstracts = (n: number): Abstract[] =>
  readJsonl<Abstract>(path.join(SCIFACT_DIR, 'corpus.jsonl')).slice(0, n);

/** The query stems of the first `n` train queries. */
export const queryTerms = (n: number): string[][] =>
  loadQueries()
    .slice(0, n)
    .map((q) => [...new Set(analyzeQuery(q.text).map((t) => t.stem))]);

let seq = 1;
/** A document of 1–3 chunks (sentences dealt round-robin); `edit` changes its text (an update). */
export function toPostingsDoc(a: Abstract, edit = ''): PostingsDoc {
  const sentences = `${a.text}${edit}`.split(/(?<=\.)\s+/);
  const parts = Math.min(3, 1 + (a._id.length % 3), sentences.length);
  return {
    id: a._id,
    chunks: Array.from({ length: parts }, (_, i) => ({
      id: `${a._id}:${seq++}`,
      terms: rowTerms(a.title, sentences.filter((_, j) => j % parts === i).join(' ')),
    })),
  };
}

export class Reference {
  readonly index = new KeywordIndex();
  private readonly docs = new Map<string, { group: number; rows: number[] }>();
  private nextGroup = 0;

  apply(change: PostingsChange): void {
    for (const id of change.remove) this.drop(id);
    for (const doc of change.put) {
      const group = this.drop(doc.id) ?? this.nextGroup++;
      this.docs.set(doc.id, { group, rows: doc.chunks.map((c) => this.index.add(group, c.terms)) });
    }
  }

  private drop(id: string): number | undefined {
    const old = this.docs.get(id);
    if (!old) return undefined;
    for (const row of old.rows) this.index.remove(row);
    this.docs.delete(id);
    return old.group;
  }
}

/**
 * Twelve writes over 400 documents: puts of 50 new ones, the even ones also putting 10 earlier ones
 * again with new text and the third ones removing 5 (the same in every process: chunk ids are numbered
 * in call order).
 */
export function postingsBatches(): PostingsChange[] {
  const corpus = abstracts(400);
  return Array.from({ length: 12 }, (_, k) => {
    const fresh = corpus.slice((k * 50) % 400, ((k * 50) % 400) + 50);
    const again = k % 2 === 0 && k > 0 ? corpus.slice(k * 7, k * 7 + 10) : [];
    const remove = k % 3 === 2 ? corpus.slice(k * 11 + 100, k * 11 + 105).map((a) => a._id) : [];
    return {
      put: [...fresh.map((a) => toPostingsDoc(a)), ...again.map((a) => toPostingsDoc(a, ` Edit ${k}.`))],
      remove,
    };
  });
}
