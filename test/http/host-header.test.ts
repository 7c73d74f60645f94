// Malformed Host headers (issue 21): parsed strictly once, answered 400 with the error body on every
// route, on a loopback bind (guard on) and on a remote bind (guard off); a duplicate Host is 400 and an
// absolute-form target's authority goes through the same checks (issue 29). Raw node:net sockets, since
// fetch and node:http would refuse or rewrite these headers.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const MALFORMED = [
  'localhost:abc',
  '127.0.0.1:7411.',
  'localhost:7411@evil.com',
  'localhost:7411, evil.com',
  'local host',
  '[::1',
  '[nope]:80',
  'localhost:99999',
  'a/b',
  '999.999.999.999',
];

/** One HTTP/1.1 request over a raw socket; resolves with the status code and the body. */
function rawRequest(port: number, head: string, body = ''): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8').on('data', (d: string) => (text += d));
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    socket.on('error', reject);
    socket.end(`${head}\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
}

const MCP_BODY = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
const requests = (host: string): [string, string, string][] => [
  [
    'POST /mcp',
    `POST /mcp HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\naccept: application/json, ` +
      `text/event-stream\r\nmcp-protocol-version: 2025-06-18`,
    MCP_BODY,
  ],
  ['GET /health', `GET /health HTTP/1.1\r\nhost: ${host}`, ''],
  [
    'POST /tools/search',
    `POST /tools/search HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json`,
    '{"query":"fox"}',
  ],
  ['GET /', `GET / HTTP/1.1\r\nhost: ${host}`, ''],
];

for (const bindHost of ['127.0.0.1', '0.0.0.0']) {
  describe(`malformed Host headers, server bound to ${bindHost}`, () => {
    let s: TestServer;
    before(async () => (s = await startTestServer('', { bindHost })));
    after(async () => s.close());

    it('answers 400 bad_request with the error body naming the header, on /mcp and every other route', async () => {
      for (const host of MALFORMED) {
        for (const [label, head, body] of requests(host)) {
          const r = await rawRequest(s.port, head, body);
          assert.equal(r.status, 400, `${label} with Host ${JSON.stringify(host)}: ${r.body}`);
          const error = (JSON.parse(r.body) as { error: { code: string; message: string } }).error;
          assert.equal(error.code, 'bad_request');
          assert.match(error.message, /Host header/);
        }
      }
      assert.ok(!s.log.some((l) => /internal error/.test(l)), s.log.join('\n'));
    });

    it('answers 400 for a duplicate Host header (RFC 9112 §3.2), whichever comes first', async () => {
      for (const hosts of [
        ['127.0.0.1', 'evil.example'],
        ['evil.example', '127.0.0.1'],
        ['127.0.0.1', '127.0.0.1'],
      ]) {
        const r = await rawRequest(s.port, `GET /health HTTP/1.1\r\nHost: ${hosts[0]}\r\nhost: ${hosts[1]}`);
        assert.equal(r.status, 400, `Host ${hosts.join(' + ')}: ${r.body}`);
        const error = (JSON.parse(r.body) as { error: { code: string; message: string } }).error;
        assert.equal(error.code, 'bad_request');
        assert.match(error.message, /more than one Host header/);
      }
    });

    it("checks an absolute-form target's authority as it checks Host, and serves the path it names", async () => {
      const malformed = await rawRequest(
        s.port,
        'GET http://localhost:7411@evil.com/health HTTP/1.1\r\nhost: 127.0.0.1',
      );
      assert.equal(malformed.status, 400, malformed.body);
      assert.match(malformed.body, /request target/);
      const ftp = await rawRequest(s.port, 'GET ftp://127.0.0.1/health HTTP/1.1\r\nhost: 127.0.0.1');
      assert.equal(ftp.status, 400, ftp.body);
      const foreign = await rawRequest(s.port, 'GET http://evil.example/health HTTP/1.1\r\nhost: 127.0.0.1');
      assert.equal(foreign.status, bindHost === '127.0.0.1' ? 403 : 200, foreign.body);
      const mcp = await rawRequest(
        s.port,
        requests(`127.0.0.1:${s.port}`)[0]![1].replace('POST /mcp', `POST HTTP://LOCALHOST:${s.port}/mcp?x=1`),
        MCP_BODY,
      );
      assert.equal(mcp.status, 200, mcp.body);
      assert.match(mcp.body, /"tools"/);
    });

    it('still serves well-formed Host headers (name, IPv4, IPv6 literal, with and without port)', async () => {
      for (const host of [`127.0.0.1:${s.port}`, 'localhost', `[::1]:${s.port}`, 'LOCALHOST:7411']) {
        const r = await rawRequest(s.port, requests(host)[0]![1], MCP_BODY);
        assert.equal(r.status, 200, `Host ${host}: ${r.body}`);
        assert.match(r.body, /"tools"/);
      }
    });
  });
}
