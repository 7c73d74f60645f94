// The result list: title (opens the document), source, updated time, the snippet with the matched
// words marked, a score bar, and on demand the score breakdown. Arrow keys move between results;
// Esc goes back to the search box.
import { html, useState } from '../lib/html.js';
import { highlight, matchPrefixes } from '../lib/highlight.js';
import { docHref } from '../lib/route.js';
import { ErrorBox } from './error-box.js';

let firstResultsMarked = false;

/** @param {{ out: import('./search-view.js').SearchState, focusBox: () => void }} props */
export function SearchResults({ out, focusBox }) {
  const prefixes = matchPrefixes(out.terms, out.query);
  if (out.state === 'done' && out.results.length > 0 && !firstResultsMarked) {
    firstResultsMarked = true;
    queueMicrotask(() => performance.mark('kbctx:first-results'));
  }
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    const links = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('.results a.result-link')]);
    const at = links.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    if (e.key === 'Escape') {
      e.preventDefault();
      focusBox();
    } else if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && at !== -1) {
      e.preventDefault();
      const next = e.key === 'ArrowDown' ? Math.min(at + 1, links.length - 1) : at - 1;
      if (next < 0) focusBox();
      else links[next]?.focus();
    }
  };
  const status =
    out.state === 'loading'
      ? 'Searching…'
      : out.state === 'done'
        ? out.results.length === 0
          ? `No results for “${out.query}”.`
          : `${out.results.length} result${out.results.length === 1 ? '' : 's'} for “${out.query}”.`
        : '';
  return html`
    <p id="search-status" class="status" role="status" aria-live="polite">${status}</p>
    ${out.state === 'error' && out.error ? html`<${ErrorBox} error=${out.error} />` : null}
    <ol class="results" aria-label="Search results" onKeyDown=${onKey}>
      ${out.results.map((r) => html`<${ResultItem} key=${r.id} r=${r} prefixes=${prefixes} />`)}
    </ol>
  `;
}

/** @param {{ r: any, prefixes: string[] }} props */
function ResultItem({ r, prefixes }) {
  const [open, setOpen] = useState(false);
  const e = r.explain;
  const score = Number(r.score);
  return html`
    <li class="result">
      <h2><a class="result-link" href=${docHref(r.id, r.line_start, r.line_end)}>${r.title || r.source_id}</a></h2>
      <p class="meta"><span>${r.source}</span> · <span class="where">${where(r)}</span>${r.updated_at ? html` · <time datetime=${r.updated_at}>${formatDate(r.updated_at)}</time>` : null}</p>
      <p class="snippet">${highlight(r.snippet ?? '', prefixes)}</p>
      <div class="score">
        <meter min="0" max="1" value=${score} aria-label=${`Score ${score.toFixed(3)}`}></meter>
        <span class="num">${score.toFixed(3)}</span>
        ${e ? html`<button type="button" class="link" aria-expanded=${open} onClick=${() => setOpen(!open)}>Explain</button>` : null}
      </div>
      ${
        open && e
          ? html`<dl class="explain">
            <dt>Keyword</dt><dd>${fmt(e.keyword_score)}</dd>
            <dt>Semantic</dt><dd>${fmt(e.semantic_score)}</dd>
            <dt>Hybrid</dt><dd>${fmt(e.hybrid_score)}</dd>
            <dt>Best chunk</dt><dd>#${e.chunk_index}</dd>
            ${
              e.fused_rank === undefined
                ? null
                : html`<dt>Rerank</dt><dd>${fmt(e.rerank_score)}</dd><dt>Fused rank</dt><dd>${e.fused_rank}</dd>`
            }
            ${e.rerank_note ? html`<dt>Note</dt><dd>${e.rerank_note}</dd>` : null}
          </dl>`
          : null
      }
    </li>
  `;
}

/** @param {number | null | undefined} n */
const fmt = (n) => (typeof n === 'number' ? n.toFixed(4) : '—');

/** @param {string} iso */
export function formatDate(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

/** `source_id:12-48` (and the symbol), or the source id alone when the lines are unknown. @param {any} r */
function where(r) {
  const lines =
    r.line_start == null ? '' : r.line_end === r.line_start ? `:${r.line_start}` : `:${r.line_start}-${r.line_end}`;
  return `${r.source_id}${lines}${r.symbol ? ` · ${r.symbol}` : ''}`;
}
