// Catch-up compaction: a replica's catch-ups during its own bulk write leave the mirror's keyword index
// uncompacted (counting what they applied), and the first catch-up allowed to compacts it once.
import { openSqliteStore } from '../../../plugins/store-sqlite/sqlite-store.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sharedPostgres, stopSharedPostgres, type TestPostgres } from '../../helpers/postgres.ts';
import { catchUp } from '../../../plugins/store-postgres/catch-up.ts';
import { Mirror } from '../../../plugins/store-postgres/mirror.ts';
import { openPostgresStore } from '../../../plugins/store-postgres/pg-store.ts';
import { createPool } from '../../../plugins/store-postgres/pool.ts';
import { pgDoc } from './test-docs.ts';

let server: TestPostgres;
before(async () => {
  server = await sharedPostgres();
});
after(async () => {
  await stopSharedPostgres();
});

describe('catchUp', () => {
  it('defers compaction when told to, and compacts once the changed documents add up', async () => {
    const url = await server.createDatabase();
    const writer = openPostgresStore(url, { openMirror: (f) => openSqliteStore(f), mirrorPath: ':memory:' });
    const fill = async (from: number, count: number): Promise<void> => {
      await writer.beginBulk();
      for (let i = from; i < from + count; i++) {
        const { doc, chunks } = pgDoc('fs:c', `d${i}.md`, `Doc ${i}`, `alpha ${i} beta`);
        await writer.upsertDocument(doc, chunks, null);
      }
      await writer.endBulk();
    };
    const pool = createPool(url, { poolSize: 1 });
    const mirror = Mirror.open(':memory:', (f) => openSqliteStore(f));
    const client = await pool.connect();
    try {
      await fill(0, 600);
      assert.equal((await catchUp(client, mirror, { deferCompaction: true })).documents, 600);
      assert.equal(mirror.deferred, 600);
      await fill(600, 600);
      assert.equal((await catchUp(client, mirror, { deferCompaction: true })).documents, 600);
      assert.equal(mirror.deferred, 1200, 'deferred, counted');
      assert.equal((await catchUp(client, mirror, { deferCompaction: false })).documents, 0);
      assert.equal(mirror.deferred, 0, 'compacted by the next catch-up allowed to');
      assert.equal((await mirror.store.counts()).documents, 1200);
    } finally {
      client.release();
      await pool.end();
      await mirror.close();
      await writer.close();
    }
  });
});
