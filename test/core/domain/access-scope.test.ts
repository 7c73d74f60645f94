// mayAdminister: the one admin rule REST's `requireAdmin` (GET /sync/status, POST /sync, /metrics) and MCP's
// `kbctx://sync/status` share (ADR 0223).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { mayAdminister, type AccessScope } from '../../../core/domain/access-scope.ts';

it('a token with the admin scope, or a request no token scopes, may administer', () => {
  assert.equal(mayAdminister(undefined), true);
  assert.equal(mayAdminister({ admin: true }), true);
  assert.equal(mayAdminister({ admin: true, sources: ['git:*'], tools: ['search'] }), true);
});

it('a scoped token without admin = true may not, whatever its other scopes', () => {
  const scopes: AccessScope[] = [
    {},
    { admin: false },
    { sources: ['filesystem:*'] },
    { tools: ['*'] },
    { paths: ['**'] },
  ];
  for (const scope of scopes) assert.equal(mayAdminister(scope), false, JSON.stringify(scope));
});
