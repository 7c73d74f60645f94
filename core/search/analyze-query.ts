// Turns a natural-language query into search terms: Unicode word tokens (as FTS5's unicode61 tokenizer cuts them, after
// CJK segmentation as at index time), diacritics folded, stop words dropped, deduplicated by Porter stem (the same
// stemmer FTS5's `porter` tokenizer applies, so stems match the index vocabulary).
import { stemmer } from 'stemmer';
import { hasCjk, segmentCjk } from './segment-cjk.ts';
import { STOP_WORDS } from './stop-words.ts';

export interface QueryTerm {
  /** The token as typed (lower-cased, folded): what is sent to FTS5, which stems it itself. */
  token: string;
  /** Porter stem: the form stored in the index vocabulary. */
  stem: string;
}

const WORD = /[\p{L}\p{N}]+/gu;

export function foldToken(token: string): string {
  // FTS5's remove_diacritics folds Latin letters only: CJK tokens (kana voicing marks, Hangul syllables,
  // which NFKD would split into jamo) must reach the index as they are.
  if (hasCjk(token)) return token.normalize('NFC').toLowerCase();
  return token
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** Word tokens of `text`, CJK runs segmented into words first (segment-cjk.ts, as at index time). */
export function tokenize(text: string): string[] {
  return (segmentCjk(text).match(WORD) ?? []).map(foldToken).filter((t) => t.length > 0);
}

// Stemming dominates snippet cost; vocabularies are small, so a bounded memo pays off at once.
const STEMS = new Map<string, string>();

export function stem(token: string): string {
  let s = STEMS.get(token);
  if (s === undefined) {
    s = stemmer(token);
    if (STEMS.size >= 100_000) STEMS.clear();
    STEMS.set(token, s);
  }
  return s;
}

const FOLDED = new Map<string, string>();

/** foldToken then stem, memoised on the raw word (the snippet's per-word hot path). */
export function stemWord(word: string): string {
  let s = FOLDED.get(word);
  if (s === undefined) {
    s = stem(foldToken(word));
    if (FOLDED.size >= 100_000) FOLDED.clear();
    FOLDED.set(word, s);
  }
  return s;
}

/** Distinct content terms of a query, in first-seen order. A query of only stop words keeps them all. */
export function analyzeQuery(query: string): QueryTerm[] {
  const tokens = tokenize(query);
  const content = tokens.filter((t) => !STOP_WORDS.has(t));
  const chosen = content.length > 0 ? content : tokens;
  const byStem = new Map<string, QueryTerm>();
  for (const token of chosen) {
    const s = stem(token);
    if (!byStem.has(s)) byStem.set(s, { token, stem: s });
  }
  return [...byStem.values()];
}
