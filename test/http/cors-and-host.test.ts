// CORS (preflight, allow/expose headers, configurable origins) and DNS-rebinding protection on a
// loopback bind (Host and Origin checks → 403 with the error body). Raw node:http so Host can be forged.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function raw(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('default policy (CORS for any origin, loopback bind)', () => {
  let s: TestServer;
  before(async () => (s = await startTestServer()));
  after(async () => s.close());

  it('answers a preflight with the allow headers', async () => {
    const r = await raw(s.port, 'OPTIONS', '/mcp', {
      Origin: 'http://localhost:6274',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type, mcp-session-id',
    });
    assert.equal(r.status, 204);
    assert.equal(r.headers['access-control-allow-origin'], '*');
    assert.match(String(r.headers['access-control-allow-methods']), /POST/);
    assert.match(String(r.headers['access-control-allow-headers']), /mcp-session-id/);
    assert.match(String(r.headers['access-control-expose-headers']), /Mcp-Session-Id/);
  });

  it('adds CORS headers to normal responses', async () => {
    const r = await raw(s.port, 'GET', '/health', { Origin: 'http://localhost:6274' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['access-control-allow-origin'], '*');
    assert.match(String(r.headers['access-control-expose-headers']), /Mcp-Session-Id/);
  });

  it(
    'answers a preflight exactly: headers, 204 with ' +
      'Content-Length 0; 400 without an Origin or a requested ' +
      'method',
    async () => {
      const r = await raw(s.port, 'OPTIONS', '/tools/search', {
        Origin: 'http://localhost:6274',
        'Access-Control-Request-Method': 'POST',
      });
      assert.equal(r.status, 204);
      assert.equal(r.headers['content-length'], '0');
      assert.equal(r.body, '');
      assert.equal(r.headers['access-control-allow-methods'], 'GET, POST, DELETE, OPTIONS');
      assert.equal(r.headers['access-control-max-age'], '86400');
      assert.equal(r.headers['access-control-allow-headers'], undefined);
      assert.equal(r.headers['vary'], 'Access-Control-Request-Headers');
      for (const headers of [
        {},
        { Origin: 'http://localhost:6274' },
        { 'Access-Control-Request-Method': 'POST' },
      ] as Record<string, string>[]) {
        const bad = await raw(s.port, 'OPTIONS', '/mcp', headers);
        assert.equal(bad.status, 400, JSON.stringify(headers));
        assert.equal(bad.body, 'Invalid Preflight Request');
        assert.match(String(bad.headers['content-type']), /^text\/plain/);
      }
    },
  );

  it('rejects a foreign Host (DNS rebinding) with 403 and the error body, on REST and MCP', async () => {
    for (const path of ['/health', '/mcp']) {
      const mcp = path === '/mcp';
      const r = await raw(
        s.port,
        mcp ? 'POST' : 'GET',
        path,
        { Host: 'evil.example.com:80', 'content-type': 'application/json' },
        mcp ? '{}' : undefined,
      );
      assert.equal(r.status, 403, path);
      assert.equal((JSON.parse(r.body) as { error: { code: string } }).error.code, 'forbidden');
    }
  });

  it('rejects a foreign Origin with 403, accepts loopback ones', async () => {
    const bad = await raw(s.port, 'GET', '/health', { Origin: 'http://evil.example.com' });
    assert.equal(bad.status, 403);
    assert.match((JSON.parse(bad.body) as { error: { message: string } }).error.message, /cors_origins/);
    for (const origin of ['http://localhost:6274', 'http://127.0.0.1:3000', 'http://[::1]:8080']) {
      assert.equal((await raw(s.port, 'GET', '/health', { Origin: origin })).status, 200, origin);
    }
    assert.equal((await raw(s.port, 'GET', '/health', { Host: `localhost:${s.port}` })).status, 200);
  });
});

