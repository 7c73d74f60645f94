// `kbctx token hash` and doctor's token lines through the real CLI (ADR 0223): the hash of a piped or
// variable-held secret with the line to paste, never an echo of the secret; each token variable set or not.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
before(() => {
  ws = new Workspace('kbctx-token-cli-');
  ws.write('docs/a.md', '# A\n');
});
after(() => ws.cleanup());

const HEX = createHash('sha256').update('s3cret-value').digest('hex');

it('token hash: stdin (one trailing newline dropped) and --env give the hex and a token_sha256 line', async () => {
  const piped = await ws.kbctx(['token', 'hash'], { input: 's3cret-value\n' });
  assert.equal(piped.code, 0, piped.stderr);
  assert.equal(piped.stdout, `${HEX}\n# under [server.tokens.<name>]:\ntoken_sha256 = "${HEX}"\n`);
  const fromEnv = await ws.kbctx(['token', 'hash', '--env', 'MY_SECRET', '--json'], {
    env: { MY_SECRET: 's3cret-value' },
  });
  assert.equal(fromEnv.code, 0, fromEnv.stderr);
  assert.deepEqual(JSON.parse(fromEnv.stdout), { sha256: HEX, toml: `token_sha256 = "${HEX}"` });
  assert.doesNotMatch(piped.stdout + fromEnv.stdout, /s3cret/);
  const empty = await ws.kbctx(['token', 'hash'], { input: '' });
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /no secret on stdin/);
  const unset = await ws.kbctx(['token', 'hash', '--env', 'NOT_SET_ANYWHERE']);
  assert.equal(unset.code, 2);
  assert.match(unset.stderr, /NOT_SET_ANYWHERE is not set or empty/);
});

it('the hash it prints is a token the config accepts', async () => {
  ws.config(`[connectors.filesystem.docs]\nroot = "docs"\n[server.tokens.ci]\ntoken_sha256 = "${HEX}"\n`);
  const doctor = await ws.kbctx(['doctor']);
  assert.match(doctor.stdout, /ok +server +hashed token\(s\): ci/);
});

it('doctor names each token variable, set or not, never its value', async () => {
  ws.config(
    `[connectors.filesystem.docs]\nroot = "docs"\n[server]\n` +
      `auth_token_env = "MAIN_T"\n[server.tokens.ci]\ntoken_env = "CI_T"\n`,
  );
  const doctor = await ws.kbctx(['doctor'], { env: { CI_T: 'ci-value-xyz', MAIN_T: '' } });
  assert.match(doctor.stdout, /FAIL +server +token 'default': MAIN_T is not set/);
  assert.match(doctor.stdout, /export MAIN_T=<a long random token>/);
  assert.match(doctor.stdout, /ok +server +token 'ci': CI_T is set/);
  assert.doesNotMatch(doctor.stdout + doctor.stderr, /ci-value-xyz/);
  assert.notEqual(doctor.code, 0);
});

it('a plain token in the config is refused at load, naming the key path', async () => {
  ws.config(`[connectors.filesystem.docs]\nroot = "docs"\n[server.tokens.ci]\ntoken = "plain-text"\n`);
  const r = await ws.kbctx(['serve', 'mcp', '--bind', '127.0.0.1:0']);
  assert.equal(r.code, 3);
  assert.match(r.stderr, /server\.tokens\.ci\.token is refused: a plain secret never goes in the config/);
  assert.doesNotMatch(r.stderr, /plain-text/);
});
