// `kbctx migrate` through a real PostgreSQL (test/helpers/postgres.ts): an SQLite index copied into
// PostgreSQL and from there into a new SQLite file, in process and through the real CLI; every step
// answers as the original does, and a sync against the PostgreSQL copy touches nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateIndex } from '../plugins/store-commands/migrate-index.ts';
import { openPostgresStore } from '../plugins/store-postgres/pg-store.ts';
import { openSqliteStore } from '../plugins/store-sqlite/sqlite-store.ts';
import { populatedIndex, snapshotIndex } from './helpers/index-snapshot.ts';
import { sharedPostgres, stopSharedPostgres } from './helpers/postgres.ts';
import { MigrateWorkspace } from './helpers/migrate-workspace.ts';
import type { SyncReportJson } from './helpers/workspace.ts';

after(() => stopSharedPostgres());

it('migrateIndex: SQLite → PostgreSQL → SQLite keeps everything a user can observe', async () => {
  const fx = await populatedIndex();
  const pg = openPostgresStore(await (await sharedPostgres()).createDatabase(), {
    openMirror: (f) => openSqliteStore(f),
    mirrorPath: ':memory:',
  });
  const back = openSqliteStore(fx.ws.path('back.sqlite'));
  try {
    const before = await snapshotIndex(fx.kbctx.store);
    const there = await migrateIndex(fx.kbctx.store, pg);
    assert.deepEqual(there.mismatches, []);
    assert.deepEqual(await snapshotIndex(pg), before, 'PostgreSQL answers as the SQLite original');
    const home = await migrateIndex(pg, back);
    assert.deepEqual(home.mismatches, []);
    assert.deepEqual(
      [home.documents, home.chunks, home.embeddings, home.checkpoints],
      [there.documents, there.chunks, there.embeddings, there.checkpoints],
    );
    assert.deepEqual(await snapshotIndex(back), before, 'the copy back answers as the original');
  } finally {
    await back.close();
    await pg.close();
    await fx.close();
  }
});

describe('kbctx migrate --to postgres://… (CLI)', () => {
  const mw = new MigrateWorkspace();
  const ws = mw.ws;
  let url = '';
  const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;
  const onPg = { KBCTX_DATABASE_URL: '' };

  before(async () => {
    await mw.setUp();
    url = await (await sharedPostgres()).createDatabase();
    onPg.KBCTX_DATABASE_URL = url;
    ws.write('back.toml', mw.config('back.sqlite'));
  });
  after(() => mw.cleanup());

  it('moves the index into PostgreSQL and back; searches answer the same and a resync touches nothing', async () => {
    const original = await mw.searches();
    const there = await ws.kbctx(['migrate', '--to', url, '--json']);
    assert.equal(there.code, 0, there.stderr);
    const report = json(there.stdout);
    assert.deepEqual(
      [report['documents'], report['chunks'], report['embeddings'], report['checkpoints'], report['verified']],
      [3, 3, 3, 1, true],
    );
    assert.deepEqual(await mw.searches([], onPg), original, 'keyword, semantic and hybrid answers on PostgreSQL');

    const resync = await ws.kbctx(['sync', 'all', '--json'], { env: onPg });
    const [docs] = json(resync.stdout)['connectors'] as SyncReportJson[];
    assert.deepEqual(
      [docs?.upserted, docs?.chunks_written, docs?.deleted, docs?.unchanged],
      [0, 0, 0, 3],
      'fingerprints came along',
    );

    const again = await ws.kbctx(['migrate', '--to', url]);
    assert.equal(again.code, 7, 'a PostgreSQL database that holds an index is refused');
    assert.match(again.stderr, /already holds an index \(3 documents.*--force/);
    const itself = await ws.kbctx(['migrate', '--to', url], { env: onPg });
    assert.equal(itself.code, 2);
    assert.match(itself.stderr, /names the configured index itself/);

    const home = await ws.kbctx(['migrate', '--to', 'back.sqlite'], { env: onPg });
    assert.equal(home.code, 0, home.stderr);
    assert.match(
      home.stdout,
      /^Verified: the target holds 3 documents, 3 chunks and 3 embeddings, as the source does$/m,
    );
    assert.deepEqual(await mw.searches(['-c', 'back.toml']), original, 'the copy back answers as the original');
  });
});
