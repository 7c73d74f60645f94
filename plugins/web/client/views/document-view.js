// One document: title, source, a link to the original, updated time, the body (Markdown rendered and sanitised; other
// text, and Markdown too large or too deeply nested to render, shown as text), "copy id", and a toggle that shows the
// chunks instead. With `lines` (a search hit's `?lines=12-48`) the body is shown as numbered lines, those highlighted
// and scrolled into view (Markdown: after "Show lines", as it opens rendered).
import { api } from '../lib/api.js';
import { copyText } from '../lib/copy.js';
import { html, useEffect, useMemo, useRef, useState } from '../lib/html.js';
import { renderMarkdown } from '../lib/markdown.js';
import { docHref, lastSearchHref, parseLines } from '../lib/route.js';
import { ErrorBox } from './error-box.js';
import { formatDate } from './search-results.js';

/** Only these open as links; anything else (javascript:, data:, …) is shown as text. */
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'file:', 'mailto:']);

/** @param {{ id: string, lines?: string | null }} props */
export function DocumentView({ id, lines = null }) {
  const range = parseLines(lines);
  const [doc, setDoc] = useState(/** @type {any} */ (null));
  const [error, setError] = useState(/** @type {import('../lib/api.js').ApiFailure | null} */ (null));
  const [chunks, setChunks] = useState(/** @type {any[] | null} */ (null));
  const [showChunks, setShowChunks] = useState(false);
  // Markdown opens rendered (its lines one click away); other text opens at the numbered lines.
  const [numbered, setNumbered] = useState(false);
  const [copied, setCopied] = useState('');
  const heading = useRef(/** @type {HTMLHeadingElement | null} */ (null));

  useEffect(() => {
    void api('POST', '/tools/get', { id }).then((r) => (r.ok ? setDoc(r.body) : setError(r)));
  }, [id]);
  useEffect(() => {
    // With lines, the view stays where NumberedLines scrolled it (focus would scroll back to the heading).
    heading.current?.focus({ preventScroll: range !== null });
    if (doc) document.title = `${doc.title || doc.source_id} · kbctx`;
  }, [doc]);
  useEffect(() => {
    if (showChunks && chunks === null) {
      void api('GET', `/web/documents/${encodeURIComponent(id)}/chunks`).then((r) =>
        r.ok ? setChunks(r.body.chunks) : setError(r),
      );
    }
  }, [showChunks]);

  if (error) return html`<${Back} /><${ErrorBox} error=${error} />`;
  if (!doc) return html`<${Back} /><p role="status">Loading…</p>`;
  const copy = async () =>
    setCopied((await copyText(doc.id)) ? 'Id copied.' : 'Could not copy; select the id and copy it.');
  return html`
    <article class="document" aria-labelledby="doc-title">
      <${Back} />
      <h1 id="doc-title" tabindex="-1" ref=${heading}>${doc.title || doc.source_id}</h1>
      <dl class="doc-meta">
        <dt>Source</dt><dd>${doc.source} · ${doc.source_id}</dd>
        <dt>Original</dt><dd>${sourceLink(doc.source_url)}</dd>
        <dt>Updated</dt><dd><time datetime=${doc.updated_at}>${formatDate(doc.updated_at)}</time></dd>
        <dt>Id</dt><dd><code class="doc-id">${doc.id}</code> <button type="button" class="small" onClick=${copy}>Copy id</button>
          <span role="status" class="copied">${copied}</span></dd>
      </dl>
      <div class="doc-tools">
        <label><input type="checkbox" checked=${showChunks} onChange=${(/** @type {any} */ e) => setShowChunks(e.currentTarget.checked)} /> Show chunk boundaries</label>
      </div>
      ${
        showChunks
          ? html`<${Chunks} chunks=${chunks} />`
          : range && (numbered || !isMarkdown(doc))
            ? html`<${NumberedLines} doc=${doc} range=${range} />`
            : html`${range ? html`<p class="lines-note" role="note"><button type="button" class="link" onClick=${() => setNumbered(true)}>Show lines ${range.start}–${range.end}</button></p>` : null}<${Body} doc=${doc} />`
      }
    </article>
  `;
}

/** Back to the last search of this tab, query and filters included. */
function Back() {
  return html`<p class="back"><a href=${lastSearchHref()}>← Back to search</a></p>`;
}

/** @param {any} doc */
function isMarkdown(doc) {
  return String(doc.content_type ?? '').includes('markdown');
}

/** @param {{ doc: any }} props */
function Body({ doc }) {
  const markdown = isMarkdown(doc);
  // Rendered once per document, not on every re-render of the view (copying the id, …).
  const rendered = useMemo(() => (markdown ? renderMarkdown(withoutTitleHeading(doc)) : null), [doc]);
  if (rendered && 'html' in rendered)
    return html`<div class="body markdown" dangerouslySetInnerHTML=${{ __html: rendered.html }}></div>`;
  return html`
    ${rendered ? html`<p class="plain-note" role="note">Shown as plain text: ${rendered.plainBecause}.</p>` : null}
    <div class="body plain">${doc.body}</div>
  `;
}

/** The page already shows the title: drop a first-line heading that repeats it. @param {any} doc */
function withoutTitleHeading(doc) {
  return String(doc.body ?? '').replace(/^#\s+(.*)\n/, (line, heading) => (heading.trim() === doc.title ? '' : line));
}

/**
 * The body as numbered lines (split as kbctx counts them: \r\n, \r or \n), `range` highlighted and scrolled to.
 * @param {{ doc: any, range: { start: number, end: number } }} props
 */
function NumberedLines({ doc, range }) {
  const first = useRef(/** @type {HTMLLIElement | null} */ (null));
  const lines = useMemo(() => String(doc.body ?? '').split(/\r\n|\r|\n/), [doc]);
  useEffect(() => first.current?.scrollIntoView({ block: 'center' }), [doc, range.start]);
  const inRange = (/** @type {number} */ n) => n >= range.start && n <= range.end;
  return html`
    <p class="lines-note" role="note">Lines ${range.start}–${Math.min(range.end, lines.length)} highlighted.
      <a href=${docHref(doc.id)}>Show the whole document</a></p>
    <ol class="lines body" aria-label="Lines">
      ${lines.map(
        (text, i) =>
          html`<li id=${`L${i + 1}`} class=${inRange(i + 1) ? 'line hl' : 'line'} ref=${i + 1 === range.start ? first : null}>${text || ' '}</li>`,
      )}
    </ol>
  `;
}

/** @param {{ chunks: any[] | null }} props */
function Chunks({ chunks }) {
  if (!chunks) return html`<p role="status">Loading chunks…</p>`;
  return html`<ol class="chunks" aria-label="Chunks">
    ${chunks.map((c) => html`<li class="chunk"><p class="chunk-head">Chunk ${c.chunk_index} · ${c.text.length} characters</p><div class="plain">${c.text}</div></li>`)}
  </ol>`;
}

/** @param {string | null | undefined} url */
function sourceLink(url) {
  if (!url) return '—';
  let protocol;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return url;
  }
  return LINK_PROTOCOLS.has(protocol) ? html`<a href=${url} target="_blank" rel="noopener noreferrer">${url}</a>` : url;
}
