// Bearer-token authentication ([server].auth_token_env) over real sockets: 401 with the error body and
// a WWW-Authenticate challenge on REST and /mcp, GET /health exempt, and the official MCP client
// connecting with the token and refused without it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const TOKEN = 's3cret-token-for-tests';
let s: TestServer;
before(async () => (s = await startTestServer('', { authToken: TOKEN })));
after(async () => s.close());

const call = (path: string, init: RequestInit = {}): Promise<Response> => fetch(`${s.url}${path}`, init);
const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

describe('REST with a token configured', () => {
  it('answers 401 with the error body and a Bearer challenge without a token or with a wrong one', async () => {
    for (const headers of [
      {},
      bearer('wrong'),
      bearer(`${TOKEN}x`),
      { authorization: TOKEN },
      { authorization: `Basic ${TOKEN}` },
    ]) {
      for (const [method, path] of [
        ['GET', '/tools/sources'],
        ['POST', '/tools/search'],
        ['GET', '/no/such/route'],
        ['POST', '/health'],
      ] as const) {
        const body = method === 'POST' ? JSON.stringify({ query: 'fox' }) : null;
        const res = await call(path, { method, headers: { ...headers, 'content-type': 'application/json' }, body });
        assert.equal(res.status, 401, `${method} ${path} ${JSON.stringify(headers)}`);
        assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer /);
        const error = ((await res.json()) as { error: { code: string; message: string } }).error;
        assert.equal(error.code, 'unauthorized');
        assert.match(error.message, /Authorization: Bearer/);
      }
    }
  });

  it('serves requests that carry the token', async () => {
    const res = await call('/tools/search', {
      method: 'POST',
      headers: { ...bearer(TOKEN), 'content-type': 'application/json' },
      body: '{"query":"fox"}',
    });
    assert.equal(res.status, 200);
    assert.equal((await call('/tools/sources', { headers: { authorization: `bearer  ${TOKEN}` } })).status, 200);
  });

  it('answers a preflight before auth, and a refusal to a browser with its CORS headers', async () => {
    const origin = 'http://localhost:6274';
    const pre = await call('/mcp', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
    assert.equal(pre.headers.get('access-control-allow-headers'), 'authorization');
    for (const path of ['/mcp', '/tools/search']) {
      const refused = await call(path, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(refused.status, 401, path);
      assert.equal(refused.headers.get('access-control-allow-origin'), '*', path);
      assert.match(refused.headers.get('access-control-expose-headers') ?? '', /WWW-Authenticate/, path);
    }
  });

  it('leaves GET /health open for load balancers', async () => {
    assert.equal((await call('/health')).status, 200);
  });
});

describe('MCP with a token configured', () => {
  it('refuses the official client without the token (HTTP 401)', async () => {
    const client = new Client({ name: 'no-token', version: '1.0.0' });
    await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`))), (error: Error) =>
      /401|nauthorized/.test(`${error.message} ${String((error as { code?: unknown }).code)}`),
    );
    const raw = await call('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    assert.equal(raw.status, 401);
    assert.match(raw.headers.get('www-authenticate') ?? '', /^Bearer /);
  });

  it('serves the official client that sends the token', async () => {
    const client = new Client({ name: 'with-token', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: bearer(TOKEN) } }),
    );
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'search'));
    await client.close();
  });
});
