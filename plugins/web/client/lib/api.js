// Calls from the page to the kbctx API on the same origin: JSON in and out, the bearer token (kept in
// sessionStorage, so it lasts as long as the tab), and every failure returned as a value, never thrown.

const TOKEN_KEY = 'kbctx.token';

/**
 * @typedef {{ ok: true, status: number, body: any }} ApiOk
 * @typedef {{ ok: false, status: number, code: string, message: string }} ApiFailure
 * @typedef {ApiOk | ApiFailure} ApiResult
 */

/** @type {Set<() => void>} */
const unauthorizedListeners = new Set();

export function getToken() {
  return sessionStorage.getItem(TOKEN_KEY);
}

/** @param {string | null} token */
export function setToken(token) {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** Called whenever the server answers 401: the app asks for a token. @param {() => void} listener */
export function onUnauthorized(listener) {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Asks for a token again (the "Enter token" button of a 401 error). */
export function requestToken() {
  for (const listener of unauthorizedListeners) listener();
}

/**
 * @param {'GET' | 'POST'} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {AbortSignal} [signal]
 * @returns {Promise<ApiResult>} rejects only when `signal` aborts
 */
export async function api(method, path, body, signal) {
  /** @type {Record<string, string>} */
  // `kbctx-surface`: the query log tells the page's searches from REST clients' (plugins/query-log).
  const headers = { accept: 'application/json', 'kbctx-surface': 'web' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = getToken();
  if (token) headers['authorization'] = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    return { ok: false, status: 0, code: 'network', message: `the server did not answer (${String(error)})` };
  }
  const text = await res.text();
  /** @type {any} */
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: reported below with the raw text
  }
  if (res.ok) return { ok: true, status: res.status, body: json };
  if (res.status === 401) requestToken();
  const error = json && typeof json === 'object' && json.error ? json.error : {};
  return {
    ok: false,
    status: res.status,
    code: String(error.code ?? `http_${res.status}`),
    message: String(error.message ?? text.slice(0, 300)),
  };
}
