// `kbctx doctor` on setups that look fine on paper but cannot work: each broken part is a FAIL line
// naming it and what to do, and the command exits 1 (problems found).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { Workspace, type CliResult } from '../helpers/workspace.ts';

const ws = new Workspace('kbctx-doctor-broken-');
let closedPort = 0;
before(async () => {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  closedPort = (probe.address() as AddressInfo).port;
  probe.close();
  await once(probe, 'close');
  ws.write('docs/a.md', '# A\n\nSome text.');
  ws.write('plain-folder/readme.md', 'not a git repository');
  ws.write('ext/broken.mjs', 'throw new Error("broken on import");\n');
});
after(() => ws.cleanup());

async function doctor(toml: string): Promise<CliResult> {
  ws.config(toml);
  return ws.kbctx(['doctor']);
}

function assertFails(r: CliResult, line: RegExp): void {
  assert.match(r.stdout, line, r.stdout + r.stderr);
  assert.equal(r.code, 1, r.stdout + r.stderr);
}

it('a filesystem root that does not exist', async () => {
  assertFails(
    await doctor('[connectors.filesystem.gone]\nroot = "no-such-folder"\n'),
    /^FAIL {2}connectors filesystem:gone: root .*no-such-folder does not exist/m,
  );
});

it('a git url that is not a repository', async () => {
  assertFails(
    await doctor('[connectors.git.notrepo]\nurl = "plain-folder"\ntimeout_secs = 20\n'),
    /^FAIL {2}connectors git:notrepo: .*plain-folder.*not .*a git repository/m,
  );
});

it('an embedding provider that does not answer', async () => {
  const toml =
    `[embedding]\nprovider = "ollama"\nmodel = "nomic-embed-text"\ndims = 8\nurl = ` +
    `"http://127.0.0.1:${closedPort}"\nmax_retries = 0\ntimeout_secs = 5\n`;
  assertFails(await doctor(toml), /^FAIL {2}embeddings ollama:nomic-embed-text: /m);
});

it('a script tool or connector whose file is missing', async () => {
  const r = await doctor(
    '[tools.script.lost]\npath = "tools/lost.lua"\n[connectors.script.feed]\npath = "connectors/feed.lua"\n',
  );
  assertFails(r, /^FAIL {2}scripts {4}tool:lost: .*tools\/lost\.lua/m);
  assert.match(r.stdout, /^FAIL {2}connectors script:feed: .*connectors\/feed\.lua does not exist/m);
});

it('an extension module that fails to load', async () => {
  assertFails(
    await doctor('[extensions]\nmodules = ["./ext/broken.mjs"]\n'),
    /^FAIL {2}extensions .*broken\.mjs.*broken on import/m,
  );
});

it('a healthy setup still passes (once synced: a missing index is a FAIL, test/e2e/index-access.test.ts)', async () => {
  // its own index: the next test syncs with embeddings
  const toml = '[db]\npath = "healthy/kbctx.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n';
  ws.config(toml);
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
  const r = await doctor(toml);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^ok {4}connectors filesystem:docs: /m);
});

it(
  'an embedder that cannot be built: its FAIL, and stored ' +
    'embeddings are not reported as "[embedding] is disabled"',
  async () => {
    ws.config('[embedding]\nprovider = "local"\n[connectors.filesystem.docs]\nroot = "docs"\n');
    const sync = await ws.kbctx(['sync', 'all']);
    assert.equal(sync.code, 0, sync.stdout + sync.stderr);
    const r = await doctor(
      'plugins = ["bundled", "!embedder-local"]\n[embedding]\n' +
        'provider = "local"\n[connectors.filesystem.docs]\nroot = "docs"\n',
    );
    assertFails(r, /^FAIL {2}embeddings \[embedding\] provider = "local": no loaded plugin provides this embedder/m);
    assert.doesNotMatch(r.stdout, /is disabled/);
    assert.match(
      r.stdout,
      /^WARN {2}embeddings \d+ stored embedding\(s\) not checked: the configured embedder could not be built/m,
    );
  },
);
