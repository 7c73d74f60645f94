// How each connector's last sync ended, shown where users look (issue 29 item 12): `kbctx sources`
// (text and --json), `doctor`, REST /tools/sources and /web/info (the web page's sources). And
// doctor's warning when follow_symlinks makes a file outside the root searchable (item 17).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spawnServer } from '../helpers/kbctx-server.ts';
import { Workspace } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

const ws = new Workspace('kbctx-last-run-');
const elsewhere = mkdtempSync(path.join(tmpdir(), 'kbctx-elsewhere-'));
before(() => {
  ws.config(
    '[db]\npath = "data/index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\nfollow_symlinks = true\n' +
      '[connectors.filesystem.gone]\nroot = "missing"\n',
  );
  ws.write('docs/a.md', '# Alpha\n\nalpha text');
  ws.write('docs/b.md', '# Beta\n\nbeta text');
  symlinkSync('loop.md', ws.path('docs/loop.md')); // a link loop: cannot be read, counted as an error
});
after(() => {
  ws.cleanup();
  rmSync(elsewhere, { recursive: true, force: true });
});

const sourcesJson = async (): Promise<Record<string, Record<string, unknown>>> => {
  const r = await ws.kbctx(['sources', '--json']);
  assert.equal(r.code, 0, r.stderr);
  return Object.fromEntries(
    (JSON.parse(r.stdout) as { sources: Record<string, unknown>[] }).sources.map((s) => [s['source'] as string, s]),
  );
};

describe('the last sync run of each connector', () => {
  it('sources shows a failed run and a run with errors, not "ok" and "not synced"', async () => {
    const sync = await ws.kbctx(['sync', 'all']);
    assert.equal(sync.code, 1, sync.stderr); // connector_error
    const r = await ws.kbctx(['sources']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /filesystem:docs\s+2\s+2\s+1 error\n/);
    assert.match(r.stdout, /filesystem:gone\s+0\s+0\s+failed: filesystem:gone: root \S+missing does not exist/);
    const json = await sourcesJson();
    assert.equal(json['filesystem:docs']?.['status'], 'errors');
    assert.equal(json['filesystem:docs']?.['healthy'], false);
    assert.deepEqual(
      { ...(json['filesystem:docs']?.['last_run'] as object), ended_at: 'x' },
      { ended_at: 'x', errors: 1, failure: null },
    );
    assert.equal(json['filesystem:gone']?.['status'], 'failed');
    assert.match(
      (json['filesystem:gone']?.['last_run'] as { failure: string }).failure,
      /root \S+missing does not exist/,
    );
  });

  it('doctor warns about each, with what to do', async () => {
    const r = await ws.kbctx(['doctor']);
    assert.match(
      r.stdout,
      joinedRegExp(
        /WARN {2}connectors filesystem:docs: last sync \(\S+\) could not read 1 /,
        /item\(s\)\n {6}→ `kbctx sync filesystem:docs` names each problem/,
      ),
    );
    assert.match(
      r.stdout,
      /WARN {2}connectors filesystem:gone: last sync \(\S+\) failed: filesystem:gone: root \S+missing does not exist/,
    );
  });

  it('REST /tools/sources and /web/info carry the outcome', async () => {
    const server = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch']);
    try {
      const { sources } = (await (await fetch(`${server.url}/tools/sources`)).json()) as {
        sources: Record<string, unknown>[];
      };
      assert.deepEqual(
        sources.map((s) => [s['source'], s['status']]),
        [
          ['filesystem:docs', 'errors'],
          ['filesystem:gone', 'failed'],
        ],
      );
      const info = (await (await fetch(`${server.url}/web/info`)).json()) as {
        stats: { sources: Record<string, unknown>[] };
      };
      assert.deepEqual(
        info.stats.sources.map((s) => [s['source'], s['status'], (s['last_run'] as { errors: number }).errors]),
        [
          ['filesystem:docs', 'errors', 1],
          ['filesystem:gone', 'failed', 0],
        ],
      );
    } finally {
      await server.stop();
    }
  });

  it('a later run that completes clears the outcome', async () => {
    ws.remove('docs/loop.md');
    ws.write('missing/c.md', '# Gamma\n\ngamma');
    const sync = await ws.kbctx(['sync', 'all']);
    assert.equal(sync.code, 0, sync.stderr);
    const r = await ws.kbctx(['sources']);
    assert.match(r.stdout, /filesystem:docs\s+2\s+2\s+ok\n/);
    assert.match(r.stdout, /filesystem:gone\s+1\s+1\s+ok\n/);
    assert.equal((await sourcesJson())['filesystem:gone']?.['healthy'], true);
  });

  it('doctor warns when follow_symlinks indexes a file outside the root', async () => {
    const secret = path.join(elsewhere, 'secret.md');
    writeFileSync(secret, '# Secret\n');
    symlinkSync(secret, ws.path('docs/linked.md'));
    try {
      const r = await ws.kbctx(['doctor']);
      assert.match(
        r.stdout,
        joinedRegExp(
          /WARN {2}connectors filesystem:docs: follow_symlinks indexes 1 file\(s\) outside the root /,
          /\S+docs: linked\.md → \S+secret\.md\n {6}→ if they are not meant to be searchable/,
        ),
      );
    } finally {
      ws.remove('docs/linked.md');
    }
    const clean = await ws.kbctx(['doctor']);
    assert.doesNotMatch(clean.stdout, /follow_symlinks indexes/);
  });
});
