// Tools and agents: each tool with its description and a form from its JSON Schema that runs it
// (result or error shown as such); each agent with a form for its arguments that shows the prompt.
import { api } from '../lib/api.js';
import { html, useEffect, useState } from '../lib/html.js';
import { ErrorBox } from './error-box.js';
import { SchemaForm } from './schema-form.js';

export function ToolsView() {
  const [tools, setTools] = useState(/** @type {any[] | null} */ (null));
  const [agents, setAgents] = useState(/** @type {any[] | null} */ (null));
  const [error, setError] = useState(/** @type {import('../lib/api.js').ApiFailure | null} */ (null));
  useEffect(() => {
    void api('GET', '/tools/list').then((r) => (r.ok ? setTools(r.body.tools) : setError(r)));
    void api('GET', '/agents/list').then((r) => (r.ok ? setAgents(r.body.agents) : setError(r)));
  }, []);
  return html`
    <h1>Tools & agents</h1>
    ${error ? html`<${ErrorBox} error=${error} />` : null}
    <section aria-labelledby="tools-title">
      <h2 id="tools-title">Tools</h2>
      ${tools === null ? html`<p role="status">Loading…</p>` : tools.map((t) => html`<${ToolCard} key=${t.name} tool=${t} />`)}
    </section>
    <section aria-labelledby="agents-title">
      <h2 id="agents-title">Agents</h2>
      ${
        agents === null
          ? html`<p role="status">Loading…</p>`
          : agents.length === 0
            ? html`<p>No agents are configured.</p>`
            : agents.map((a) => html`<${AgentCard} key=${a.name} agent=${a} />`)
      }
    </section>
  `;
}

/** @param {{ tool: any }} props */
function ToolCard({ tool }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState(/** @type {import('../lib/api.js').ApiResult | null} */ (null));
  /** @param {Record<string, unknown>} params */
  const run = async (params) => {
    setBusy(true);
    setResult(null);
    setResult(await api('POST', `/tools/${encodeURIComponent(tool.name)}`, params));
    setBusy(false);
  };
  return html`
    <details class="card" id=${`tool-${tool.name}`}>
      <summary><span class="name">${tool.name}</span>${tool.builtin ? html` <span class="badge">built-in</span>` : null}
        <span class="desc">${tool.description}</span></summary>
      <${SchemaForm} idPrefix=${`tool-${tool.name}`} schema=${tool.parameters} submitLabel=${`Run ${tool.name}`} busy=${busy} onSubmit=${run} />
      <div class="outcome" aria-live="polite">
        ${result === null ? null : result.ok ? html`<h3>Result</h3><pre class="json">${JSON.stringify(result.body.result, null, 2)}</pre>` : html`<${ErrorBox} error=${result} />`}
      </div>
    </details>
  `;
}

/** @param {{ agent: any }} props */
function AgentCard({ agent }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState(/** @type {import('../lib/api.js').ApiResult | null} */ (null));
  /** @type {import('./schema-form.js').ObjectSchema} */
  const schema = {
    type: 'object',
    properties: Object.fromEntries(
      agent.arguments.map((/** @type {any} */ a) => [a.name, { type: 'string', description: a.description }]),
    ),
    required: agent.arguments.filter((/** @type {any} */ a) => a.required).map((/** @type {any} */ a) => a.name),
  };
  /** @param {Record<string, unknown>} args */
  const resolve = async (args) => {
    setBusy(true);
    setResult(null);
    setResult(await api('POST', `/agents/${encodeURIComponent(agent.name)}/prompt`, args));
    setBusy(false);
  };
  return html`
    <details class="card" id=${`agent-${agent.name}`}>
      <summary><span class="name">${agent.name}</span> <span class="badge">${agent.source}</span>
        <span class="desc">${agent.description}</span></summary>
      <p class="hint">Tools: ${agent.tools.length > 0 ? agent.tools.join(', ') : 'none'}</p>
      <${SchemaForm} idPrefix=${`agent-${agent.name}`} schema=${schema} submitLabel="Resolve prompt" busy=${busy} onSubmit=${resolve} />
      <div class="outcome" aria-live="polite">
        ${result === null ? null : result.ok ? html`<${Prompt} prompt=${result.body} />` : html`<${ErrorBox} error=${result} />`}
      </div>
    </details>
  `;
}

/** @param {{ prompt: any }} props */
function Prompt({ prompt }) {
  return html`
    <h3>System prompt <span class="hint">(${String(prompt.system ?? '').length} characters)</span></h3>
    <pre class="prompt">${prompt.system}</pre>
    ${(prompt.messages ?? []).map((/** @type {any} */ m) => html`<h3>${m.role}</h3><pre class="prompt">${typeof m.content === 'string' ? m.content : JSON.stringify(m.content, null, 2)}</pre>`)}
  `;
}
