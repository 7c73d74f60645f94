// Connect an agent: ready-to-paste MCP configurations for Claude Desktop, Claude Code, Cursor,
// VS Code and Codex, over HTTP (this page's origin + /mcp) and over stdio (this server's config).
import { getToken } from '../lib/api.js';
import { clientConfigs } from '../lib/client-configs.js';
import { copyText } from '../lib/copy.js';
import { html, useState } from '../lib/html.js';

/** @param {{ info: any }} props */
export function ConnectView({ info }) {
  const [fillToken, setFillToken] = useState(false);
  const [copied, setCopied] = useState('');
  const [client, setClient] = useState('Claude Desktop');
  if (!info) return html`<h1>Connect an agent</h1><p role="status">Loading…</p>`;
  const token = getToken();
  const tokenEnv = info.auth_token_env ?? 'KBCTX_TOKEN';
  const configs = clientConfigs({
    mcpUrl: `${location.origin}${info.mcp_path}`,
    token: token === null ? null : fillToken ? token : `<${tokenEnv}>`,
    tokenEnv,
    kbctxBin: info.kbctx_bin,
    configFile: info.config_file,
  });
  /** @param {string} label @param {string} text */
  const copy = async (label, text) =>
    setCopied((await copyText(text)) ? `${label} copied.` : `Could not copy ${label}; select it and copy.`);
  return html`
    <h1>Connect an agent</h1>
    <p>Add kbctx to an MCP client. <strong>HTTP</strong> talks to this running server; <strong>stdio → this server</strong> lets a client that only launches commands share this running server (<code>kbctx serve stdio --attach</code>: a small bridge, no second index or model); <strong>stdio</strong> lets the client start its own <code>kbctx serve mcp --stdio</code> on the same index.</p>
    ${
      info.config_file === null
        ? html`<p class="hint">This server runs with the built-in default configuration in <code>${info.working_dir}</code>: a stdio client must start in that folder, or write a config file and pass it with <code>-c</code>.</p>`
        : null
    }
    ${
      token !== null
        ? html`<p><label><input type="checkbox" checked=${fillToken} onChange=${(/** @type {any} */ e) => setFillToken(e.currentTarget.checked)} /> Fill in my token (otherwise a placeholder)</label></p>`
        : null
    }
    <p><label for="client">Client</label>
      <select id="client" value=${client} onChange=${(/** @type {any} */ e) => setClient(e.currentTarget.value)}>
        ${configs.map((c) => html`<option value=${c.client}>${c.client}</option>`)}
      </select></p>
    <p role="status" class="status">${copied}</p>
    ${configs
      .filter((c) => c.client === client)
      .map(
        (c) => html`<section class="card connect" aria-labelledby=${idOf(c.client)}>
        <h2 id=${idOf(c.client)}>${c.client}</h2>
        <p class="hint">In ${c.where}</p>
        ${(/** @type {const} */ (['http', 'attach', 'stdio'])).map((kind) => {
          const block = c[kind];
          const title = KIND_TITLES[kind];
          const label = `${c.client} ${title} configuration`;
          return html`<div class="config">
            <div class="config-head"><h3>${title}</h3>
              <button type="button" class="small" aria-label=${`Copy ${label}`} onClick=${() => void copy(label, block.text)}>Copy</button></div>
            <pre tabindex="0" aria-label=${label}><code>${block.text}</code></pre>
            ${block.note ? html`<p class="hint">${block.note}</p>` : null}
          </div>`;
        })}
      </section>`,
      )}
  `;
}

const KIND_TITLES = { http: 'HTTP', attach: 'stdio → this server', stdio: 'stdio' };

/** @param {string} name */
const idOf = (name) => `connect-${name.toLowerCase().replace(/\W+/g, '-')}`;
