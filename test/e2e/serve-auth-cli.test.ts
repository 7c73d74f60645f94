// `kbctx serve mcp` exposure rules as a real process: a non-loopback bind without a token refuses to
// start and says how to set one; allow_unauthenticated starts it with a warning; a token is enforced.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, it } from 'node:test';
import { BASE_CONFIG, DOCS } from '../helpers/server.ts';
import { KBCTX_BIN, Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
before(() => {
  ws = new Workspace('kbctx-auth-');
  for (const [file, text] of Object.entries(DOCS)) ws.write(file, text);
});
after(() => ws.cleanup());

/** Starts the server, resolves with its base URL and stderr once it prints the MCP endpoint; stops it after `use`. */
async function withServer(
  args: string[],
  env: NodeJS.ProcessEnv,
  use: (url: string, stderr: string) => Promise<void>,
): Promise<void> {
  const child = spawn(process.execPath, [KBCTX_BIN, ...args], {
    cwd: ws.dir,
    env: { ...process.env, KBCTX_CONFIG: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /MCP endpoint: http:\/\/[^:]+:(\d+)\/mcp/.exec(stdout);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    void exit.then((code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
  try {
    await use(url, stderr);
  } finally {
    child.kill('SIGTERM');
    await exit;
  }
}

it('refuses a 0.0.0.0 bind without a token, naming auth_token_env and allow_unauthenticated', async () => {
  ws.config(BASE_CONFIG);
  const r = await ws.kbctx(['serve', 'mcp', '--bind', '0.0.0.0:0']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /refusing to listen on 0\.0\.0\.0 without authentication/);
  assert.match(r.stderr, /auth_token_env = "KBCTX_TOKEN"/);
  assert.match(r.stderr, /allow_unauthenticated = true/);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
});

it('refuses to start when the token variable is not set', async () => {
  ws.config(`${BASE_CONFIG}\n[server]\nauth_token_env = "KBCTX_TEST_TOKEN"\n`);
  const r = await ws.kbctx(['serve', 'mcp', '--bind', '0.0.0.0:0'], { env: { KBCTX_TEST_TOKEN: '' } });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /KBCTX_TEST_TOKEN/);
});

it('starts with allow_unauthenticated = true and prints a warning', async () => {
  ws.config(`${BASE_CONFIG}\n[server]\nallow_unauthenticated = true\n`);
  await withServer(['serve', 'mcp', '--bind', '0.0.0.0:0'], {}, async (url, stderr) => {
    assert.match(stderr, /warning: listening on 0\.0\.0\.0 without authentication/);
    assert.equal((await fetch(`${url}/tools/sources`)).status, 200);
  });
});

it('enforces the token from the environment on a 0.0.0.0 bind', async () => {
  ws.config(`${BASE_CONFIG}\n[server]\nauth_token_env = "KBCTX_TEST_TOKEN"\n`);
  await withServer(['serve', 'mcp', '--bind', '0.0.0.0:0'], { KBCTX_TEST_TOKEN: 'tok-123' }, async (url) => {
    assert.equal((await fetch(`${url}/tools/sources`)).status, 401);
    assert.equal((await fetch(`${url}/tools/sources`, { headers: { authorization: 'Bearer tok-123' } })).status, 200);
    assert.equal((await fetch(`${url}/health`)).status, 200);
  });
});
