// `--workers 2`: exactly one process (the primary) watches and syncs; workers answer /sync/status and
// POST /sync/{connector} through it, and serve what it indexes.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { eventually, spawnLiveServer } from '../helpers/live-server.ts';
import { Workspace } from '../helpers/workspace.ts';

const ws = new Workspace('kbctx-live-cluster-');
after(() => ws.cleanup());

it('with --workers 2 one scheduler syncs; every worker reports its status and triggers runs', async () => {
  ws.write('docs/a.md', '# Alpha\n\nThe first note.\n');
  ws.config('[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "off"\n');
  const server = await spawnLiveServer(ws, ['--workers', '2']);
  try {
    await server.waitForLog(/sync filesystem:docs \(start\): fetched 1/);
    // Requests land on either worker: ask several times.
    for (let i = 0; i < 6; i++) {
      const status = (await (await fetch(`${server.url}/sync/status`)).json()) as {
        connectors: { connector: string; last_counts: { upserted: number } | null }[];
      };
      assert.equal(status.connectors[0]?.connector, 'filesystem:docs');
      assert.equal(status.connectors[0]?.last_counts?.upserted, 1);
    }
    const from = server.log().length;
    const res = await fetch(`${server.url}/sync/filesystem:docs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 200, await res.clone().text());
    await server.waitForLog(/sync filesystem:docs \(request\): fetched 1, upserted 0/, { from });
    ws.write('docs/b.md', '# Beta\n\nA heron by the river.\n');
    await eventually(
      async () => ((await server.search('heron')).length > 0 ? true : undefined),
      'the new file through a worker',
    );
    assert.equal(server.log().match(/watching filesystem:docs/g)?.length, 1, 'one watcher');
    assert.equal(server.log().match(/sync filesystem:docs \(start\)/g)?.length, 1, 'one scheduler');
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
