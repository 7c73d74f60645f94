// POST JSON with a per-attempt timeout and retries: 429, 5xx, timeouts and network errors are
// retried with exponential backoff and full jitter, honouring Retry-After (seconds or HTTP date).
// Other 4xx fail at once. fetch failures are translated to KbctxError here, at the edge. The HTTP
// embedders and the reranker share it through this plugin's contract entry (api.ts).
import { KbctxError, type RetryOptions } from '../../core/api/plugin.ts';

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  options: RetryOptions,
  what: string,
): Promise<unknown> {
  const base = options.baseDelayMs ?? 500;
  const cap = options.maxDelayMs ?? 60_000;
  let last: KbctxError | undefined;
  for (let attempt = 0; attempt <= options.maxRetries; attempt++) {
    let retryAfterMs: number | null = null;
    const answer = await attemptPost(url, body, headers, options.timeoutMs, what);
    if (answer instanceof KbctxError) {
      last = answer; // timeout or network failure: retried
    } else if (answer.ok) {
      return parse(answer.text, what);
    } else {
      const detail = errorDetail(answer.text);
      last = new KbctxError('upstream_error', `${what} answered HTTP ${answer.status}${detail ? `: ${detail}` : ''}`, {
        details: { status: answer.status },
      });
      if (answer.status !== 429 && answer.status < 500) throw last;
      retryAfterMs = parseRetryAfter(answer.retryAfter);
    }
    if (attempt === options.maxRetries) break;
    const backoff = Math.random() * Math.min(cap, base * 2 ** attempt);
    await sleep(Math.min(cap, retryAfterMs ?? backoff));
  }
  throw last ?? new KbctxError('upstream_error', `${what} failed`);
}

async function attemptPost(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
  what: string,
): Promise<{ ok: boolean; status: number; text: string; retryAfter: string | null } | KbctxError> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { ok: response.ok, status: response.status, text, retryAfter: response.headers.get('retry-after') };
  } catch (error) {
    return translate(error, what, timeoutMs);
  }
}

function translate(error: unknown, what: string, timeoutMs: number): KbctxError {
  const e = error as Error;
  if (e.name === 'TimeoutError' || e.name === 'AbortError') {
    return new KbctxError('timeout', `${what} did not answer within ${timeoutMs / 1000} s ([embedding] timeout_secs)`, {
      cause: error,
    });
  }
  const cause = (e.cause as Error | undefined)?.message;
  return new KbctxError('upstream_error', `cannot reach ${what}: ${cause ?? e.message}`, { cause: error });
}

function parse(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new KbctxError('upstream_error', `${what} answered with something that is not JSON`);
  }
}

function errorDetail(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    const error = body.error;
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string')
      return (error as { message: string }).message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.slice(0, 200).trim();
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