describe('DNS rebinding with names that only look like loopback (issue 10, defect 2)', () => {
  let s: TestServer;
  before(async () => (s = await startTestServer()));
  after(async () => s.close());

  it('rejects 127.0.0.1.evil.com and 127.evil.com as Host with a matching Origin, on REST and MCP', async () => {
    for (const name of ['127.0.0.1.evil.com', '127.evil.com', '127.0.0.1.nip.io', 'a.localhost', '127.0.0.256']) {
      for (const path of ['/tools/sources', '/mcp']) {
        const mcp = path === '/mcp';
        const headers = {
          Host: `${name}:${s.port}`,
          Origin: `http://${name}:${s.port}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        };
        const r = await raw(
          s.port,
          mcp ? 'POST' : 'GET',
          path,
          headers,
          mcp ? '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' : undefined,
        );
        // 127.0.0.256 is no host at all (a bad IPv4 literal to URL parsers): a malformed Host, 400 (issue 21).
        const [status, code] = name === '127.0.0.256' ? [400, 'bad_request'] : [403, 'forbidden'];
        assert.equal(r.status, status, `${name} ${path}`);
        assert.equal((JSON.parse(r.body) as { error: { code: string } }).error.code, code);
      }
    }
  });

  it('accepts real loopback literals: any 127.x.y.z, localhost and [::1]', async () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '[::1]']) {
      assert.equal((await raw(s.port, 'GET', '/tools/sources', { Host: `${host}:${s.port}` })).status, 200, host);
    }
  });
});

describe('configured policy', () => {
  let s: TestServer;
  before(
    async () =>
      (s = await startTestServer(
        '\n[server]\ncors_origins = ["https://app.example.com"]\nallowed_hosts = ["kbctx.internal"]\n',
      )),
  );
  after(async () => s.close());

  it('echoes an allowed origin and omits CORS headers for others', async () => {
    const ok = await raw(s.port, 'GET', '/health', { Origin: 'https://app.example.com' });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers['access-control-allow-origin'], 'https://app.example.com');
    const local = await raw(s.port, 'GET', '/health', { Origin: 'http://localhost:5173' });
    assert.equal(local.status, 200);
    assert.equal(local.headers['access-control-allow-origin'], undefined);
  });

  it(
    'answers Vary: Origin (with or without an Origin), and a ' +
      'preflight from any allowed origin, echoing only listed ones',
    async () => {
      const none = await raw(s.port, 'GET', '/health', {});
      assert.equal(none.headers['vary'], 'Origin');
      assert.equal(none.headers['access-control-allow-origin'], undefined);
      const ok = await raw(s.port, 'GET', '/health', { Origin: 'https://app.example.com' });
      assert.equal(ok.headers['vary'], 'Origin');
      assert.equal(
        ok.headers['access-control-expose-headers'],
        'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate',
      );
      const local = await raw(s.port, 'GET', '/health', { Origin: 'http://localhost:5173' });
      assert.equal(
        local.headers['access-control-expose-headers'],
        'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate',
      );
      const pre = await raw(s.port, 'OPTIONS', '/mcp', {
        Origin: 'https://app.example.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
      });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers['access-control-allow-origin'], 'https://app.example.com');
      assert.equal(pre.headers['access-control-allow-headers'], 'authorization');
      assert.equal(pre.headers['vary'], 'Origin, Access-Control-Request-Headers');
      const other = await raw(s.port, 'OPTIONS', '/mcp', {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
      });
      assert.equal(other.status, 204);
      assert.equal(other.headers['access-control-allow-origin'], undefined);
    },
  );

  it('accepts a Host from allowed_hosts', async () => {
    assert.equal((await raw(s.port, 'GET', '/health', { Host: 'kbctx.internal:7331' })).status, 200);
    assert.equal((await raw(s.port, 'GET', '/health', { Host: 'other.internal' })).status, 403);
  });
});

describe('CORS disabled', () => {
  let s: TestServer;
  before(async () => (s = await startTestServer('\n[server]\ncors_enabled = false\n')));
  after(async () => s.close());

  it('sends no CORS headers and no preflight answer', async () => {
    const r = await raw(s.port, 'GET', '/health', { Origin: 'http://localhost:6274' });
    assert.equal(r.headers['access-control-allow-origin'], undefined);
    const pre = await raw(s.port, 'OPTIONS', '/health', {
      Origin: 'http://localhost:6274',
      'Access-Control-Request-Method': 'GET',
    });
    assert.equal(pre.status, 405);
  });
});
