// Search: one box (debounced search-as-you-type, Enter searches now),
// mode/source/since/until/path/tags/lang/type/meta/limit filters (and a Rerank toggle when the server has a reranker),
// the query kept in the URL (replaceState, so typing does not flood the history), results below.
import { api } from '../lib/api.js';
import { html, useEffect, useRef, useState } from '../lib/html.js';
import { searchHref } from '../lib/route.js';
import { SearchFilters } from './search-filters.js';
import { SearchResults } from './search-results.js';

const DEBOUNCE_MS = 200;

/**
 * @typedef {{ q: string, mode: string, source: string, since: string, until: string, path: string, tags: string,
 *   lang: string, type: string, meta: string, limit: string, rerank: '' | 'off' }} SearchForm
 */
/** @typedef {{ state: 'idle' | 'loading' | 'done' | 'error', results: any[], terms: string[], query: string, error?: { status: number, code: string, message: string } }} SearchState */

/** @param {{ params: URLSearchParams, info: any }} props */
export function SearchView({ params, info }) {
  const [form, setForm] = useState(
    /** @type {SearchForm} */ ({
      q: params.get('q') ?? '',
      mode: params.get('mode') ?? 'keyword',
      source: params.get('source') ?? '',
      since: params.get('since') ?? '',
      until: params.get('until') ?? '',
      path: params.get('path') ?? '',
      tags: params.get('tags') ?? '',
      lang: params.get('lang') ?? '',
      type: params.get('type') ?? '',
      meta: params.get('meta') ?? '',
      limit: params.get('limit') ?? '',
      rerank: params.get('rerank') === 'off' ? 'off' : '',
    }),
  );
  const [out, setOut] = useState(/** @type {SearchState} */ ({ state: 'idle', results: [], terms: [], query: '' }));
  const box = useRef(/** @type {HTMLInputElement | null} */ (null));
  const pending = useRef(/** @type {AbortController | null} */ (null));
  const [now, setNow] = useState(0); // bumped by Enter: search again without waiting
  const immediate = useRef(true); // the query from the URL (reload, Back, shared link) and Enter run at once

  useEffect(() => box.current?.focus(), []);

  useEffect(() => {
    const { q, mode, ...rest } = form;
    history.replaceState(null, '', searchHref({ q, mode: mode === 'keyword' ? '' : mode, ...rest }));
    pending.current?.abort();
    if (q.trim() === '') {
      setOut({ state: 'idle', results: [], terms: [], query: '' });
      return;
    }
    const abort = new AbortController();
    pending.current = abort;
    // An answer that arrives after a newer search started is dropped: the results are always the form's.
    const show = (/** @type {SearchState} */ o) => abort.signal.aborted || setOut(o);
    const timer = setTimeout(
      () => void runSearch(form, abort.signal).then(show, () => {}),
      immediate.current ? 0 : DEBOUNCE_MS,
    );
    immediate.current = false;
    setOut((o) => ({ ...o, state: 'loading' }));
    return () => clearTimeout(timer);
  }, [form, now]);

  /** @param {Partial<SearchForm>} patch */
  const update = (patch) => setForm((f) => ({ ...f, ...patch }));

  /** @param {KeyboardEvent} e */
  const onBoxKey = (e) => {
    if (e.key === 'ArrowDown') {
      const first = /** @type {HTMLElement | null} */ (document.querySelector('.results a.result-link'));
      if (first) {
        e.preventDefault();
        first.focus();
      }
    } else if (e.key === 'Escape' && form.q !== '') {
      e.preventDefault();
      update({ q: '' });
    }
  };

  return html`
    <section aria-labelledby="search-title">
      <h1 id="search-title" class="visually-hidden">Search the knowledge base</h1>
      <form role="search" class="search" onSubmit=${(/** @type {Event} */ e) => (e.preventDefault(), (immediate.current = true), setNow((n) => n + 1))}>
        <label for="q" class="visually-hidden">Search</label>
        <input id="q" ref=${box} type="search" placeholder="Search the knowledge base (press / to focus)" autocomplete="off"
          value=${form.q} onInput=${(/** @type {any} */ e) => update({ q: e.currentTarget.value })} onKeyDown=${onBoxKey}
          aria-describedby="search-status" />
        <${SearchFilters} form=${form} update=${update} info=${info} />
      </form>
      <${SearchResults} out=${out} focusBox=${() => box.current?.focus()} />
    </section>
  `;
}

/** @param {SearchForm} form @param {AbortSignal} signal @returns {Promise<SearchState>} */
async function runSearch(form, signal) {
  /** @type {Record<string, unknown>} */
  const body = { query: form.q, mode: form.mode, explain: true };
  if (form.source !== '') body['source'] = form.source;
  // `since` and `until` only when set: servers without the filter reject unknown parameters.
  if (form.since.trim() !== '') body['since'] = form.since.trim();
  if (form.until.trim() !== '') body['until'] = form.until.trim();
  // Path globs are space-separated (a glob may hold a comma: `*.{md,txt}`); tags, languages and types
  // comma-separated (any of); meta `key=value` pairs separated by spaces or commas (a key given twice: any of).
  /** @type {Record<string, unknown>} */
  const filters = {};
  const path = form.path.split(/\s+/).filter((g) => g !== '');
  if (path.length > 0) filters['path'] = path;
  for (const key of /** @type {const} */ (['tags', 'lang', 'type'])) {
    const list = commaList(form[key]);
    if (list.length > 0) filters[key] = list;
  }
  const meta = metaFilter(form.meta);
  if (meta) filters['meta'] = meta;
  if (Object.keys(filters).length > 0) body['filters'] = filters;
  if (form.limit !== '') body['limit'] = Number(form.limit);
  // Only the switch-off is sent: without it the server reranks as configured (and one without a reranker ignores it).
  if (form.rerank === 'off') body['rerank'] = false;
  const r = await api('POST', '/tools/search', body, signal);
  if (!r.ok) return { state: 'error', results: [], terms: [], query: form.q, error: r };
  return { state: 'done', results: r.body.results ?? [], terms: r.body.explain?.terms ?? [], query: form.q };
}

/** @param {string} text */
function commaList(text) {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/**
 * `team=infra, tier=1 tier=2` → `{ team: 'infra', tier: ['1', '2'] }`. A pair without `=` is sent as a key with an
 * empty value, so the server's 400 names it.
 * @param {string} text @returns {Record<string, string | string[]> | null}
 */
function metaFilter(text) {
  /** @type {Record<string, string | string[]>} */
  const meta = {};
  for (const pair of text.split(/[\s,]+/).filter((p) => p !== '')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    const had = Object.hasOwn(meta, key) ? meta[key] : undefined;
    meta[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return Object.keys(meta).length > 0 ? meta : null;
}
