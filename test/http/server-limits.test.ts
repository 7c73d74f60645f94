// Resource limits over real sockets (issue 10): `/mcp` bodies capped by [server].max_body_bytes on
// Content-Length and while streaming, slow clients cut by the header time-out, and clients that hang
// up mid-request logged at debug level, never as internal errors.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const LIMIT = 65_536;
let s: TestServer;
before(
  async () =>
    (s = await startTestServer(
      `\n[server]\nmax_body_bytes = ${LIMIT}\nheaders_timeout_secs = 1\nrequest_timeout_secs = 2\n`,
    )),
);
after(async () => s.close());

/**
 * Posts `total` bytes in 16 KiB chunks with chunked encoding; or, with `declare`, only announces them
 * in Content-Length and sends one chunk (a server that waits for the rest never answers).
 */
function postStream(path: string, total: number, declare: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (declare) headers['content-length'] = String(total);
    const req = request({ host: '127.0.0.1', port: s.port, method: 'POST', path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (error) => reject(error)); // only reached when no response came first
    const chunk = Buffer.alloc(16_384, 0x20);
    let sent = 0;
    if (declare) return void req.write(chunk);
    const pump = (): void => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('/mcp body limit (defect 3)', () => {
  it('answers 413 from Content-Length before reading the body', async () => {
    const r = await postStream('/mcp', 100 * 1024 * 1024, true);
    assert.equal(r.status, 413);
    assert.equal((JSON.parse(r.body) as { error: { code: string } }).error.code, 'payload_too_large');
  });

  it('answers 413 while streaming a chunked body past the limit, with the same reader as REST', async () => {
    for (const path of ['/mcp', '/tools/search']) {
      const r = await postStream(path, 4 * LIMIT, false);
      assert.equal(r.status, 413, path);
    }
  });

  it('still serves MCP requests under the limit afterwards', async () => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.status, 200);
  });
});

describe('slow clients (defect 9)', () => {
  it('closes a connection whose headers never finish, after headers_timeout_secs', async () => {
    const socket = connect(s.port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (d: string) => (received += d));
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    await new Promise((resolve) => socket.once('close', resolve));
    assert.match(received, /^HTTP\/1\.1 408/);
  });
});

describe('clients that hang up (defect 5)', () => {
  it('logs an aborted request at debug level, not as an internal error', async () => {
    const socket = connect(s.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /tools/search HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":',
    );
    await new Promise<void>((resolve) => socket.end(() => resolve()));
    socket.destroy();
    // The server notices the hang-up asynchronously; wait for its debug line (the event), bounded.
    for (let i = 0; i < 200 && !s.log.some((l) => l.includes('client went away')); i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.ok(
      s.log.some((l) => l.startsWith('debug: client went away')),
      s.log.join('\n'),
    );
    assert.ok(!s.log.some((l) => l.includes('internal error')), s.log.join('\n'));
  });
});
