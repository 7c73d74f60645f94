// The search filters: mode (semantic and hybrid disabled, with the reason, when the index has no embeddings), source,
// since, until, path globs, tags, languages, content types, metadata and limit; a Rerank checkbox (on by default) only
// when the server has a reranker.
import { html } from '../lib/html.js';

const MODES = [
  { value: 'keyword', label: 'Keyword' },
  { value: 'semantic', label: 'Semantic' },
  { value: 'hybrid', label: 'Hybrid' },
];

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
      <div class="field">
        <label for="since">Since</label>
        <input id="since" type="text" inputmode="text" placeholder="7d or 2026-01-31" size="16" value=${form.since} onInput=${on('since')} />
      </div>
      <div class="field">
        <label for="until">Until</label>
        <input id="until" type="text" inputmode="text" placeholder="7d or 2026-01-31" size="16" value=${form.until} onInput=${on('until')} />
      </div>
      <div class="field">
        <label for="path">Path</label>
        <input id="path" type="text" placeholder="docs/** !**/*.test.ts" size="20" spellcheck="false" title="Globs on the path or URL, space-separated; !glob excludes"
          value=${form.path} onInput=${on('path')} />
      </div>
      <div class="field">
        <label for="tags">Tags</label>
        <input id="tags" type="text" placeholder="ops, infra" size="12" title="Any of these tags, comma-separated"
          value=${form.tags} onInput=${on('tags')} />
      </div>
      <div class="field">
        <label for="lang">Language</label>
        <input id="lang" type="text" placeholder="typescript, python" size="14" spellcheck="false" title="Any of these languages (by file extension), comma-separated"
          value=${form.lang} onInput=${on('lang')} />
      </div>
      <div class="field">
        <label for="type">Type</label>
        <input id="type" type="text" placeholder="markdown, pdf" size="12" spellcheck="false" title="Any of these content types or short forms, comma-separated"
          value=${form.type} onInput=${on('type')} />
      </div>
      <div class="field">
        <label for="meta">Meta</label>
        <input id="meta" type="text" placeholder="team=infra tier=1" size="16" spellcheck="false" title="key=value pairs, separated by spaces or commas; a key given twice matches any of its values"
          value=${form.meta} onInput=${on('meta')} />
      </div>
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
