// Ordinary user errors exit with the README's codes (2 usage, 3 config, 7 conflict) and a message naming
// what was wrong, never exit 1 with "this is a bug"; the launcher passes a child's signal on as 128+n.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { constants } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { KBCTX_BIN, Workspace, type CliResult } from '../helpers/workspace.ts';

let ws: Workspace;
before(async () => {
  ws = new Workspace('kbctx-exit-');
  ws.write('docs/a.md', '# Alpha\n\nSome text.\n');
  ws.config('[connectors.filesystem.docs]\nroot = "docs"\n');
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
});
after(() => ws.cleanup());

function assertUserError(r: CliResult, code: number, message: RegExp): void {
  assert.doesNotMatch(r.stderr, /bug|internal error|\n\s+at /, r.stderr);
  assert.match(r.stderr, message);
  assert.equal(r.code, code, r.stderr);
}

describe('exit codes of ordinary user errors', () => {
  it('export --output into a missing folder or onto a folder: usage (2)', async () => {
    assertUserError(
      await ws.kbctx(['export', '--output', 'nowhere/out.json']),
      2,
      /--output nowhere\/out\.json: the folder .*nowhere does not exist/,
    );
    ws.write('folder/keep.txt', '');
    assertUserError(await ws.kbctx(['export', '--output', 'folder']), 2, /--output folder: .*is a folder/);
  });

  it('a [db] path under a file: config (3)', async () => {
    ws.write('plain.txt', 'not a folder');
    ws.write('under-file.toml', '[db]\npath = "plain.txt/kb.sqlite"\n');
    assertUserError(await ws.kbctx(['-c', 'under-file.toml', 'stats']), 3, /plain\.txt.* is a file, not a folder/);
  });

  it('a [db] path that is a device or a folder: config (3), as every other unusable path', async () => {
    ws.write('dev-null.toml', '[db]\npath = "/dev/null"\n[connectors.filesystem.docs]\nroot = "docs"\n');
    for (const args of [['stats'], ['sync', 'all']])
      assertUserError(
        await ws.kbctx(['-c', 'dev-null.toml', ...args]),
        3,
        /cannot open the index at \/dev\/null: it is not a regular file/,
      );
    ws.write('folder-db.toml', '[db]\npath = "docs"\n');
    assertUserError(
      await ws.kbctx(['-c', 'folder-db.toml', 'stats']),
      3,
      /cannot open the index at .*docs: it is a folder/,
    );
  });

  it('migrate --to a URL that is not postgres://: usage (2), and no folder named after the scheme', async () => {
    assertUserError(
      await ws.kbctx(['migrate', '--to', 'mysql://db/kb']),
      2,
      /--to mysql:\/\/db\/kb: .*postgres:\/\/ URL, an s3:\/\/ LanceDB location or an SQLite file path/,
    );
    assert.ok(!existsSync(ws.path('mysql:')), readdirSync(ws.dir).join(', '));
  });

  it('a command group without its subcommand prints help and is a usage error (2); --help is 0', async () => {
    for (const args of [[], ['registry'], ['serve'], ['tool']]) {
      const r = await ws.kbctx(args);
      assert.equal(r.code, 2, `kbctx ${args.join(' ')}`);
      assert.match(r.stderr, /Usage: kbctx/);
    }
    assert.equal((await ws.kbctx(['--help'])).code, 0);
    assert.equal((await ws.kbctx(['registry', '--help'])).code, 0);
    assert.equal((await ws.kbctx(['help', 'registry'])).code, 0);
  });

  it('"already exists", "target not empty" and "address in use" are conflicts (7)', async () => {
    assert.equal((await ws.kbctx(['tool', 'init', 'twice'])).code, 0);
    assertUserError(await ws.kbctx(['tool', 'init', 'twice']), 7, /tools\/twice\.lua already exists/);
    assert.equal((await ws.kbctx(['migrate', '--to', 'copy.sqlite'])).code, 0);
    assertUserError(await ws.kbctx(['migrate', '--to', 'copy.sqlite']), 7, /already holds an index.*--force/);
    const busy = createServer();
    busy.listen(0, '127.0.0.1');
    await once(busy, 'listening');
    try {
      const { port } = busy.address() as AddressInfo;
      assertUserError(await ws.kbctx(['serve', 'mcp', '--bind', `127.0.0.1:${port}`]), 7, /already in use/);
    } finally {
      busy.close();
    }
  });
});

// The launcher re-runs itself with the bundled Node when the system Node is too old for the sources.
const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find((bin) => {
  const v = spawnSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim().split('.').map(Number);
  return v !== undefined && v.length === 3 && (v[0]! < 22 || (v[0] === 22 && v[1]! < 18));
});

it('the launcher exits 128+n when its child dies of signal n', {
  skip: oldNode === undefined && 'no system Node older than 22.18',
}, async () => {
  const child = spawn(oldNode!, [KBCTX_BIN, 'serve', 'mcp', '--bind', '127.0.0.1:0'], {
    cwd: ws.dir,
    env: { ...process.env, KBCTX_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  for await (const chunk of child.stdout) {
    out += String(chunk);
    if (out.includes('Listening on')) break;
  }
  const exited = once(child, 'exit');
  child.kill('SIGHUP'); // forwarded to the server, which does not handle it: it dies of SIGHUP
  const [code] = (await exited) as [number | null];
  assert.equal(code, 128 + constants.signals.SIGHUP);
});
