// An API error shown as such: the HTTP status, the error code and the server's message.
import { requestToken } from '../lib/api.js';
import { html } from '../lib/html.js';

const TITLES = /** @type {Record<number, string>} */ ({
  0: 'No answer',
  400: 'Bad request',
  401: 'Token required',
  403: 'Forbidden',
  404: 'Not found',
  408: 'Timed out',
  413: 'Too large',
  500: 'Server error',
});

/** @param {{ error: { status: number, code: string, message: string } }} props */
export function ErrorBox({ error }) {
  const title = TITLES[error.status] ?? 'Error';
  return html`
    <div class="error" role="alert">
      <strong>${error.status > 0 ? `${error.status} ${title}` : title}</strong> <code>${error.code}</code>
      <p>${error.message}</p>
      ${error.status === 401 ? html`<button type="button" class="small" onClick=${requestToken}>Enter token</button>` : null}
    </div>
  `;
}
