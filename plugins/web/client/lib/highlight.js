// Marks the words of a snippet that match the query. The server's explain terms are Porter stems, and
// a stem minus its last letter is a prefix of every word it comes from, so prefix matching finds
// them without a stemmer here (it may mark a few extra words; it never misses one).
import { html } from './html.js';

/** @param {string[]} terms @param {string} query */
export function matchPrefixes(terms, query) {
  const words = [...terms, ...(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  return [...new Set(words.filter((w) => w.length >= 2).map((w) => (w.length > 3 ? w.slice(0, -1) : w)))];
}

/** @param {string} text @param {string[]} prefixes */
export function highlight(text, prefixes) {
  if (prefixes.length === 0) return text;
  return text.split(/([\p{L}\p{N}]+)/u).map((part, i) => {
    if (i % 2 === 0) return part;
    const lower = part.toLowerCase();
    return prefixes.some((p) => lower.startsWith(p)) ? html`<mark>${part}</mark>` : part;
  });
}
