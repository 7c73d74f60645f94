// A form generated from a tool's JSON Schema (`parameters`): text, number, a true/false choice, a
// list of enum values, or JSON for arrays and objects. Empty fields are left out; the server
// validates, so its 400 is what the user sees for a wrong value.
import { html, useState } from '../lib/html.js';

/**
 * @typedef {{ type: string, description?: string, enum?: unknown[], default?: unknown }} PropertySchema
 * @typedef {{ type: 'object', properties: Record<string, PropertySchema>, required?: string[] }} ObjectSchema
 */

/**
 * @param {{ idPrefix: string, schema: ObjectSchema, submitLabel: string, onSubmit: (values: Record<string, unknown>) => void, busy: boolean }} props
 */
export function SchemaForm({ idPrefix, schema, submitLabel, onSubmit, busy }) {
  const [values, setValues] = useState(/** @type {Record<string, string>} */ ({}));
  const [problem, setProblem] = useState('');
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {});

  /** @param {Event} e */
  const submit = (e) => {
    e.preventDefault();
    try {
      setProblem('');
      onSubmit(toParams(entries, values));
    } catch (error) {
      setProblem(/** @type {Error} */ (error).message);
    }
  };
  return html`
    <form class="schema-form" onSubmit=${submit} novalidate>
      ${entries.length === 0 ? html`<p class="hint">No parameters.</p>` : null}
      ${entries.map(([name, p]) => {
        const id = `${idPrefix}-${name}`;
        const set = (/** @type {any} */ e) => setValues((v) => ({ ...v, [name]: e.currentTarget.value }));
        const describedBy = p.description ? `${id}-desc` : undefined;
        return html`<div class="field">
          <label for=${id}>${name}${required.has(name) ? html` <span class="req">(required)</span>` : null} <span class="type">${p.type}</span></label>
          ${field(id, p, values[name] ?? '', set, required.has(name), describedBy)}
          ${p.description ? html`<p class="hint" id=${describedBy}>${p.description}</p>` : null}
        </div>`;
      })}
      ${problem ? html`<p class="error" role="alert">${problem}</p>` : null}
      <button type="submit" disabled=${busy}>${busy ? 'Running…' : submitLabel}</button>
    </form>
  `;
}

/**
 * @param {string} id @param {PropertySchema} p @param {string} value @param {(e: any) => void} set
 * @param {boolean} isRequired @param {string | undefined} describedBy
 */
function field(id, p, value, set, isRequired, describedBy) {
  const common = { id, value, 'aria-required': isRequired ? 'true' : undefined, 'aria-describedby': describedBy };
  if (p.enum || p.type === 'boolean') {
    const options = p.enum ?? [true, false];
    return html`<select ...${common} onChange=${set}>
      <option value="">${p.default !== undefined ? `(default: ${JSON.stringify(p.default)})` : '(not set)'}</option>
      ${options.map((o) => html`<option value=${JSON.stringify(o)}>${String(o)}</option>`)}
    </select>`;
  }
  if (p.type === 'integer' || p.type === 'number') {
    return html`<input ...${common} type="number" step=${p.type === 'integer' ? '1' : 'any'} placeholder=${p.default !== undefined ? String(p.default) : ''} onInput=${set} />`;
  }
  if (p.type === 'array' || p.type === 'object') {
    return html`<textarea ...${common} rows="3" placeholder=${p.type === 'array' ? '["a", "b"] (JSON)' : '{"key": "value"} (JSON)'} onInput=${set}></textarea>`;
  }
  return html`<input ...${common} type="text" placeholder=${p.default !== undefined ? String(p.default) : ''} onInput=${set} />`;
}

/**
 * Field strings → parameter values; empty fields are omitted. @param {[string, PropertySchema][]} entries
 * @param {Record<string, string>} values
 */
export function toParams(entries, values) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [name, p] of entries) {
    const raw = values[name] ?? '';
    if (raw.trim() === '') continue;
    if (p.enum || p.type === 'boolean') out[name] = JSON.parse(raw);
    else if (p.type === 'integer' || p.type === 'number') out[name] = Number(raw);
    else if (p.type === 'array' || p.type === 'object') {
      try {
        out[name] = JSON.parse(raw);
      } catch {
        throw new Error(`${name}: not valid JSON`);
      }
    } else out[name] = raw;
  }
  return out;
}
