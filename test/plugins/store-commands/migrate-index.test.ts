// migrateIndex between two real SQLite stores: an index synced from a folder and a git repository
// (fingerprints, a git checkpoint), embedded with the test hashing embedder, copied into a new file.
import '../../../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { parseConfig } from '../../../core/config/load-config.ts';
import { openKbctx } from '../../../core/app/compose.ts';
import { openSqliteStore } from '../../../plugins/store-sqlite/sqlite-store.ts';
import type { Store } from '../../../core/store/store.ts';
import { IndexFixture } from '../../helpers/index-fixture.ts';
import {
  MIGRATE_CONNECTORS,
  populatedIndex,
  snapshotEmbedder as embedder,
  snapshotIndex as snapshot,
  type IndexSnapshot,
} from '../../helpers/index-snapshot.ts';
import { embedPending } from '../../../core/app/embed.ts';
import { migrateIndex } from '../../../plugins/store-commands/migrate-index.ts';
import { selectConnectors } from '../../../core/app/select-connectors.ts';
import { syncConnectors } from '../../../core/app/sync.ts';

let fx: IndexFixture;
let targets: Store[];
beforeEach(async () => {
  fx = await populatedIndex();
  targets = [];
});
afterEach(async () => {
  for (const t of targets) await t.close();
  await fx.close();
});

const openTarget = (name: string): Store => {
  const store = openSqliteStore(fx.ws.path(name));
  targets.push(store);
  return store;
};

describe('migrateIndex', () => {
  it(
    'copies documents, chunks, fingerprints, checkpoints and ' + 'embeddings: the copy answers as the source does',
    async () => {
      const source = fx.kbctx.store;
      const before = await snapshot(source);
      const counts = await source.counts();
      const progress: string[] = [];
      const report = await migrateIndex(source, openTarget('copy.sqlite'), {
        onProgress: (p) => progress.push(`${p.phase} ${p.done}/${p.total}`),
      });
      assert.deepEqual(report.mismatches, []);
      assert.deepEqual(
        [report.documents, report.chunks, report.embeddings, report.checkpoints, report.removed],
        [counts.documents, counts.chunks, counts.embedded, 3, 0],
      );
      assert.ok(counts.documents === 5 && counts.embedded === counts.chunks, `a full index: ${JSON.stringify(counts)}`);
      assert.deepEqual(report.target, counts);
      assert.equal(progress.at(-1), `embeddings ${counts.embedded}/${counts.embedded}`);
      assert.ok(progress.includes(`documents ${counts.documents}/${counts.documents}`));
      assert.deepEqual(await snapshot(targets[0]!), before, 'the copy is observably the same index');
      assert.deepEqual(await snapshot(source), before, 'the source is untouched');
      assert.equal(before.keyword.filter((hits) => hits.length > 0).length, 4, 'the compared searches found something');
    },
  );

  it("carries each connector's last sync run", async () => {
    const source = fx.kbctx.store;
    await source.recordSyncRun?.('filesystem:docs', { endedAt: '2026-01-01T00:00:00.000Z', errors: 2, failure: null });
    const runs = await source.syncRuns?.();
    assert.ok(runs && runs.length > 0);
    const target = openTarget('copy.sqlite');
    await migrateIndex(source, target);
    assert.deepEqual(await target.syncRuns?.(), runs);
  });

  it('carries fingerprints and checkpoints: a sync against the copy changes nothing', async () => {
    await migrateIndex(fx.kbctx.store, openTarget('copy.sqlite'));
    await targets.pop()!.close();
    const kbctx = openKbctx(
      parseConfig(`[db]\npath = "copy.sqlite"\n${MIGRATE_CONNECTORS}`, { file: 'copy.toml', cwd: fx.ws.dir, env: {} }),
    );
    try {
      const states = async (): Promise<unknown> =>
        Promise.all(
          ['filesystem:docs', 'git:repo'].map(async (c) => [...(await kbctx.store.documentStates(c)).values()]),
        );
      const before = await states();
      const connectors = await Promise.all(
        selectConnectors(kbctx.config, 'all').map((r) => kbctx.index.createConnector(r)),
      );
      const reports = await syncConnectors(kbctx.index.syncDeps(), connectors, { full: false });
      assert.deepEqual(await states(), before, 'fingerprints matched: no document was even touched');
      for (const r of reports) {
        assert.equal(r.failure, null);
        assert.deepEqual(
          [r.connector, r.upserted, r.chunksWritten, r.deleted],
          [r.connector, 0, 0, 0],
          `${r.connector} touched nothing`,
        );
      }
      assert.equal(
        reports.reduce((n, r) => n + r.unchanged, 0),
        5,
      );
      assert.equal(await kbctx.store.countPendingEmbeddings(embedder), 0, 'no chunk needs embedding again');
    } finally {
      await kbctx.close();
    }
  });

  it('refuses a target that holds an index; with force, makes it equal to the source', async () => {
    const target = openTarget('copy.sqlite');
    const other = new IndexFixture('[connectors.filesystem.other]\nroot = "other"\n');
    try {
      other.ws.write('other/extra.md', 'An extra document only the target has.');
      await other.sync();
      await embedPending({ store: other.kbctx.store, embedder });
      await migrateIndex(other.kbctx.store, target);
    } finally {
      await other.close();
    }
    await assert.rejects(
      migrateIndex(fx.kbctx.store, target),
      (e: Error & { code?: string }) =>
        e.code === 'conflict' && /--force/.test(e.message) && /1 documents/.test(e.message),
    );
    assert.equal((await target.counts()).documents, 1, 'a refusal writes nothing');
    const report = await migrateIndex(fx.kbctx.store, target, { force: true });
    assert.deepEqual(report.mismatches, []);
    assert.deepEqual([report.replaced.documents, report.replaced.checkpoints, report.removed], [1, 1, 1]);
    const source = await snapshot(fx.kbctx.store);
    const copy = await snapshot(target);
    assert.deepEqual(
      copy.checkpoints.find((c) => c.connector === 'filesystem:other'),
      { connector: 'filesystem:other', checkpoint: null, lastSyncAt: null },
      "the target's own connector is reset",
    );
    copy.checkpoints = copy.checkpoints.filter((c) => c.connector !== 'filesystem:other');
    // SQLite's contentless FTS5 keeps a deleted row in its BM25 totals, so keyword scores of a target
    // that had documents deleted differ slightly from the source: compare what was found, in order.
    const found = (s: IndexSnapshot): unknown => ({
      ...s,
      keyword: s.keyword.map((hits) => hits.map((h) => [h.document.id, h.chunk.id])),
    });
    assert.deepEqual(found(copy), found(source));
  });

  it('with force, leaves no vector the source does not have', async () => {
    const target = openTarget('copy.sqlite');
    await migrateIndex(fx.kbctx.store, target);
    await fx.kbctx.store.clearEmbeddings();
    const report = await migrateIndex(fx.kbctx.store, target, { force: true });
    assert.deepEqual(report.mismatches, []);
    assert.equal(report.removed, 0);
    assert.equal((await target.counts()).embedded, 0);
    assert.deepEqual(await target.embeddingSpaces(), []);
  });
});
