// Host module `http`: one request, following up to 10 redirects. Returns {status, ok, headers
// (lower-case names), body, json}; a non-2xx answer is not an error; a transport failure throws
// `HTTP <METHOD> <url> failed: …`. The script's own time-out is enforced by the main thread.
// `json` is decoded by runner.lua through json.parse (a synchronous call that reserves Lua stack).

const MAX_REDIRECTS = 10;
const DEFAULT_TIMEOUT_SECS = 30;

export interface HttpResponse {
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  body: string;
}

interface HttpOptions {
  headers?: Record<string, unknown>;
  params?: Record<string, unknown>;
  timeout?: number;
}

export async function httpRequest(
  method: string,
  rawUrl: unknown,
  body: unknown,
  rawOpts: unknown,
): Promise<HttpResponse> {
  if (typeof rawUrl !== 'string') throw new Error(`http.${method.toLowerCase()}: expected a URL string`);
  const fail = (why: string): Error => new Error(`HTTP ${method} ${rawUrl} failed: ${why}`);
  const opts = (rawOpts && typeof rawOpts === 'object' ? rawOpts : {}) as HttpOptions;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw fail('invalid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail(`unsupported protocol ${url.protocol}`);
  for (const [k, v] of Object.entries(opts.params ?? {})) url.searchParams.append(k, String(v));
  const headers = Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k, String(v)]));
  const timeoutSecs = typeof opts.timeout === 'number' && opts.timeout > 0 ? opts.timeout : DEFAULT_TIMEOUT_SECS;
  const signal = AbortSignal.timeout(timeoutSecs * 1000);
  let currentMethod = method;
  let currentBody = typeof body === 'string' ? body : undefined;
  try {
    for (let hop = 0; ; hop++) {
      const res = await fetch(url, { method: currentMethod, headers, body: currentBody, redirect: 'manual', signal });
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw fail(`more than ${MAX_REDIRECTS} redirects`);
        url = new URL(location, url);
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && currentMethod === 'POST')) {
          currentMethod = 'GET';
          currentBody = undefined;
        }
        continue;
      }
      return await toResponse(res);
    }
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(`HTTP ${method} `)) throw error;
    if (signal.aborted) throw fail(`timed out after ${timeoutSecs} s`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw fail(cause?.code ?? cause?.message ?? (error as Error).message);
  }
}

async function toResponse(res: Response): Promise<HttpResponse> {
  const body = await res.text();
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
  return { status: res.status, ok: res.ok, headers, body };
}
