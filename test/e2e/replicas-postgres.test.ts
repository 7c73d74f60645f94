// Two `kbctx serve` replicas over one real PostgreSQL (issue 16): a sync through one is searchable
// through the other; PostgreSQL is stopped mid-run (both answer 503 `unavailable`, /health stays up)
// and started again (both recover without a restart, and a sync through the first reaches the second).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eventually, searchRaw, type LiveServer } from '../helpers/live-server.ts';
import { Replicas } from '../helpers/replicas.ts';

const replicas = new Replicas('kbctx-replicas-');
const { ws } = replicas;
before(() => replicas.start());
after(() => replicas.close());

const finds = (server: LiveServer, query: string, sourceId: string) =>
  eventually(async () => {
    const r = await searchRaw(server, query);
    return r.status === 200 && r.body.results?.some((h) => h.source_id === sourceId) ? r : undefined;
  }, `${sourceId} found by '${query}' on ${server.url}`);

async function syncThrough(server: LiveServer): Promise<void> {
  const res = await fetch(`${server.url}/sync/filesystem:docs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(res.status, 200, await res.text());
}

it('a sync through one replica is searchable through the other; a PostgreSQL restart is survived', async () => {
  const { pg } = replicas;
  const url = await pg.createDatabase();
  ws.write('docs/alpha.md', '# Alpha\n\nThe osprey nests by the estuary.\n');
  // Replica A syncs the folder; replica B has no connectors: it only serves what A wrote.
  const a = await replicas.spawn(
    'a',
    `[db]\npath = "a/kbctx.sqlite"\nurl = "${url}"\n\n` +
      `[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "off"\n`,
    ['--no-watch'],
  );
  const b = await replicas.spawn('b', `[db]\npath = "b/kbctx.sqlite"\nurl = "${url}"\n\n[sync]\ninterval = "off"\n`, [
    '--no-watch',
  ]);
  await a.waitForLog(/sync filesystem:docs \(start\): fetched 1, upserted 1/);
  await finds(b, 'osprey', 'alpha.md');

  ws.write('docs/beta.md', '# Beta\n\nA kingfisher dives for minnows.\n');
  const mark = a.log().length;
  await syncThrough(a);
  await a.waitForLog(/sync filesystem:docs \(request\): fetched 2, upserted 1/, { from: mark });
  const synced = Date.now();
  await finds(b, 'kingfisher', 'beta.md');
  console.log(`# visible on the other replica ${Date.now() - synced} ms after the sync's log line`);

  await pg.down();
  for (const server of [a, b]) {
    const down = await eventually(async () => {
      const r = await searchRaw(server, 'kingfisher');
      return r.status === 503 ? r : undefined;
    }, `503 from ${server.url} while PostgreSQL is down`);
    assert.equal(down.body.error?.code, 'unavailable');
    assert.equal((await fetch(`${server.url}/health`)).status, 200, 'the process itself is healthy');
  }
  // A sync asked for while PostgreSQL is down fails and keeps the documents.
  const downMark = a.log().length;
  await syncThrough(a);
  await a.waitForLog(/sync filesystem:docs \(request\): failed .*unavailable/, { from: downMark });

  await pg.start();
  await finds(b, 'kingfisher', 'beta.md');
  await finds(a, 'osprey', 'alpha.md');
  ws.write('docs/gamma.md', '# Gamma\n\nA heron waits in the reeds.\n');
  const upMark = a.log().length;
  await syncThrough(a);
  await a.waitForLog(/sync filesystem:docs \(request\): fetched 3, upserted 1/, { from: upMark });
  await finds(b, 'heron', 'gamma.md');
  assert.deepEqual(await replicas.stopAll(), [0, 0]);
});
