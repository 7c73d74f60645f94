// Sources: per source the documents, chunks, embedded share and last sync (with the last run's failure or errors); with
// the live index (GET /sync/status answers) also the sync state, updated every few seconds, and "Sync now".
import { api } from '../lib/api.js';
import { html, useEffect, useRef, useState } from '../lib/html.js';
import { ErrorBox } from './error-box.js';
import { formatDate } from './search-results.js';

const POLL_MS = 3000;

export function SourcesView() {
  const [stats, setStats] = useState(/** @type {any} */ (null));
  const [status, setStatus] = useState(/** @type {Map<string, any> | null} */ (null));
  const [error, setError] = useState(/** @type {import('../lib/api.js').ApiFailure | null} */ (null));
  const [note, setNote] = useState('');
  const noLiveIndex = useRef(false);

  const refresh = async () => {
    const [info, sync] = await Promise.all([
      api('GET', '/web/info'),
      noLiveIndex.current ? null : api('GET', '/sync/status'),
    ]);
    if (info.ok) setStats(info.body.stats);
    else setError(info);
    // 404: this server has no live index; the state column and the button stay hidden, and it is not asked again.
    if (sync?.status === 404) noLiveIndex.current = true;
    setStatus(sync?.ok ? new Map((sync.body.connectors ?? []).map((/** @type {any} */ c) => [c.connector, c])) : null);
  };
  useEffect(() => {
    void refresh();
    const timer = setInterval(() => document.visibilityState === 'visible' && void refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, []);

  /** @param {string} connector */
  const syncNow = async (connector) => {
    setNote(`Starting a sync of ${connector}…`);
    const r = await api('POST', `/sync/${encodeURIComponent(connector)}`, {});
    setNote(r.ok ? `Sync of ${connector} started.` : `Sync of ${connector} failed to start: ${r.status} ${r.message}`);
    await refresh();
  };

  if (error) return html`<h1>Sources</h1><${ErrorBox} error=${error} />`;
  if (!stats) return html`<h1>Sources</h1><p role="status">Loading…</p>`;
  const live = status !== null;
  return html`
    <h1>Sources</h1>
    <p class="summary">${stats.documents} documents · ${stats.chunks} chunks · ${stats.embedded_percent}% embedded</p>
    <p role="status" class="status">${note}</p>
    <div class="table-wrap">
      <table class="sources">
        <caption class="visually-hidden">Indexed sources</caption>
        <thead><tr>
          <th scope="col">Source</th><th scope="col" class="n">Documents</th><th scope="col" class="n">Chunks</th>
          <th scope="col" class="n">Embedded</th><th scope="col">Last sync</th>
          ${live ? html`<th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th>` : null}
        </tr></thead>
        <tbody>
          ${stats.sources.map((/** @type {any} */ s) => {
            const st = status?.get(s.source);
            return html`<tr>
              <th scope="row">${s.source}</th>
              <td class="n" data-label="Documents">${s.documents}</td>
              <td class="n" data-label="Chunks">${s.chunks}</td>
              <td class="n" data-label="Embedded">${s.chunks === 0 ? '—' : `${Math.round((s.embedded / s.chunks) * 1000) / 10}%`}</td>
              <td data-label="Last sync">${s.last_sync ? html`<time datetime=${s.last_sync}>${formatDate(s.last_sync)}</time>` : 'never'}<${LastRun} s=${s} /></td>
              ${
                live
                  ? html`<td data-label="State"><${SyncState} st=${st} /></td>
                <td><button type="button" class="small" disabled=${st?.state === 'running'} onClick=${() => void syncNow(s.source)}
                  aria-label=${`Sync ${s.source} now`}>Sync now</button></td>`
                  : null
              }
            </tr>`;
          })}
        </tbody>
      </table>
    </div>
  `;
}

/**
 * The last sync run's outcome when it failed or could not read some items (a completed run says nothing more).
 * @param {{ s: any }} props
 */
function LastRun({ s }) {
  const run = s.last_run;
  if (!run || (s.status !== 'failed' && s.status !== 'errors')) return null;
  const what = s.status === 'failed' ? `failed: ${run.failure}` : `${run.errors} error${run.errors === 1 ? '' : 's'}`;
  return html`<p class="state-error">last run ${formatDate(run.ended_at)} ${what}</p>`;
}

/** @param {{ st: any }} props */
function SyncState({ st }) {
  if (!st) return html`<span class="state">—</span>`;
  const c = st.last_counts;
  return html`<span class=${`state state-${st.state}`}>${st.state}</span>
    ${st.state === 'failed' && st.last_error ? html`<p class="state-error">${typeof st.last_error === 'string' ? st.last_error : st.last_error.message}</p>` : null}
    ${
      st.last_finished_at
        ? html`<p class="state-detail">last run ${formatDate(st.last_finished_at)}${c ? `: ${c.upserted} updated, ${c.deleted} deleted, ${c.unchanged} unchanged` : ''}</p>`
        : null
    }
    ${st.next_run_at ? html`<p class="state-detail">next ${formatDate(st.next_run_at)}</p>` : null}`;
}
