// `[server.tokens.<name>]` (ADR 0223) as the config loader checks it: hashed and variable-held secrets, scopes and
// limits parsed; a plain secret, a malformed hash, both or neither secret key, bad limits and a broken scope glob
// refused naming the key.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import '../../../registry/bundled.ts'; // the plugins owning [server] (ADR 0164)
import { KbctxError } from '../../../core/domain/errors.ts';
import { parseConfig } from '../../../core/config/load-config.ts';
import { serverConfigOf } from '../../../plugins/transport-http/api.ts';
import { resolveTokens } from '../../../plugins/transport-http/token-set.ts';

const cwd = mkdtempSync(path.join(tmpdir(), 'kbctx-tokens-'));
after(() => rmSync(cwd, { recursive: true, force: true }));
const HASH = 'a'.repeat(64);

const parse = (toml: string) => serverConfigOf(parseConfig(toml, { file: 'config/kbctx.toml', cwd, env: {} }));

function refusal(toml: string): string {
  try {
    parse(toml);
  } catch (error) {
    assert.ok(error instanceof KbctxError && error.code === 'config_error', String(error));
    return error.message;
  }
  assert.fail('expected a config error');
}

it('parses hashed and variable-held tokens with their scopes and limits, next to auth_token_env', () => {
  const server = parse(`[server]
auth_token_env = "KBCTX_TOKEN"
max_concurrent = 8
[server.tokens.ci]
token_sha256 = "${HASH.toUpperCase()}"
sources = ["git:*"]
paths = ["public/**", "!public/drafts/**"]
meta = { team = "infra", tier = 2, public = true }
tools = ["search", "get", "team-*"]
max_concurrent = 2
requests_per_minute = 120
[server.tokens.ops]
token_env = "OPS_TOKEN"
admin = true
`);
  assert.equal(server.authTokenEnv, 'KBCTX_TOKEN');
  assert.equal(server.maxConcurrent, 8);
  assert.equal(server.requestsPerMinute, null);
  assert.deepEqual(server.tokens, [
    {
      name: 'ci',
      secret: { sha256: HASH },
      scope: {
        sources: ['git:*'],
        paths: ['public/**', '!public/drafts/**'],
        meta: { team: 'infra', tier: 2, public: true },
        tools: ['search', 'get', 'team-*'],
        admin: false,
      },
      limits: { maxConcurrent: 2, requestsPerMinute: 120 },
    },
    {
      name: 'ops',
      secret: { env: 'OPS_TOKEN' },
      scope: { admin: true },
      limits: { maxConcurrent: null, requestsPerMinute: null },
    },
  ]);
  const tokens = resolveTokens(server, { KBCTX_TOKEN: 'k', OPS_TOKEN: 'o' });
  assert.deepEqual(
    tokens.map((t) => [t.name, t.scope.admin, t.limits.maxConcurrent]),
    [
      ['default', true, 8],
      ['ci', false, 2],
      ['ops', true, null],
    ],
  );
});

it('refuses a plain secret in the config, naming the key and what to write instead', () => {
  const message = refusal('[server.tokens.ci]\ntoken = "plain-secret"\n');
  assert.match(message, /server\.tokens\.ci\.token is refused: a plain secret never goes in the config/);
  assert.match(message, /kbctx token hash/);
  assert.doesNotMatch(message, /plain-secret/);
});

it('refuses a malformed hash, both or neither secret key, bad limits and unknown keys, naming the key path', () => {
  assert.match(
    refusal('[server.tokens.ci]\ntoken_sha256 = "abc"\n'),
    /server\.tokens\.ci\.token_sha256 must be 64 hex/,
  );
  assert.match(
    refusal(`[server.tokens.ci]\ntoken_sha256 = "${HASH}"\ntoken_env = "X"\n`),
    /server\.tokens\.ci needs exactly one of token_env or token_sha256/,
  );
  assert.match(refusal('[server.tokens.ci]\nadmin = true\n'), /server\.tokens\.ci needs exactly one/);
  assert.match(
    refusal(`[server.tokens.ci]\ntoken_sha256 = "${HASH}"\nmax_concurrent = 0\n`),
    /server\.tokens\.ci\.max_concurrent must be at least 1/,
  );
  assert.match(
    refusal(`[server.tokens.ci]\ntoken_sha256 = "${HASH}"\nrequests_per_minute = 1.5\n`),
    /server\.tokens\.ci\.requests_per_minute must be a whole number/,
  );
  assert.match(
    refusal(`[server.tokens.ci]\ntoken_sha256 = "${HASH}"\nadmn = true\n`),
    /server\.tokens\.ci\.admn is not a known key/,
  );
  assert.match(
    refusal(`[server.tokens.ci]\ntoken_sha256 = "${HASH}"\nmeta = { team = ["a"] }\n`),
    /server\.tokens\.ci\.meta\.team must be a string, a number or a boolean/,
  );
  assert.match(refusal('[server]\nmax_concurrent = 4\n'), /server\.max_concurrent limits auth_token_env’s token/);
  assert.match(
    refusal(`[server]\nauth_token_env = "T"\n[server.tokens.default]\ntoken_sha256 = "${HASH}"\n`),
    /server\.tokens\.default is auth_token_env’s token/,
  );
});

it('names the token and its variable when the secret is missing, or two tokens share one; never the secret', () => {
  const server = parse(`[server.tokens.ci]\ntoken_env = "CI_TOKEN"\n[server.tokens.bot]\ntoken_env = "BOT_TOKEN"\n`);
  assert.throws(
    () => resolveTokens(server, { BOT_TOKEN: 'b' }),
    (e: unknown) =>
      e instanceof KbctxError &&
      e.code === 'config_error' &&
      /\[server\.tokens\.ci\]\.token_env names CI_TOKEN/.test(e.message),
  );
  assert.throws(
    () => resolveTokens(server, { CI_TOKEN: 'same-secret', BOT_TOKEN: 'same-secret' }),
    (e: unknown) =>
      e instanceof KbctxError &&
      /\[server\.tokens\.bot\] has the same secret as token 'ci'/.test(e.message) &&
      !/same-secret/.test(e.message),
  );
});

it('names a broken glob of a scope at load, with its key path (not on every read of the token)', () => {
  assert.match(
    refusal(`[server.tokens.ci]\ntoken_env = "CI"\npaths = ["docs/**", "a/[b"]\n`),
    /server\.tokens\.ci\.paths 'a\/\[b' is not a valid glob: /,
  );
  assert.match(
    refusal(`[server.tokens.ci]\ntoken_env = "CI"\nsources = ["{git"]\n`),
    /server\.tokens\.ci\.sources '\{git' is not a valid glob: /,
  );
  const ok = parse(`[server.tokens.ci]\ntoken_env = "CI"\nsources = ["git:*"]\npaths = ["docs/**", "!**/x"]\n`);
  assert.deepEqual(ok.tokens[0]?.scope.paths, ['docs/**', '!**/x']);
});
