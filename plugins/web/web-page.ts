// Serves the web page's static files (GET/HEAD `/` and `/assets/…`) as public routes, so the page can
// load and ask for the token: strict CSP, ETag/304, year-long caching for hashed assets, brotli or gzip
// chosen from Accept-Encoding and kept after the first request. The files live in memory (hashed,
// vendor imports rewritten: web-assets.ts), so they are routes rather than @fastify/static's folders.
import type { HttpApp } from '../transport-http/api.ts';
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

/** Registers one GET (and HEAD) route per file, `/index.html` as `/`. */
export function webPageRoutes(assets: WebAssets): (app: HttpApp) => void {
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
  return (app) => {
    for (const [pathname, asset] of assets.files) {
      for (const url of pathname === '/' ? ['/', '/index.html'] : [pathname]) {
        app.get(url, (request, reply) => {
          void reply.headers({
            'content-type': asset.contentType,
            etag: asset.etag,
            'cache-control': asset.revalidate ? 'no-cache' : 'public, max-age=31536000, immutable',
            vary: 'Accept-Encoding',
            'content-security-policy': CONTENT_SECURITY_POLICY,
            'x-content-type-options': 'nosniff',
            'referrer-policy': 'no-referrer',
          });
          if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
          const encoding = pickEncoding(request.headers['accept-encoding']);
          if (encoding !== 'identity') void reply.header('content-encoding', encoding);
          return reply.send(bodyFor(pathname, asset, encoding));
        });
      }
    }
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
