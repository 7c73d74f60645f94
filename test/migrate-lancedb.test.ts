// `kbctx migrate` with the LanceDB store (store-lancedb): an SQLite index copied into LanceDB, from
// there into PostgreSQL and back into SQLite, in process; through the real CLI a `….lance` target is a
// LanceDB copy that answers as the original, resyncs touching nothing, and stats, doctor and export
// work on it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateIndex } from '../plugins/store-commands/migrate-index.ts';
import { openLanceStore } from '../plugins/store-lancedb/lance-store.ts';
import { openPostgresStore } from '../plugins/store-postgres/pg-store.ts';
import { openSqliteStore } from '../plugins/store-sqlite/sqlite-store.ts';
import { populatedIndex, snapshotIndex } from './helpers/index-snapshot.ts';
import { sharedPostgres, stopSharedPostgres } from './helpers/postgres.ts';
import { MigrateWorkspace } from './helpers/migrate-workspace.ts';
import type { SyncReportJson } from './helpers/workspace.ts';

after(() => stopSharedPostgres());

it('migrateIndex: SQLite → LanceDB → PostgreSQL → LanceDB → SQLite keeps everything a user can observe', async () => {
  const fx = await populatedIndex();
  const lance = await openLanceStore(fx.ws.path('copy.lance'));
  const pg = openPostgresStore(await (await sharedPostgres()).createDatabase(), {
    openMirror: (f) => openSqliteStore(f),
    mirrorPath: ':memory:',
  });
  const lance2 = await openLanceStore(fx.ws.path('again.lance'));
  const back = openSqliteStore(fx.ws.path('back.sqlite'));
  try {
    const before = await snapshotIndex(fx.kbctx.store);
    for (const [from, to, what] of [
      [fx.kbctx.store, lance, 'LanceDB'],
      [lance, pg, 'PostgreSQL'],
      [pg, lance2, 'LanceDB again'],
      [lance2, back, 'SQLite'],
    ] as const) {
      const report = await migrateIndex(from, to);
      assert.deepEqual(report.mismatches, [], what);
      assert.deepEqual(await snapshotIndex(to), before, `${what} answers as the SQLite original`);
    }
  } finally {
    await back.close();
    await lance2.close();
    await pg.close();
    await lance.close();
    await fx.close();
  }
});

describe('kbctx migrate --to <folder>.lance (CLI)', () => {
  const mw = new MigrateWorkspace();
  const ws = mw.ws;
  const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;

  before(async () => {
    await mw.setUp();
    ws.write('lance.toml', mw.config('copy.lance').replace('[db]\n', '[db]\nengine = "lancedb"\n'));
  });
  after(() => mw.cleanup());

  it(
    'copies the index into LanceDB; the copy answers, resyncs ' + 'unchanged, and stats, doctor and export work',
    async () => {
      const r = await ws.kbctx(['migrate', '--to', 'copy.lance', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const report = json(r.stdout);
      assert.deepEqual(
        [report['documents'], report['chunks'], report['embeddings'], report['checkpoints'], report['verified']],
        [3, 3, 3, 1, true],
      );
      assert.deepEqual(
        await mw.searches(['-c', 'lance.toml']),
        await mw.searches(),
        'keyword, semantic and hybrid answers on the copy',
      );
      const resync = await ws.kbctx(['-c', 'lance.toml', 'sync', 'all', '--json']);
      assert.equal(resync.code, 0, resync.stderr);
      const [docs] = json(resync.stdout)['connectors'] as SyncReportJson[];
      assert.deepEqual(
        [docs?.upserted, docs?.chunks_written, docs?.deleted, docs?.unchanged],
        [0, 0, 0, 3],
        'fingerprints came along',
      );
      const stats = await ws.kbctx(['-c', 'lance.toml', 'stats', '--json']);
      assert.equal(stats.code, 0, stats.stderr);
      assert.match(stats.stdout, /"documents":\s*3/);
      const doctor = await ws.kbctx(['-c', 'lance.toml', 'doctor']);
      assert.doesNotMatch(doctor.stdout + doctor.stderr, /integrity.*(fail|problem)/i);
      const exported = await ws.kbctx(['-c', 'lance.toml', 'export']);
      assert.equal(exported.code, 0, exported.stderr);
      assert.equal(exported.stdout.trim().split('\n').length >= 3, true, 'one line per document at least');
      const home = await ws.kbctx(['-c', 'lance.toml', 'migrate', '--to', 'home.sqlite', '--json']);
      assert.equal(home.code, 0, home.stderr);
      assert.equal(json(home.stdout)['verified'], true, 'and back into SQLite');
    },
  );
});
