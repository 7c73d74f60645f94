// What the hub announces about one file: a HEAD on `{endpoint}/{repo}/resolve/{revision}/{file}`
// without following the redirect, since the hub puts `x-linked-size` and `x-linked-etag` (the LFS
// file's sha256) on the 302 to its storage; a small git file answers 200 with its content-length.
import { configError, KbctxError } from '../../core/api/plugin.ts';

export interface HubFile {
  /** Bytes, or null when not announced. */
  readonly size: number | null;
  /** The LFS sha256 (hex), or null for files the hub stores in git. */
  readonly sha256: string | null;
}

export const authHeaders = (token: string | null): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};

/** The announcement, or null when the hub has no such file (404). */
export async function headFile(url: string, token: string | null): Promise<HubFile | null> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'HEAD', redirect: 'manual', headers: authHeaders(token) });
  } catch (error) {
    throw unreachable(url, error);
  }
  if (response.status === 404) return null;
  if (response.status === 401 || response.status === 403) {
    throw configError(
      `the model hub refused ${url} (HTTP ${response.status}): a gated ` +
        `or private model needs HF_TOKEN set to a token with access`,
    );
  }
  if (response.status >= 400)
    throw new KbctxError('upstream_error', `the model hub answered HTTP ${response.status} for ${url}`);
  const size = Number(
    response.headers.get('x-linked-size') ??
      (response.status === 200 ? response.headers.get('content-length') : null) ??
      NaN,
  );
  return {
    size: Number.isSafeInteger(size) && size >= 0 ? size : null,
    sha256: sha256Of(response.headers.get('x-linked-etag') ?? response.headers.get('etag')),
  };
}

/** `"<64 hex>"` or `W/"<64 hex>"` → the hex; a git blob's 40-hex etag → null. */
export function sha256Of(etag: string | null): string | null {
  const hex = etag?.replace(/^W\//, '').replace(/"/g, '').trim().toLowerCase() ?? '';
  return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

export function unreachable(url: string, error: unknown): KbctxError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return new KbctxError(
    'upstream_error',
    `could not reach the model hub at ${new URL(url).origin} ` +
      `(${cause?.code ?? cause?.message ?? (error as Error).message}); set HF_ENDPOINT for a mirror, or ` +
      `KBCTX_OFFLINE=1 to use the cache only`,
    { cause: error },
  );
}
