// The mirror's watermark is never ahead of its data: a replica killed (SIGKILL) during its first catch-up,
// or one whose watermark is behind its data, converges to exactly PostgreSQL's contents when reopened.
import { openSqliteStore } from '../../../plugins/store-sqlite/sqlite-store.ts';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { sharedPostgres, stopSharedPostgres, type TestPostgres } from '../../helpers/postgres.ts';
import { openPostgresStore, type PgStore } from '../../../plugins/store-postgres/pg-store.ts';
import { eventually, pgDoc } from './test-docs.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-pgmirror-'));
let server: TestPostgres;
before(async () => {
  server = await sharedPostgres();
});
after(async () => {
  await stopSharedPostgres();
  rmSync(dir, { recursive: true, force: true });
});

async function fill(store: PgStore, from: number, count: number): Promise<void> {
  await store.beginBulk();
  for (let i = from; i < from + count; i++) {
    const { doc, chunks } = pgDoc('fs:bulk', `d${i}.md`, `Doc ${i}`, `alpha ${i} beta`, `gamma delta ${i % 17}`);
    await store.upsertDocument(doc, chunks, null);
  }
  await store.endBulk();
}

async function ids(store: PgStore): Promise<string[]> {
  const out: string[] = [];
  for await (const d of store.iterateDocuments()) out.push(`${d.id}:${d.title}`);
  return out;
}

describe('PgStore mirror watermark', () => {
  it('recovers a mirror killed during its first catch-up', async (t) => {
    const url = await server.createDatabase();
    const writer = openPostgresStore(url, { openMirror: (f) => openSqliteStore(f), mirrorPath: ':memory:' });
    await fill(writer, 0, 1500);
    const mirrorPath = path.join(dir, 'killed.sqlite');
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('../../helpers/pg-mirror-child.ts', import.meta.url)), url, mirrorPath],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    // Kill as soon as the mirror has data on disk (mid-apply on this machine; correct at any moment).
    await eventually(
      async () =>
        output.includes('ready') || (existsSync(`${mirrorPath}-wal`) && statSync(`${mirrorPath}-wal`).size > 0),
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const state = existsSync(`${mirrorPath}.pg.json`)
      ? (JSON.parse(readFileSync(`${mirrorPath}.pg.json`, 'utf8')) as { version: string })
      : null;

    t.diagnostic(
      output.includes('ready')
        ? 'killed after the catch-up'
        : `killed mid catch-up (watermark ${state?.version ?? 'none'})`,
    );
    await fill(writer, 1500, 10);
    await writer.deleteDocuments([pgDoc('fs:bulk', 'd3.md', '').doc.id]);
    const reopened = openPostgresStore(url, { openMirror: (f) => openSqliteStore(f), mirrorPath });
    try {
      assert.deepEqual(await ids(reopened), await ids(writer));
      assert.equal((await reopened.counts()).chunks, (await writer.counts()).chunks);
    } finally {
      await reopened.close();
      await writer.close();
    }
  });

  it('re-applies changes when the watermark is behind the data', async () => {
    const url = await server.createDatabase();
    const writer = openPostgresStore(url, { openMirror: (f) => openSqliteStore(f), mirrorPath: ':memory:' });
    await fill(writer, 0, 50);
    const mirrorPath = path.join(dir, 'behind.sqlite');
    const first = openPostgresStore(url, { openMirror: (f) => openSqliteStore(f), mirrorPath });
    assert.equal((await first.counts()).documents, 50);
    await first.close();
    const stateFile = `${mirrorPath}.pg.json`;
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { epoch: string; version: string };

    await fill(writer, 50, 5);
    await writer.deleteDocuments([pgDoc('fs:bulk', 'd7.md', '').doc.id]);
    const changed = pgDoc('fs:bulk', 'd8.md', 'Renamed', 'alpha 8 beta', 'gamma delta 8');
    await writer.upsertDocument(changed.doc, changed.chunks, null);
    // As if a crash had hit after the mirror committed these changes but before the watermark moved.
    const second = openPostgresStore(url, { openMirror: (f) => openSqliteStore(f), mirrorPath });
    assert.equal((await second.counts()).documents, 54);
    await second.close();
    writeFileSync(stateFile, JSON.stringify(state));

    const third = openPostgresStore(url, { openMirror: (f) => openSqliteStore(f), mirrorPath });
    try {
      assert.deepEqual(await ids(third), await ids(writer));
      assert.equal(third.lastCatchUp?.from, state.version);
    } finally {
      await third.close();
      await writer.close();
    }
  });
});
