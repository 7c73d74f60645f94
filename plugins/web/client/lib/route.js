// The page's location lives in the URL hash, so a search or a document can be shared, reloaded and
// reached with Back: `#/?q=…&mode=…`, `#/doc/<id>`, `#/sources`, `#/tools`, `#/connect`.

/** @typedef {'search' | 'doc' | 'sources' | 'tools' | 'connect'} View */
/** @typedef {{ view: View, id: string, params: URLSearchParams }} Route */

/** @param {string} hash @returns {Route} */
export function parseRoute(hash) {
  const raw = hash.replace(/^#/, '');
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const params = new URLSearchParams(q === -1 ? '' : raw.slice(q + 1));
  const [first = '', ...rest] = path.split('/').filter((p) => p !== '');
  if (first === 'doc' && rest.length > 0) return { view: 'doc', id: decodeURIComponent(rest.join('/')), params };
  if (first === 'sources' || first === 'tools' || first === 'connect') return { view: first, id: '', params };
  return { view: 'search', id: '', params };
}

/**
 * `#/doc/<id>`, with `?lines=12-48` when a hit knows its lines (the document view scrolls to and highlights them).
 * @param {string} id @param {number | null} [start] @param {number | null} [end]
 */
export function docHref(id, start = null, end = null) {
  const lines = start == null ? '' : `?lines=${start}-${end ?? start}`;
  return `#/doc/${encodeURIComponent(id)}${lines}`;
}

/** `12-48` (or `12`) → the range; null when it is not one. @param {string | null} text */
export function parseLines(text) {
  const m = /^(\d{1,9})(?:-(\d{1,9}))?$/.exec(text ?? '');
  if (!m) return null;
  const start = Number(m[1]);
  const end = m[2] === undefined ? start : Number(m[2]);
  return start >= 1 && end >= start ? { start, end } : null;
}

let lastSearch = '#/';

/**
 * `#/?q=…` with empty values left out; remembered for the document view's "Back to search".
 * @param {Record<string, string>} params
 */
export function searchHref(params) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== '') p.set(k, v);
  const s = p.toString();
  lastSearch = s === '' ? '#/' : `#/?${s}`;
  return lastSearch;
}

export function lastSearchHref() {
  return lastSearch;
}
