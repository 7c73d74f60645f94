// The CLI on the PostgreSQL store (issue 16), through the real `kbctx` binary and a real PostgreSQL:
// KBCTX_DATABASE_URL selects it; init, sync, search, stats, doctor and export work as on SQLite; with
// the server down a command fails with exit 6 (`unavailable`) naming the server.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { Workspace } from '../helpers/workspace.ts';

const ws = new Workspace('kbctx-pg-cli-');
let pg: TestPostgres;
let env: NodeJS.ProcessEnv;

before(async () => {
  pg = await startPostgres();
  env = { KBCTX_DATABASE_URL: await pg.createDatabase() };
  ws.write('docs/rotate.md', '# Key rotation\n\nRotate the signing keys every quarter with the vault CLI.\n');
  ws.write('docs/deploy.md', '# Deploying\n\nShip with the blue-green switch.\n');
  ws.config('[connectors.filesystem.docs]\nroot = "docs"\n');
});
after(async () => {
  await pg.stop();
  ws.cleanup();
});

it('init, sync, search, stats, doctor and export on PostgreSQL', async () => {
  const init = await ws.kbctx(['init'], { env });
  assert.equal(init.code, 0, init.stderr);
  assert.match(init.stdout, /^Index ready at postgres:\/\/.*\(PostgreSQL, schema version \d+; 0 documents\)/);
  assert.doesNotMatch(init.stdout, /password/);

  const sync = await ws.kbctx(['sync', 'all'], { env });
  assert.equal(sync.code, 0, sync.stderr);
  const search = JSON.parse((await ws.kbctx(['search', 'signing keys', '--json'], { env })).stdout) as {
    results: { source_id: string }[];
  };
  assert.equal(search.results[0]?.source_id, 'rotate.md');

  const stats = await ws.kbctx(['stats'], { env });
  assert.match(stats.stdout, /Database:\s+postgres:\/\//);
  assert.match(stats.stdout, /Documents: 2/);
  const doctor = await ws.kbctx(['doctor'], { env });
  assert.match(doctor.stdout, /^ok {4}index .*PostgreSQL and this replica's mirror agree/m);

  const exported = JSON.parse((await ws.kbctx(['export', '--quiet'], { env })).stdout) as {
    documents: unknown[];
    chunks: unknown[];
  };
  assert.equal(exported.documents.length, 2);

  // A second sync changes nothing: fingerprints and checkpoints live in PostgreSQL.
  const again = JSON.parse((await ws.kbctx(['sync', 'all', '--json'], { env })).stdout) as {
    connectors: { unchanged: number; upserted: number }[];
  };
  assert.deepEqual([again.connectors[0]?.unchanged, again.connectors[0]?.upserted], [2, 0]);
});

it('exits 6 naming the server when PostgreSQL does not answer', async () => {
  await pg.down();
  try {
    const r = await ws.kbctx(['search', 'keys'], { env });
    assert.equal(r.code, 6, r.stderr);
    assert.match(r.stderr, /PostgreSQL at 127\.0\.0\.1:\d+ is unreachable/);
  } finally {
    await pg.start();
  }
  assert.equal((await ws.kbctx(['search', 'keys'], { env })).code, 0);
});
