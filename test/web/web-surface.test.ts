// The web surface over real HTTP, without a browser: the page and its assets (CSP, caching, ETag/304,
// brotli/gzip), what stays an API 404, and the page's two JSON endpoints.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { pickEncoding } from '../../plugins/web/web-page.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
before(async () => (s = await startTestServer()));
after(async () => s.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http, so Accept-Encoding is exactly what the test says (fetch would add and undo its own). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${s.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject).end();
  });
}

const assetPaths = async (): Promise<string[]> => {
  const html = (await get('/')).body.toString('utf8');
  return [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
};

describe('the page and its assets', () => {
  it('GET / is the page with a strict CSP, revalidated on every load', async () => {
    const r = await get('/');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(r.headers['cache-control'], 'no-cache');
    const csp = String(r.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.doesNotMatch(r.body.toString('utf8'), /<script>|<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
  });

  it('assets live under a content hash, cached for a year, compressed with brotli or gzip', async () => {
    const paths = await assetPaths();
    assert.ok(paths.some((p) => /^\/assets\/[0-9a-f]{12}\/main\.js$/.test(p)));
    const main = paths.find((p) => p.endsWith('/main.js'))!;
    const plain = await get(main);
    assert.equal(plain.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(plain.headers['content-encoding'], undefined);
    const br = await get(main, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers['vary'], 'Accept-Encoding');
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    const gz = await get(main, { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gz.body), plain.body);
    assert.ok(br.body.length < plain.body.length);
  });

  it('answers If-None-Match with 304, and HEAD without a body', async () => {
    const first = await get('/');
    const again = await get('/', { 'if-none-match': String(first.headers['etag']) });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    const head = await get('/', {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
  });

  it('serves the vendor modules with their one bare import rewritten', async () => {
    const hooks = (await assetPaths()).find((p) => p.endsWith('/vendor/hooks.js'))!;
    const text = (await get(hooks)).body.toString('utf8');
    assert.match(text, /from"\.\/preact\.js"/);
    assert.doesNotMatch(text, /from\s*"preact"/);
  });

  it('leaves unknown asset paths and other methods to the API (JSON errors)', async () => {
    const missing = await get('/assets/000000000000/nope.js');
    assert.equal(missing.status, 404);
    assert.equal(JSON.parse(missing.body.toString('utf8')).error.code, 'not_found');
    const post = await fetch(`${s.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(post.status, 405); // `/` is a (GET) route of the listener's fastify instance
    assert.equal(post.headers.get('allow'), 'GET');
  });

  it('still refuses a foreign Host on a loopback server (DNS rebinding)', async () => {
    assert.equal((await get('/', { host: 'evil.example' })).status, 403);
  });
});

describe('the page JSON endpoints', () => {
  it('GET /web/info: server facts and index statistics', async () => {
    const info = (await (await fetch(`${s.url}/web/info`)).json()) as {
      mcp_path: string;
      config_file: string;
      search: unknown;
      stats: { sources: Record<string, unknown>[] };
    };
    assert.equal(info['mcp_path'], '/mcp');
    assert.equal(info['config_file'], s.kbctx.config.file);
    assert.deepEqual(info['search'], {
      embedder: null,
      semantic_available: false,
      default_limit: 12,
      max_limit: 100,
      reranker: null,
    });
    assert.deepEqual(
      info.stats.sources.map((x) => [x['source'], x['documents'], x['embedded']]),
      [['filesystem:docs', 3, 0]],
    );
  });

  it('GET /web/documents/:id/chunks: the chunks in order; 404 for an unknown id', async () => {
    const search = (await (
      await fetch(`${s.url}/tools/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"fox"}',
      })
    ).json()) as {
      results: { id: string }[];
    };
    const id = search.results[0]!.id;
    const body = (await (await fetch(`${s.url}/web/documents/${id}/chunks`)).json()) as {
      chunks: { chunk_index: number; document_id: string; text: string }[];
    };
    assert.deepEqual(
      body.chunks.map((c) => [c.chunk_index, c.document_id]),
      [[0, id]],
    );
    assert.match(body.chunks[0]!.text, /quick brown fox/);
    const missing = await fetch(`${s.url}/web/documents/nope/chunks`);
    assert.equal(missing.status, 404);
  });

  it('search accepts explain: the score breakdown per result', async () => {
    const r = await fetch(`${s.url}/tools/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"fox","explain":true}',
    });
    const body = (await r.json()) as { results: { explain: Record<string, unknown> }[]; explain: { terms: string[] } };
    assert.equal(typeof body.results[0]!.explain['keyword_score'], 'number');
    assert.deepEqual(body.explain.terms, ['fox']);
  });
});

describe('pickEncoding', () => {
  it('prefers brotli, then gzip; honours q=0', () => {
    assert.equal(pickEncoding('gzip, deflate, br'), 'br');
    assert.equal(pickEncoding('gzip'), 'gzip');
    assert.equal(pickEncoding('br;q=0, gzip;q=0.5'), 'gzip');
    assert.equal(pickEncoding(undefined), 'identity');
    assert.equal(pickEncoding('identity'), 'identity');
  });
});
