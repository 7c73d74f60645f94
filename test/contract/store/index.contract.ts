// Store contract: the index as a whole (generation, checkpoints, per-source stats and counts, size,
// export order, compaction, integrity, close) and, when the runner can open a second connection to
// the same index, what another process or replica sees.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../../core/store/store.ts';
import {
  collect,
  embedChunks,
  makeDoc,
  putAll,
  SPACE,
  terms,
  unit,
  withStore,
  type OpenStore,
  type TestDoc,
} from './fixtures.ts';

const mixed = (): TestDoc[] => [
  makeDoc('git:docs', 'b.md', ['git b one', 'git b two']),
  makeDoc('filesystem:notes', 'z.md', ['notes z']),
  makeDoc('filesystem:notes', 'a.md', ['notes a one', 'notes a two', 'notes a three']),
  makeDoc('git:docs', 'a.md', ['git a']),
];

/** Waits (up to 10 s) until `check` holds: another connection may learn of a change by polling. */
async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`never: ${what}`);
}

export function indexCases(open: OpenStore, reopen?: (store: Store) => Promise<Store>): void {
  describe('the index', () => {
    it('changes generation() after each kind of write, and only then', () =>
      withStore(open, async (store) => {
        const d = makeDoc('filesystem:a', 'a.md', ['generation text']);
        const steps: [string, () => Promise<unknown>][] = [
          ['upsert', () => store.upsertDocument(d.doc, d.chunks, 'f1')],
          ['touch', () => store.touchDocument(d.doc.id, 'f2')],
          ['writeEmbeddings', () => embedChunks(store, SPACE, () => unit([1, 0, 0, 0]))],
          ['clearEmbeddings', () => store.clearEmbeddings()],
          ['setSourceState', () => store.setSourceState('filesystem:a', { checkpoint: 'x', lastSyncAt: null })],
          ['delete', () => store.deleteDocuments([d.doc.id])],
        ];
        for (const [name, write] of steps) {
          const before = store.generation();
          await store.counts();
          await store.keywordSearch({ terms: terms('generation'), limit: 5, candidateK: 5 });
          assert.equal(store.generation(), before, `reads leave the generation alone (before ${name})`);
          await write();
          assert.notEqual(store.generation(), before, `${name} changes the generation`);
        }
      }));

    it('keeps checkpoints per connector', () =>
      withStore(open, async (store) => {
        assert.deepEqual(await store.sourceState('git:docs'), { checkpoint: null, lastSyncAt: null });
        assert.deepEqual(await store.sourceStates(), []);
        await store.setSourceState('git:docs', { checkpoint: 'abc123', lastSyncAt: '2026-01-01T00:00:00.000Z' });
        await store.setSourceState('filesystem:notes', { checkpoint: null, lastSyncAt: '2026-01-02T00:00:00.000Z' });
        await store.setSourceState('git:docs', { checkpoint: 'def456', lastSyncAt: '2026-01-03T00:00:00.000Z' });
        assert.deepEqual(await store.sourceState('git:docs'), {
          checkpoint: 'def456',
          lastSyncAt: '2026-01-03T00:00:00.000Z',
        });
        assert.deepEqual(await store.sourceStates(), [
          { connector: 'filesystem:notes', checkpoint: null, lastSyncAt: '2026-01-02T00:00:00.000Z' },
          { connector: 'git:docs', checkpoint: 'def456', lastSyncAt: '2026-01-03T00:00:00.000Z' },
        ]);
      }));

    it("records each connector's last sync run, apart from its checkpoint", () =>
      withStore(open, async (store) => {
        assert.ok(store.recordSyncRun && store.syncRuns, 'the store records sync runs');
        assert.deepEqual(await store.syncRuns(), []);
        await store.setSourceState('git:docs', { checkpoint: 'abc', lastSyncAt: '2026-01-01T00:00:00.000Z' });
        await store.recordSyncRun('git:docs', { endedAt: '2026-01-01T00:00:00.000Z', errors: 2, failure: null });
        await store.recordSyncRun('filesystem:gone', {
          endedAt: '2026-01-02T00:00:00.000Z',
          errors: 0,
          failure: 'root /x/y does not exist',
        });
        await store.recordSyncRun('git:docs', { endedAt: '2026-01-03T00:00:00.000Z', errors: 0, failure: "it's down" });
        assert.deepEqual(await store.syncRuns(), [
          {
            connector: 'filesystem:gone',
            endedAt: '2026-01-02T00:00:00.000Z',
            errors: 0,
            failure: 'root /x/y does not exist',
          },
          { connector: 'git:docs', endedAt: '2026-01-03T00:00:00.000Z', errors: 0, failure: "it's down" },
        ]);
        assert.deepEqual(
          await store.sourceState('git:docs'),
          { checkpoint: 'abc', lastSyncAt: '2026-01-01T00:00:00.000Z' },
          'a run leaves the checkpoint alone',
        );
        assert.deepEqual(
          (await store.sourceStates()).map((s) => s.connector),
          ['git:docs'],
          'a run alone records no checkpoint',
        );
      }));

    it('counts documents, chunks and embeddings, in total and per source', () =>
      withStore(open, async (store) => {
        assert.deepEqual(await store.counts(), { documents: 0, chunks: 0, embedded: 0 });
        assert.deepEqual(await store.sources(), []);
        await putAll(store, mixed());
        await embedChunks(store, SPACE, (text) => (text.startsWith('git') ? unit([0, 0, 1, 0]) : null));
        await store.setSourceState('git:docs', { checkpoint: 'c', lastSyncAt: '2026-02-02T00:00:00.000Z' });
        await store.setSourceState('s3:empty', { checkpoint: null, lastSyncAt: '2026-02-03T00:00:00.000Z' });
        assert.deepEqual(await store.counts(), { documents: 4, chunks: 7, embedded: 3 });
        assert.deepEqual(await store.sources(), [
          { source: 'filesystem:notes', documentCount: 2, chunkCount: 4, embeddedCount: 0, lastSyncAt: null },
          {
            source: 'git:docs',
            documentCount: 2,
            chunkCount: 3,
            embeddedCount: 3,
            lastSyncAt: '2026-02-02T00:00:00.000Z',
          },
          {
            source: 's3:empty',
            documentCount: 0,
            chunkCount: 0,
            embeddedCount: 0,
            lastSyncAt: '2026-02-03T00:00:00.000Z',
          },
        ]);
        assert.ok((await store.sizeBytes()) > 0, 'sizeBytes');
        assert.equal(typeof store.path, 'string');
      }));

    it('exports every document and chunk in one stable order, whole or row by row', () =>
      withStore(open, async (store) => {
        const docs = mixed();
        await putAll(store, docs);
        const all = await store.exportAll();
        const iterated = {
          documents: await collect(store.iterateDocuments()),
          chunks: await collect(store.iterateChunks()),
        };
        assert.deepEqual(iterated, all);
        assert.deepEqual(await store.exportAll(), all, 'stable');
        const sortedDocs = [...docs].sort((a, b) => (a.doc.id < b.doc.id ? -1 : 1));
        assert.deepEqual(
          [...all.documents].sort((a, b) => (a.id < b.id ? -1 : 1)),
          sortedDocs.map((d) => d.doc),
        );
        const order = all.documents.map((d) => d.id);
        const expectedChunks = order.flatMap((id) => docs.find((d) => d.doc.id === id)!.chunks);
        assert.deepEqual(all.chunks, expectedChunks, "chunks follow their documents' order, by chunk index");
        assert.deepEqual(
          all.documents.map((d) => `${d.source}/${d.sourceId}`),
          ['filesystem:notes/a.md', 'filesystem:notes/z.md', 'git:docs/a.md', 'git:docs/b.md'],
          'by source, then source id',
        );
      }));

    it('compacts at any time without changing answers', () =>
      withStore(open, async (store) => {
        await store.compact();
        await putAll(store, mixed());
        const before = await store.keywordSearch({ terms: terms('notes git'), limit: 10, candidateK: 10 });
        await store.compact();
        await store.beginBulk();
        await store.compact();
        await store.endBulk();
        assert.deepEqual(await store.keywordSearch({ terms: terms('notes git'), limit: 10, candidateK: 10 }), before);
      }));

    it('reports a consistent index as healthy (when it has checks)', () =>
      withStore(open, async (store) => {
        if (!store.checkIntegrity) return;
        await putAll(store, mixed());
        await embedChunks(store, SPACE, () => unit([0, 1, 1, 0]));
        await store.deleteDocuments([mixed()[0]!.doc.id]);
        const report = await store.checkIntegrity();
        assert.deepEqual(report.sqlite, []);
        assert.equal(report.fts, null);
        assert.equal(report.chunks, 5);
        assert.equal(report.ftsRows, 5);
        assert.equal(report.documentsWithoutChunks, 0);
        assert.equal(report.orphanEmbeddings, 0);
        assert.deepEqual(report.vectorIndexes ?? [], []);
      }));

    it('closes idempotently; a closed store refuses work', async () => {
      const store = await open();
      await putAll(store, mixed());
      await store.close();
      await store.close();
      await assert.rejects(async () => store.counts());
      await assert.rejects(async () => store.getDocument('x'));
    });

    if (reopen) {
      it('shares the index with another connection: data, checkpoints and generation', () =>
        withStore(open, async (store) => {
          const docs = mixed();
          await putAll(store, docs.slice(0, 2));
          await store.setSourceState('git:docs', { checkpoint: 'k1', lastSyncAt: null });
          const other = await reopen(store);
          try {
            assert.deepEqual(await other.getDocument(docs[0]!.doc.id), docs[0]!.doc);
            assert.deepEqual(await other.sourceStates(), [
              { connector: 'git:docs', checkpoint: 'k1', lastSyncAt: null },
            ]);
            const seen = other.generation();
            await store.beginBulk();
            await putAll(store, docs.slice(2));
            await store.endBulk();
            await eventually(() => other.generation() !== seen, "the other connection's generation moves");
            assert.equal((await other.counts()).documents, 4);
            const hits = await other.keywordSearch({ terms: terms('notes'), limit: 10, candidateK: 10 });
            assert.equal(hits.hits.length, 2, 'its keyword search sees the new documents');
          } finally {
            await other.close();
          }
        }));

      it('keeps everything across close and reopen', async () => {
        const store = await open();
        const docs = mixed();
        await putAll(store, docs);
        await embedChunks(store, SPACE, () => unit([1, 1, 1, 1]));
        const before = { ...(await store.exportAll()), embeddings: (await collect(store.iterateEmbeddings())).length };
        const again = await reopen(store);
        await store.close();
        try {
          assert.deepEqual(
            { ...(await again.exportAll()), embeddings: (await collect(again.iterateEmbeddings())).length },
            before,
          );
          assert.equal(await again.countPendingEmbeddings(SPACE), 0);
        } finally {
          await again.close();
        }
      });
    }
  });
}
