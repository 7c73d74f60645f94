// Asks for the API token when the server answers 401 ([server] auth_token_env is set). The token is
// kept in sessionStorage: once per tab, gone when the tab closes. Esc or Cancel closes the dialog.
import { getToken, setToken } from '../lib/api.js';
import { html, useEffect, useRef } from '../lib/html.js';

/** @param {{ open: boolean, onDone: (saved: boolean) => void }} props */
export function TokenDialog({ open, onDone }) {
  const ref = useRef(/** @type {HTMLDialogElement | null} */ (null));
  const input = useRef(/** @type {HTMLInputElement | null} */ (null));
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (input.current) input.current.value = '';
      dialog.showModal();
      input.current?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  /** @param {SubmitEvent} e */
  const submit = (e) => {
    e.preventDefault();
    const value = input.current?.value.trim() ?? '';
    if (value === '') return;
    setToken(value);
    ref.current?.close(); // at once: the next 401 (a wrong token) opens it afresh
    onDone(true);
  };
  const hadToken = getToken() !== null;
  return html`
    <dialog ref=${ref} class="token" aria-labelledby="token-title" onCancel=${() => onDone(false)}>
      <form method="dialog" onSubmit=${submit}>
        <h2 id="token-title">This server needs a token</h2>
        <p>${hadToken ? 'The token you gave was not accepted. ' : ''}Enter the value of the server's
          <code>auth_token_env</code> variable. It is kept for this tab only.</p>
        <label for="token-input">API token</label>
        <input id="token-input" ref=${input} type="password" autocomplete="off" required />
        <div class="actions">
          <button type="submit">Use token</button>
          <button type="button" class="secondary" onClick=${() => onDone(false)}>Cancel</button>
        </div>
      </form>
    </dialog>
  `;
}
