// The Host guard remembers the last accepted Host value (ADR 0132: the strict parse once per distinct
// value, not per request). What it answers must not depend on what it saw before: a refused Host after
// an accepted one, the accepted one again, a bad Origin beside a remembered Host, on both binds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHostGuard } from '../../plugins/transport-http/host-guard.ts';

const forbidden = { code: 'forbidden' };
const badRequest = { code: 'bad_request' };

describe('createHostGuard over repeated requests', () => {
  it('loopback bind: each request is judged on its own headers', () => {
    const guard = createHostGuard({ enabled: true, allowedHosts: ['kb.internal'], corsOrigins: [] });
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(guard({ host: '127.0.0.1:7411' }), { hostname: '127.0.0.1', authority: '127.0.0.1:7411' });
      assert.throws(() => guard({ host: 'evil.example' }), forbidden);
      assert.throws(() => guard({ host: 'evil.example' }), forbidden, 'a refused Host is refused again');
      assert.throws(() => guard({ host: 'localhost:abc' }), badRequest);
      assert.throws(
        () => guard({ host: '127.0.0.1:7411', origin: 'http://evil.example' }),
        forbidden,
        'the Origin is checked beside a remembered Host',
      );
      assert.deepEqual(guard({ host: '127.0.0.1:7411', origin: 'http://localhost:6274' }), {
        hostname: '127.0.0.1',
        authority: '127.0.0.1:7411',
      });
      assert.deepEqual(guard({ host: 'KB.internal' }), { hostname: 'kb.internal', authority: 'kb.internal' });
      assert.throws(() => guard({}), forbidden, 'no Host on a loopback bind');
    }
  });

  it('remote bind: any well-formed Host, a malformed one is 400 every time', () => {
    const guard = createHostGuard({ enabled: false, allowedHosts: [], corsOrigins: [] });
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(guard({ host: 'kb.example.com:8080' }), {
        hostname: 'kb.example.com',
        authority: 'kb.example.com:8080',
      });
      assert.throws(() => guard({ host: 'kb.example.com:8080@evil' }), badRequest);
      assert.equal(guard({}), undefined);
    }
  });
});
