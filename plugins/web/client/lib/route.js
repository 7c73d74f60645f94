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

/** @param {string} id */
export function docHref(id) {
  return `#/doc/${encodeURIComponent(id)}`;
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
