// The LanceDB store with its vector index and the prefilter's BTREE on doc_id (ADR 0235), on a real table in a
// temp folder: the scalar index is built with the vector index, a filtered search (`doc_id IN (...)`) answers
// from the right documents, and merge-inserts on row_key after optimize still replace rows instead of adding
// copies (the failure of lancedb#3177 came from an index on the merge key, which must stay unindexed).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { openLanceStore } from '../../../plugins/store-lancedb/lance-store.ts';
import { embedChunks, makeDoc, putAll, unit } from '../../contract/store/fixtures.ts';
import type { LanceStore } from '../../../plugins/store-lancedb/lance-store.ts';
import { loadLance } from '../../../plugins/store-lancedb/lance-module.ts';
import { TABLE } from '../../../plugins/store-lancedb/rows.ts';

const root = mkdtempSync(path.join(tmpdir(), 'kbctx-lance-prefilter-'));
after(() => rmSync(root, { recursive: true, force: true }));

const DIMS = 8;
const space = { model: 'test:p', dims: DIMS };
/** Document n's vector: one of 8 axes, tilted by n so every document has its own direction. */
const vectorOf = (n: number, axis = n % DIMS): Float32Array =>
  unit(Array.from({ length: DIMS }, (_, i) => (i === axis ? 1 : 0) + ((n * (i + 3)) % 17) / 100));
const vectors = new Map<string, Float32Array>();
const docs = (connector: string, from: number, count: number, axis?: number) =>
  Array.from({ length: count }, (_, k) => {
    const text = `${connector}-doc-${from + k}`;
    vectors.set(text, vectorOf(from + k, axis));
    return makeDoc(connector, `${text}.md`, [text]);
  });
const embed = (store: LanceStore) => embedChunks(store, space, (text) => vectors.get(text.trim()) ?? null);
const probe = (store: LanceStore, text: string, source?: string) =>
  store.vectorSearch({
    vector: vectors.get(text)!,
    space,
    limit: 3,
    candidateK: 10,
    ...(source === undefined ? {} : { filter: { source } }),
  });

it(
  'the doc_id BTREE comes with the vector index; filtered ' + 'searches and merge-inserts after optimize stay right',
  async () => {
    const file = path.join(root, 'kb.lance');
    const store = await openLanceStore(file, 'create', {}, { threshold: 60 });
    try {
      await putAll(store, [...docs('filesystem:v', 0, 60), ...docs('git:w', 100, 10)]);
      await embed(store);
      assert.deepEqual(await store.refreshVectorIndex(space), { vectors: 70, index: 'rebuilt' });
      const lance = await loadLance();
      const table = await (await lance.lancedb.connect(file)).openTable(TABLE);
      const indices = (await table.listIndices()).map((i) => i.columns.join(',')).sort();
      assert.deepEqual(
        indices,
        ['doc_id', 'source', 'updated_at', 'vector_8'],
        'scalar indexes on doc_id and the emb stamps (ADR 0246), none on row_key',
      );

      const filtered = await probe(store, 'git:w-doc-103', 'git:w');
      assert.equal(filtered.hits[0]?.document.sourceId, 'git:w-doc-103.md');
      assert.ok(
        filtered.hits.every((h) => h.document.connector === 'git:w'),
        'only git:w documents',
      );
      assert.equal(filtered.approximate, false, 'a narrow filter is answered by an exact scan of its rows');
      assert.equal((await probe(store, 'git:w-doc-103')).approximate, true, 'without a filter: through the index');

      // Rows added, folded in by optimize; then rewritten in place (merge-insert on row_key after optimize).
      await putAll(store, docs('git:w', 110, 5));
      await embed(store);
      assert.deepEqual(await store.refreshVectorIndex(space), { vectors: 75, index: 'updated' });
      const old = vectors.get('git:w-doc-103')!;
      const rewritten = makeDoc('git:w', 'git:w-doc-103.md', ['git:w-doc-103 v2']);
      vectors.set('git:w-doc-103 v2', vectorOf(203, 5));
      await putAll(store, [rewritten]);
      await embed(store);
      const found = await probe(store, 'git:w-doc-103 v2', 'git:w');
      assert.equal(found.hits[0]?.document.sourceId, 'git:w-doc-103.md');
      assert.ok(Math.abs(found.hits[0]!.score - 1) < 1e-5, `the new vector is the one stored: ${found.hits[0]!.score}`);
      vectors.set('old', old);
      const byOld = await probe(store, 'old', 'git:w');
      assert.ok(
        byOld.hits.every((h) => h.document.sourceId !== 'git:w-doc-103.md' || h.score < 0.999),
        'the old vector is gone',
      );
    } finally {
      await store.close();
    }
    // Another connection reads the table afresh: one row per chunk, no copies left by a missed match.
    const reopened = await openLanceStore(file);
    try {
      assert.deepEqual(await reopened.counts(), { documents: 75, chunks: 75, embedded: 75 });
      const report = await reopened.checkIntegrity();
      assert.equal(report.chunks, 75);
    } finally {
      await reopened.close();
    }
  },
);
