// The search filters: mode (semantic and hybrid disabled, with the reason, when the index has no embeddings), source,
// since, until, path globs, tags, languages, content types, metadata and limit; a Rerank checkbox (on by default) only
// when the server has a reranker.
import { html } from '../lib/html.js';

const MODES = [
  { value: 'keyword', label: 'Keyword' },
  { value: 'semantic', label: 'Semantic' },
  { value: 'hybrid', label: 'Hybrid' },
];

/** @typedef {{ id: 'since' | 'until' | 'path' | 'tags' | 'lang' | 'type' | 'meta', label: string, placeholder: string, size: number, title?: string }} TextFilterSpec */

/** The free-text filters, in the order shown. @type {TextFilterSpec[]} */
const TEXT_FILTERS = [
  { id: 'since', label: 'Since', placeholder: '7d or 2026-01-31', size: 16 },
  { id: 'until', label: 'Until', placeholder: '7d or 2026-01-31', size: 16 },
  {
    id: 'path',
    label: 'Path',
    placeholder: 'docs/** !**/*.test.ts',
    size: 20,
    title: 'Globs on the path or URL, space-separated; !glob excludes',
  },
  { id: 'tags', label: 'Tags', placeholder: 'ops, infra', size: 12, title: 'Any of these tags, comma-separated' },
  {
    id: 'lang',
    label: 'Language',
    placeholder: 'typescript, python',
    size: 14,
    title: 'Any of these languages (by file extension), comma-separated',
  },
  {
    id: 'type',
    label: 'Type',
    placeholder: 'markdown, pdf',
    size: 12,
    title: 'Any of these content types or short forms, comma-separated',
  },
  {
    id: 'meta',
    label: 'Meta',
    placeholder: 'team=infra tier=1',
    size: 16,
    title: 'key=value pairs, separated by spaces or commas; a key given twice matches any of its values',
  },
];

/**
 * One labelled text filter: no spell checking (globs, names, dates and pairs are not prose).
 * @param {TextFilterSpec & { value: string, onInput: (e: any) => void }} props
 */
function TextFilter({ id, label, placeholder, size, title, value, onInput }) {
  return html`
    <div class="field">
      <label for=${id}>${label}</label>
      <input id=${id} type="text" placeholder=${placeholder} size=${size} spellcheck="false" title=${title} value=${value} onInput=${onInput} />
    </div>
  `;
}

/** @param {{ form: import('./search-view.js').SearchForm, update: (p: Partial<import('./search-view.js').SearchForm>) => void, info: any }} props */
export function SearchFilters({ form, update, info }) {
  const semantic = info?.search?.semantic_available === true;
  const sources = /** @type {{ source: string }[]} */ (info?.stats?.sources ?? []);
  const reranker = /** @type {{ provider: string, model: string | null } | null} */ (info?.search?.reranker ?? null);
  /** @param {keyof import('./search-view.js').SearchForm} key */
  const on = (key) => (/** @type {any} */ e) => update({ [key]: e.currentTarget.value });
  return html`
    <div class="filters">
      <div class="field">
        <label for="mode">Mode</label>
        <select id="mode" value=${form.mode} onChange=${on('mode')} aria-describedby=${semantic ? undefined : 'mode-hint'}>
          ${MODES.map((m) => html`<option value=${m.value} disabled=${m.value !== 'keyword' && !semantic}>${m.label}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="source">Source</label>
        <select id="source" value=${form.source} onChange=${on('source')}>
          <option value="">All sources</option>
          ${sources.map((s) => html`<option value=${s.source}>${s.source}</option>`)}
        </select>
      </div>
      ${TEXT_FILTERS.map((f) => html`<${TextFilter} ...${f} value=${form[f.id]} onInput=${on(f.id)} />`)}
      <div class="field">
        <label for="limit">Limit</label>
        <input id="limit" type="number" min="1" max=${info?.search?.max_limit ?? 100} placeholder=${String(info?.search?.default_limit ?? '')}
          value=${form.limit} onInput=${on('limit')} />
      </div>
      ${
        reranker
          ? html`<div class="field">
            <input id="rerank" type="checkbox" checked=${form.rerank !== 'off'} aria-describedby="rerank-hint"
              onChange=${(/** @type {any} */ e) => update({ rerank: e.currentTarget.checked ? '' : 'off' })} />
            <label for="rerank">Rerank</label>
            <span id="rerank-hint" class="visually-hidden">${`Reorder the best results with the ${reranker.provider} reranker${reranker.model ? ` ${reranker.model}` : ''}`}</span>
          </div>`
          : null
      }
    </div>
    ${
      !semantic && info
        ? html`<p id="mode-hint" class="hint">Semantic and hybrid search need embeddings: configure <code>[embedding]</code> and run <code>kbctx embed pending</code>.</p>`
        : null
    }
  `;
}
