// The page's entry: the layout (skip link, navigation, main region), hash routing, the server facts
// loaded once, the token dialog on 401, and the global `/` shortcut that focuses the search box.
import { api, onUnauthorized } from './lib/api.js';
import { html, render, useEffect, useState } from './lib/html.js';
import { parseRoute } from './lib/route.js';
import { ConnectView } from './views/connect-view.js';
import { DocumentView } from './views/document-view.js';
import { SearchView } from './views/search-view.js';
import { SourcesView } from './views/sources-view.js';
import { TokenDialog } from './views/token-dialog.js';
import { ToolsView } from './views/tools-view.js';

const TITLES = {
  search: 'Search',
  doc: 'Document',
  sources: 'Sources',
  tools: 'Tools & agents',
  connect: 'Connect an agent',
};

const NAV = [
  { view: 'search', href: '#/', label: 'Search' },
  { view: 'sources', href: '#/sources', label: 'Sources' },
  { view: 'tools', href: '#/tools', label: 'Tools & agents' },
  { view: 'connect', href: '#/connect', label: 'Connect an agent' },
];

function App() {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  const [info, setInfo] = useState(/** @type {any} */ (null));
  const [askToken, setAskToken] = useState(false);
  // Bumped when a token is entered: views remount and fetch again with it.
  const [epoch, setEpoch] = useState(0);
  // Bumped on every arrival at a URL (Back/Forward, an edited address, a link): its view mounts afresh,
  // so what is shown always follows the URL. Typing a search only replaces the URL and keeps the view.
  const [arrival, setArrival] = useState(0);

  useEffect(() => {
    const onHash = () => {
      setRoute(parseRoute(location.hash));
      setArrival((n) => n + 1);
    };
    addEventListener('hashchange', onHash);
    const off = onUnauthorized(() => setAskToken(true));
    return () => {
      removeEventListener('hashchange', onHash);
      off();
    };
  }, []);

  useEffect(() => {
    document.title = `${TITLES[route.view]} · kbctx`;
  }, [route.view]);

  useEffect(() => {
    void api('GET', '/web/info').then((r) => r.ok && setInfo(r.body));
  }, [epoch]);

  useEffect(() => {
    /** @param {KeyboardEvent} e */
    const onKey = (e) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = /** @type {HTMLElement} */ (e.target);
      if (t.closest('input, textarea, select, [contenteditable]')) return;
      e.preventDefault();
      if (route.view !== 'search') location.hash = '#/';
      requestAnimationFrame(() => document.getElementById('q')?.focus());
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [route.view]);

  const view =
    route.view === 'doc'
      ? html`<${DocumentView} id=${route.id} lines=${route.params.get('lines')} />`
      : route.view === 'sources'
        ? html`<${SourcesView} />`
        : route.view === 'tools'
          ? html`<${ToolsView} />`
          : route.view === 'connect'
            ? html`<${ConnectView} info=${info} />`
            : html`<${SearchView} params=${route.params} info=${info} />`;

  return html`
    <a class="skip" href="#main" onClick=${skipToMain}>Skip to content</a>
    <header class="top">
      <a class="brand" href="#/">kbctx</a>
      <nav aria-label="Main">
        <ul>
          ${NAV.map(
            (n) =>
              html`<li><a href=${n.href} aria-current=${route.view === n.view || (n.view === 'search' && route.view === 'doc') ? 'page' : undefined}>${n.label}</a></li>`,
          )}
        </ul>
      </nav>
    </header>
    <main id="main" tabindex="-1" key=${`${epoch}.${arrival}`}>${view}</main>
    <footer class="bottom">${info ? `kbctx ${info.version}` : ''} · press <kbd>/</kbd> to search</footer>
    <${TokenDialog}
      open=${askToken}
      onDone=${(/** @type {boolean} */ saved) => {
        setAskToken(false);
        if (saved) setEpoch((n) => n + 1);
      }}
    />
  `;
}

/** The skip link moves focus without touching the hash (the hash is the route). @param {Event} e */
function skipToMain(e) {
  e.preventDefault();
  document.getElementById('main')?.focus();
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(html`<${App} />`, root);
}
