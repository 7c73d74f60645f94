// A generated corpus (seeded: the same on every run, no data files) of documents cut into one to three
// chunks, and the in-memory KeywordIndex fed the same writes as a PostingsTable (groups kept on update, as
// the store's model keeps them): the reference the persisted postings must equal.
import { analyzeQuery } from '../../../core/api/algorithms.ts';
import { KeywordIndex, rowTerms } from '../../../plugins/store-lancedb/keyword-index.ts';
import type { PostingsChange, PostingsDoc } from '../../../plugins/store-lancedb/postings-changes.ts';

interface Abstract {
  _id: string;
  title: string;
  text: string;
}

/** mulberry32: a small seeded generator, so the corpus and queries are the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ter', 'nu', 'sol', 'pra', 'vin', 'dex', 'qua', 'rho', 'bel', 'tan', 'gor'];
/** 3,000 made-up words; drawn with a Zipf-like skew so some are common (high df) and most are rare. */
const WORDS = Array.from({ length: 3000 }, (_, i) => {
  let w = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
  return w;
});
const word = (rand: () => number): string => WORDS[Math.floor(WORDS.length * rand() ** 3)]!;
const words = (rand: () => number, min: number, max: number): string =>
  Array.from({ length: min + Math.floor(rand() * (max - min + 1)) }, () => word(rand)).join(' ');

export const abstracts = (n: number): Abstract[] => {
  const rand = random(42);
  return Array.from({ length: n }, (_, i) => ({
    _id: `doc-${i}${'x'.repeat(i % 3)}`,
    title: words(rand, 3, 8),
    text: Array.from({ length: 2 + Math.floor(rand() * 6) }, () => `${words(rand, 5, 16)}.`).join(' '),
  }));
};

/** `n` generated queries (two to six words). */
export const queryTexts = (n: number): string[] => {
  const rand = random(7);
  return Array.from({ length: n }, () => words(rand, 2, 6));
};

/** The query stems of the `n` generated queries. */
export const queryTerms = (n: number): string[][] =>
  queryTexts(n).map((q) => [...new Set(analyzeQuery(q).map((t) => t.stem))]);

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
