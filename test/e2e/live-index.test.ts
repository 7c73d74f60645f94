// The live index with a real `kbctx serve mcp` process: saved, created, deleted and moved files become
// searchable (or vanish) while searches keep answering; the status and trigger endpoints; a hand-run
// `kbctx sync` never writes alongside the server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { renameSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { lockConnector } from '../../plugins/store-sqlite/api.ts';
import { eventually, spawnLiveServer, type LiveServer } from '../helpers/live-server.ts';
import { KBCTX_BIN, Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
let server: LiveServer;

before(async () => {
  ws = new Workspace('kbctx-live-');
  for (let i = 0; i < 50; i++)
    ws.write(`docs/notes/n${i}.md`, `# Note ${i}\n\nPlain words about gardening, item ${i}.\n`);
  ws.write('docs/keep.md', '# Keep\n\nThe quartermaster keeps the ledger.\n');
  ws.write('docs/ignored/skip.md', '# Skip\n\nxylophonequest should never be indexed.\n');
  ws.config(
    `[connectors.filesystem.docs]\nroot = "docs"\nexclude_globs = ["ignored/**"]\n\n[sync]\ninterval = "off"\n`,
  );
  server = await spawnLiveServer(ws);
  await server.waitForLog(/sync filesystem:docs \(start\): fetched 51/);
});
after(async () => {
  await server.stop();
  ws.cleanup();
});

const sourceIds = async (query: string): Promise<string[] | undefined> =>
  (await server.search(query)).map((h) => h.source_id).sort();

it('indexes a created file, an edit, a delete and a moved directory while searches keep answering', async () => {
  let searching = true;
  const statuses: number[] = [];
  const loop = (async () => {
    while (searching) {
      const res = await fetch(`${server.url}/tools/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"gardening"}',
      });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
  })();
  try {
    ws.write('docs/new/zebra.md', '# Zebracorn\n\nThe zebracorn grazes at dawn.\n');
    assert.deepEqual(
      await eventually(
        async () => ((await sourceIds('zebracorn'))?.length ? sourceIds('zebracorn') : undefined),
        'the new file',
      ),
      ['new/zebra.md'],
    );

    ws.write('docs/new/zebra.md', '# Zebracorn\n\nNow it grazes on moonflowers.\n');
    await eventually(async () => ((await sourceIds('moonflowers'))?.length ? true : undefined), 'the edit');
    assert.deepEqual(await sourceIds('dawn'), [], 'the old text is gone');

    ws.remove('docs/new/zebra.md');
    await eventually(async () => ((await sourceIds('zebracorn'))?.length === 0 ? true : undefined), 'the delete');

    renameSync(ws.path('docs/notes'), ws.path('docs/archive'));
    const moved = await eventually(async () => {
      const ids = await server.search('gardening', 100);
      return ids.length === 50 && ids.every((h) => h.source_id.startsWith('archive/')) ? ids : undefined;
    }, 'the moved directory');
    assert.equal(moved.length, 50);

    ws.write('docs/ignored/skip2.md', '# Skip\n\nxylophonequest again.\n');
    // a later change, to know the batch was seen
    ws.write('docs/keep.md', '# Keep\n\nThe quartermaster keeps the logbook.\n');
    await eventually(async () => ((await sourceIds('logbook'))?.length ? true : undefined), 'the later edit');
    assert.deepEqual(await sourceIds('xylophonequest'), [], 'excluded paths are neither watched nor indexed');
  } finally {
    searching = false;
    await loop;
  }
  assert.ok(statuses.length > 0);
  assert.deepEqual([...new Set(statuses)], [200]);
});

it('editor-style atomic saves (write a temp file, rename over the original) are picked up', async () => {
  ws.write('docs/.keep.md.swp', '# Keep\n\nThe quartermaster keeps the almanac.\n');
  renameSync(ws.path('docs/.keep.md.swp'), ws.path('docs/keep.md'));
  await eventually(async () => ((await sourceIds('almanac'))?.length ? true : undefined), 'the atomic save');
  assert.deepEqual(await sourceIds('almanac'), ['keep.md']);
});

it('GET /sync/status has one entry per connector in the documented shape; POST /sync/{connector} runs it', async () => {
  const status = (await (await fetch(`${server.url}/sync/status`)).json()) as { connectors: Record<string, unknown>[] };
  assert.equal(status.connectors.length, 1);
  const entry = status.connectors[0]!;
  assert.deepEqual(Object.keys(entry).sort(), [
    'connector',
    'last_counts',
    'last_error',
    'last_finished_at',
    'last_started_at',
    'next_run_at',
    'state',
  ]);
  assert.equal(entry['connector'], 'filesystem:docs');
  assert.equal(entry['next_run_at'], null, '[sync] interval = "off"');
  const from = server.log().length;
  // What a page on another loopback origin can send without a CORS preflight is refused (415), and starts nothing.
  for (const init of [
    {},
    { headers: { 'content-type': 'text/plain' }, body: '' },
    { headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  ]) {
    const refused = await fetch(`${server.url}/sync/filesystem:docs`, {
      method: 'POST',
      ...init,
      headers: { origin: 'http://localhost:3000', ...init.headers },
    });
    assert.equal(refused.status, 415, JSON.stringify(init));
    assert.match(
      ((await refused.json()) as { error: { message: string } }).error.message,
      /Content-Type: application\/json/,
    );
  }
  const res = await fetch(`${server.url}/sync/filesystem:docs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as { connector: string }).connector, 'filesystem:docs');
  await server.waitForLog(/sync filesystem:docs \(request\): .*unchanged 51/, { from });
  const unknown = await fetch(`${server.url}/sync/git:nope`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(unknown.status, 404);
  assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /git:nope is not configured/);
});

it(
  'a hand-run sync while the connector is locked by another ' +
    'process waits, or with --no-wait is refused naming the holder',
  async () => {
    const release = lockConnector(ws.path('.kbctx/kbctx.sqlite'), 'filesystem:docs', 'a test');
    try {
      const refused = await ws.kbctx(['sync', 'all', '--no-wait']);
      assert.equal(refused.code, 7, refused.stderr);
      assert.match(refused.stderr, /filesystem:docs is being synced by a test \(pid \d+/);
      const child = spawn(process.execPath, [KBCTX_BIN, 'sync', 'all'], {
        cwd: ws.dir,
        env: { ...process.env, KBCTX_CONFIG: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      const waiting = new Promise<void>((resolve) =>
        child.stderr.setEncoding('utf8').on('data', (d: string) => {
          stderr += d;
          if (/waiting: filesystem:docs is being synced by a test/.test(stderr)) resolve();
        }),
      );
      const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await Promise.race([waiting, exit]);
      assert.match(stderr, /waiting: /);
      release();
      assert.equal(await exit, 0, stderr);
    } finally {
      release();
    }
  },
);
