// Picks an excerpt of about `length` characters around the densest cluster of query-term matches.
//
// 1. Find the words of the text whose stem is a query stem. Porter only rewrites a word's ending, so a
//    stem minus its last letter is a prefix of every word it comes from: one regex over the text finds
//    the candidates, and only those are stemmed (stemming every word dominated search time).
// 2. Slide a window of `length` characters over the matches; keep the window with the most distinct
//    stems (then the most matches, then the earliest).
// 3. Centre the window on its matches, widen to word boundaries, and mark cut ends with "…".
import { stemWord } from './analyze-query.ts';
import { hasCjk } from './segment-cjk.ts';

export function makeSnippet(text: string, stems: ReadonlySet<string>, length = 240): string {
  // Positions are found in the raw text; whitespace is collapsed only inside the chosen window.
  const flat = text.trim();
  if (flat.length <= length) return collapse(flat);
  const hits = findHits(flat, stems);
  if (hits.length === 0) return cut(flat, 0, length);
  let best = { from: 0, to: 0, distinct: 0, count: 0 };
  for (let i = 0, j = 0; i < hits.length; i++) {
    const start = hits[i]!.at;
    if (j < i) j = i;
    while (j + 1 < hits.length && hits[j + 1]!.end - start <= length) j++;
    const distinct = new Set(hits.slice(i, j + 1).map((h) => h.stem)).size;
    const count = j - i + 1;
    if (distinct > best.distinct || (distinct === best.distinct && count > best.count))
      best = { from: i, to: j, distinct, count };
  }
  const first = hits[best.from]!.at;
  const last = hits[best.to]!.end;
  const slack = Math.max(0, length - (last - first));
  const start = Math.max(0, Math.min(first - Math.floor(slack / 3), flat.length - length));
  return cut(flat, start, length);
}

const patterns = new Map<string, RegExp>();
const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Words of `flat` whose stem is in `stems`. A plain literal alternation (no lookbehind, no `u` flag) is several times
 * faster; word boundaries are checked by hand.
 */
function findHits(flat: string, stems: ReadonlySet<string>): { at: number; end: number; stem: string }[] {
  const key = [...stems].sort().join(' ');
  let pattern = patterns.get(key);
  if (!pattern) {
    const prefixes = [...new Set([...stems].map((s) => (s.length > 1 ? s.slice(0, -1) : s)))].map((p) =>
      p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    );
    pattern = new RegExp(prefixes.join('|'), 'gi');
    if (patterns.size > 1000) patterns.clear();
    patterns.set(key, pattern);
  }
  const hits: { at: number; end: number; stem: string }[] = [];
  const cjkStems = [...stems].filter(hasCjk).sort((a, b) => b.length - a.length);
  pattern.lastIndex = 0;
  for (let m = pattern.exec(flat); m !== null; m = pattern.exec(flat)) {
    const at = m.index;
    if (hasCjk(flat[at]!)) {
      // CJK words sit inside unspaced runs: match the segmented query terms literally.
      const stem = cjkStems.find((s) => flat.startsWith(s, at));
      if (stem !== undefined) hits.push({ at, end: at + stem.length, stem });
      pattern.lastIndex = at + (stem?.length ?? 1);
      continue;
    }
    if (at > 0 && WORD_CHAR.test(flat[at - 1]!)) continue; // inside a word
    let end = at + m[0].length;
    while (end < flat.length && WORD_CHAR.test(flat[end]!)) end++;
    pattern.lastIndex = end;
    const s = stemWord(flat.slice(at, end));
    if (stems.has(s)) hits.push({ at, end, stem: s });
  }
  return hits;
}

function cut(flat: string, start: number, length: number): string {
  let from = start;
  let to = Math.min(flat.length, start + length);
  if (from > 0) {
    const space = flat.slice(from, from + 20).search(/\s/) + from;
    if (space >= from) from = space + 1;
  }
  if (to < flat.length) {
    const tail = flat.slice(Math.max(from, to - 20), to);
    const space = Math.max(tail.lastIndexOf(' '), tail.lastIndexOf('\n'), tail.lastIndexOf('\t'));
    if (space > 0) to = to - tail.length + space;
  }
  return `${from > 0 ? '…' : ''}${collapse(flat.slice(from, to))}${to < flat.length ? '…' : ''}`;
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();
