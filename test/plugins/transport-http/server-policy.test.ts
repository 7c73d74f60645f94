// transport-http's server policy (ADR 0191): `[server] bind` parsing and the exposure policy, which its
// contract entry hands out on demand (`loadServerPolicy()`) and the package's main still exports.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { loadServerPolicy, type ServerConfig } from '../../../plugins/transport-http/api.ts';
import * as kbctx from '../../../registry/index.ts';
import { KbctxError } from '../../../core/api/plugin.ts';

const server = (over: Partial<ServerConfig>): ServerConfig =>
  ({
    bind: '127.0.0.1:7331',
    authTokenEnv: null,
    tokens: [],
    maxConcurrent: null,
    requestsPerMinute: null,
    allowUnauthenticated: false,
    ...over,
  }) as ServerConfig;

it('loadServerPolicy() parses binds and refuses an open remote bind, naming the keys', async () => {
  const { parseBind, checkExposure, isLoopbackHost, toHttpUrl } = await loadServerPolicy();
  assert.deepEqual(parseBind('[::1]:0'), { host: '::1', port: 0 });
  assert.throws(
    () => parseBind('nowhere'),
    (e: unknown) => e instanceof KbctxError && e.code === 'bad_request',
  );
  assert.equal(isLoopbackHost('127.0.0.1.evil.com'), false);
  assert.equal(toHttpUrl('::1', 7331), 'http://[::1]:7331');
  assert.deepEqual(checkExposure(server({}), '127.0.0.1', {}), { tokens: [], warning: null });
  assert.throws(
    () => checkExposure(server({}), '0.0.0.0', {}),
    (e: unknown) => e instanceof KbctxError && e.code === 'config_error' && /auth_token_env/.test(e.message),
  );
  const { tokens, warning } = checkExposure(server({ authTokenEnv: 'TOK' }), '0.0.0.0', { TOK: 't' });
  assert.equal(warning, null);
  assert.deepEqual(
    tokens.map((t) => [t.name, t.digest.toString('hex'), t.scope]),
    [['default', createHash('sha256').update('t').digest('hex'), { admin: true }]],
  );
});

it("the package's main still exports the policy's functions, the same ones", async () => {
  const policy = await loadServerPolicy();
  assert.equal(kbctx.parseBind, policy.parseBind);
  assert.equal(kbctx.checkExposure, policy.checkExposure);
  assert.equal(kbctx.isLoopbackHost, policy.isLoopbackHost);
  assert.equal(kbctx.toHttpUrl, policy.toHttpUrl);
});
