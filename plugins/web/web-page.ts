// Serves the web page's static files (GET/HEAD `/` and `/assets/…`) before auth, so the page can load
// and ask for the token: strict CSP, ETag/304, year-long caching for hashed assets, brotli or gzip
// chosen from Accept-Encoding and kept after the first request. Never serves anything else.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { WebAsset, WebAssets } from './web-assets.ts';

/** No inline script or style, nothing from another origin, no framing, no form posts, no <base>. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

type Encoding = 'br' | 'gzip' | 'identity';

export interface WebPage {
  /** Answers and returns true when `pathname` is one of the page's files; false leaves the request to the API. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
}

export function createWebPage(assets: WebAssets): WebPage {
  const compressed = new Map<string, Buffer>();
  const bodyFor = (pathname: string, asset: WebAsset, encoding: Encoding): Buffer => {
    if (encoding === 'identity') return asset.body;
    const key = `${encoding} ${pathname}`;
    let body = compressed.get(key);
    if (!body) {
      body = encoding === 'br' ? brotliCompressSync(asset.body) : gzipSync(asset.body, { level: 9 });
      compressed.set(key, body);
    }
    return body;
  };
  return {
    handle(req, res, pathname) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const asset = assets.files.get(pathname === '/index.html' ? '/' : pathname);
      if (!asset) return false;
      const headers: Record<string, string | number> = {
        'content-type': asset.contentType,
        etag: asset.etag,
        'cache-control': asset.revalidate ? 'no-cache' : 'public, max-age=31536000, immutable',
        vary: 'Accept-Encoding',
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      };
      if (req.headers['if-none-match'] === asset.etag) {
        res.writeHead(304, headers).end();
        return true;
      }
      const encoding = pickEncoding(req.headers['accept-encoding']);
      const body = bodyFor(pathname, asset, encoding);
      if (encoding !== 'identity') headers['content-encoding'] = encoding;
      headers['content-length'] = body.length;
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}

/** Brotli when the client takes it, else gzip, else none (q=0 excludes a coding). */
export function pickEncoding(header: string | undefined): Encoding {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name !== '' && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}
