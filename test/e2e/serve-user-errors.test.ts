// User mistakes around `kbctx serve` read as what they are (issue 29 item 8): an address in use, a
// malformed --bind or [server].bind, a token variable that is not set, each with its own message and
// exit code and no `plugin '…' failed in hook …` prefix; `[server]` is checked before the index is
// opened or synced. A third-party plugin's user-facing KbctxError keeps its message, naming the plugin
// in a trailing hint; an unexpected error keeps the hook prefix.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, Workspace } from '../helpers/workspace.ts';

const BASE = `[db]
path = "data/kb.sqlite"

[connectors.filesystem.docs]
root = "docs"
`;
const KBCTX = JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'core/index.ts')).href);

let ws: Workspace;
before(() => {
  ws = new Workspace('kbctx-serve-errors-');
  ws.write('docs/a.md', '# Hello\n\nhello world\n');
  ws.write(
    'plugins/needs-key.mjs',
    `import { configError } from ${KBCTX};
export default { name: 'needs-key', version: '1.0.0', kbctx: '^0.2', apply(kernel) {
  kernel.hooks.boot.tapPromise('needs-key', async () => {
    throw configError('[plugin.needs-key] api_key is missing: set it to your Acme key'); });
} };
`,
  );
  ws.write(
    'plugins/crashes.mjs',
    `export default { name: 'crashes', version: '1.0.0', kbctx: '^0.2', apply(kernel) {
  kernel.hooks.boot.tapPromise('crashes', async () => { throw new TypeError('x is not a function'); });
} };
`,
  );
});
after(() => ws.cleanup());

/**
 * Runs the CLI with `config` as its config file in a fresh data folder; `synced`: whether an index exists afterwards.
 */
async function run(name: string, config: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  ws.remove('data');
  ws.write(`${name}.toml`, config);
  const r = await ws.kbctx(['-c', `${name}.toml`, ...args], { env });
  return { ...r, indexed: existsSync(ws.path('data/kb.sqlite')) };
}

describe('kbctx serve: user errors in their own words', () => {
  let busy: Server;
  before(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  });
  after(() => new Promise<void>((resolve) => busy.close(() => resolve())));

  it('an address in use: exit 7, the address and the fix, no hook prefix', async () => {
    const port = (busy.address() as AddressInfo).port;
    const r = await run('busy', BASE, ['serve', 'mcp', '--no-watch', '--bind', `127.0.0.1:${port}`]);
    assert.equal(r.code, 7, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `^error: cannot listen on 127\\.0\\.0\\.1:${port}: the address is already in use \\(set ` +
          `\\[server\\]\\.bind or --bind`,
        'm',
      ),
    );
    assert.doesNotMatch(r.stderr, /failed in hook|plugin '/);
  });

  it('a malformed --bind: exit 2 naming the flag, before the index is opened or synced', async () => {
    const r = await run('bad-flag', BASE, ['serve', 'mcp', '--no-watch', '--bind', 'nonsense']);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, "error: --bind: bind address must look like 127.0.0.1:7331 or [::1]:7331, got 'nonsense'\n");
    assert.equal(r.indexed, false, 'no index was created, so nothing was synced');
  });

  it('a malformed [server].bind: exit 3 naming the key, before any sync', async () => {
    const r = await run('bad-key', `${BASE}\n[server]\nbind = "what"\n`, ['serve', 'mcp', '--no-watch']);
    assert.equal(r.code, 3, r.stderr);
    assert.equal(
      r.stderr,
      "error: [server].bind: bind address must look like 127.0.0.1:7331 or [::1]:7331, got 'what'\n",
    );
    assert.equal(r.indexed, false);
  });

  it('a token variable that is not set: exit 3 naming it, before any sync', async () => {
    const r = await run(
      'no-token',
      `${BASE}\n[server]\nbind = "127.0.0.1:0"\nauth_token_env = "KBCTX_TEST_UNSET_TOKEN"\n`,
      ['serve', 'mcp', '--no-watch'],
      { KBCTX_TEST_UNSET_TOKEN: '' },
    );
    assert.equal(r.code, 3, r.stderr);
    assert.equal(
      r.stderr,
      'error: [server].auth_token_env names KBCTX_TEST_UNSET_TOKEN, but that environment variable is not set or ' +
        'empty; export KBCTX_TEST_UNSET_TOKEN=<a long random token>\n',
    );
    assert.equal(r.indexed, false);
  });

  it('an open remote bind without a token: exit 3, before any sync', async () => {
    const r = await run('open', BASE, ['serve', 'mcp', '--no-watch', '--bind', '0.0.0.0:0']);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /^error: refusing to listen on 0\.0\.0\.0 without authentication/);
    assert.equal(r.indexed, false);
  });
});

describe("a plugin's errors through the CLI", () => {
  it("a third-party plugin's config error: its own message, the plugin in a trailing hint, exit 3", async () => {
    const r = await run('needs-key', `plugins = ["bundled", "./plugins/needs-key.mjs"]\n${BASE}`, ['search', 'hello']);
    assert.equal(r.code, 3, r.stderr);
    assert.equal(
      r.stderr,
      "error: [plugin.needs-key] api_key is missing: set it to your Acme key (from plugin 'needs-key')\n",
    );
  });

  it('an unexpected error keeps the prefix naming plugin and hook', async () => {
    const r = await run('crashes', `plugins = ["bundled", "./plugins/crashes.mjs"]\n${BASE}`, ['search', 'hello']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, "error: plugin 'crashes' failed in hook boot: x is not a function\n");
  });
});
