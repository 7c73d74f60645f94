// The LanceDB store's wide search filters through its IVF-RQ index (ADR 0246), on real Lance tables: the emb rows
// carry their document's source, connector and updated_at, so source/since go to Lance as a prefilter. A source that
// is a small share of the rows, far from the query, still fills the answer, from candidates that all pass (not a
// postfilter of the global top-k); a rewrite that keeps a chunk's vector restamps it in the same commit; and emb rows
// written before the stamps (NULL) are still found, then stamped by refreshVectorIndex.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import type { SourceFilter } from '../../../core/api/plugin.ts';
import { loadLance } from '../../../plugins/store-lancedb/lance-module.ts';
import { openLanceStore, type LanceStore } from '../../../plugins/store-lancedb/lance-store.ts';
import { TABLE } from '../../../plugins/store-lancedb/rows.ts';
import {
  writeIndexed,
  exactTopDocuments,
  makeDoc,
  putAll,
  seededRandom,
  unit,
  type TestDoc,
} from '../../contract/store/fixtures.ts';

const root = mkdtempSync(path.join(tmpdir(), 'kbctx-lance-stamped-'));
const file = path.join(root, 'kb.lance');
const DIMS = 16;
const space = { model: 'test:stamped', dims: DIMS };

const rand = seededRandom(7);
/** Near axis 0 (the query's side) or axis 8 (the other side), with noise. */
const near = (axis: number): Float32Array =>
  unit(Array.from({ length: DIMS }, (_, i) => (i === axis ? 3 : 0) + rand()));

const vectors = new Map<string, Float32Array>();
const docs = (connector: string, count: number, axis: number, updatedAt: string): TestDoc[] =>
  Array.from({ length: count }, (_, n) => {
    const text = `${connector} ${n}`;
    vectors.set(text, near(axis));
    return makeDoc(connector, `${n}.md`, [text], { updatedAt });
  });
// 300 documents near the query in 2025, 30 (9 %) on the far side in 2026.
let all = [
  ...docs('git:a', 300, 0, '2025-03-01T00:00:00.000Z'),
  ...docs('filesystem:b', 30, 8, '2026-03-01T00:00:00Z'),
];

const exactTop = (q: Float32Array, k: number, keep: (d: TestDoc) => boolean) =>
  exactTopDocuments(all, (text) => vectors.get(text)!, q, k, keep);

let store: LanceStore;
before(async () => {
  // exactFilterMax 5: every filter here leaves more documents, so none is answered by the exact `doc_id IN` scan.
  store = await openLanceStore(file, 'create', {}, { threshold: 200, exactFilterMax: 5 });
  // As a sync ends: compact() builds the doc_id BTREE (ADR 0245) before any vector is written.
  assert.equal(
    await writeIndexed(store, all, space, (text) => vectors.get(text) ?? null, { compact: true }),
    'rebuilt',
  );
  const lance = await loadLance();
  const table = await (await lance.lancedb.connect(file)).openTable(TABLE);
  for (const i of await table.listIndices())
    assert.equal(
      (await table.indexStats(i.name))?.numUnindexedRows,
      0,
      `${i.name} covers the emb rows written after it`,
    );
  table.close();
});
after(async () => {
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

const LIMIT = 5;
const search = (filter: SourceFilter) =>
  store.vectorSearch({ vector: unit([1, ...Array(DIMS - 1).fill(0)]), space, limit: LIMIT, candidateK: 20, filter });

/** The search through the index equals the exact scan, from candidates of the filtered rows only. */
async function assertPrefiltered(filter: SourceFilter, keep: (d: TestDoc) => boolean): Promise<void> {
  const result = await search(filter);
  const q = unit([1, ...Array(DIMS - 1).fill(0)]);
  const want = exactTop(q, LIMIT, keep);
  assert.equal(result.approximate, true, 'answered through the index');
  assert.deepEqual(
    result.hits.map((h) => h.document.id),
    want.map((w) => w.id),
    JSON.stringify(filter),
  );
  result.hits.forEach((h, i) => assert.ok(Math.abs(h.score - want[i]!.score) < 1e-6, 'the exact cosine'));
  // A postfilter of the global top-k would first read 60 rows of git:a (none passes), then ask again for more.
  assert.ok(
    result.candidateCount <= all.filter(keep).length,
    `${result.candidateCount} candidates: only rows the filter allows`,
  );
}

const isB = (d: TestDoc): boolean => d.doc.connector === 'filesystem:b';
const since2026 = (d: TestDoc): boolean => Date.parse(d.doc.updatedAt) >= Date.parse('2026-01-01T00:00:00Z');

it('a source or since filter on a small, distant share of the rows fills the answer from a prefilter', async () => {
  await assertPrefiltered({ source: 'filesystem:b' }, isB);
  await assertPrefiltered({ source: 'filesystem' }, isB);
  // Another spelling of the instant: stamps and bounds compare as UTC instants.
  await assertPrefiltered({ since: '2026-01-01T01:00:00+01:00' }, since2026);
});

it('a rewrite that keeps the chunks restamps their vectors in the same commit', async () => {
  // git:a 0 moves to 2026 and filesystem:b 0 to 2024, their chunks (and vectors) unchanged: no re-embedding.
  const moved = [
    makeDoc('git:a', '0.md', ['git:a 0'], { updatedAt: '2026-06-01T00:00:00.000Z' }),
    makeDoc('filesystem:b', '0.md', ['filesystem:b 0'], { updatedAt: '2024-06-01T00:00:00.000Z' }),
  ];
  await putAll(store, moved);
  all = all.map((d) => moved.find((m) => m.doc.id === d.doc.id) ?? d);
  assert.equal(await store.countPendingEmbeddings(space), 0, 'the vectors were kept');
  const result = await search({ since: '2026-01-01T00:00:00Z' });
  assert.ok(
    result.hits.some((h) => h.document.id === moved[0]!.doc.id),
    'the newly recent document is found',
  );
  await assertPrefiltered({ since: '2026-01-01T00:00:00Z' }, since2026);
});

it('emb rows without stamps are still found, and refreshVectorIndex stamps them', async () => {
  const lance = await loadLance();
  const table = await (await lance.lancedb.connect(file)).openTable(TABLE);
  // As a table written before stamps: the emb rows' stamp columns empty.
  await table.update({ where: "kind = 'emb'", valuesSql: { source: 'NULL', connector: 'NULL', updated_at: 'NULL' } });
  const reopened = await openLanceStore(file, 'create', {}, { threshold: 200, exactFilterMax: 5 });
  try {
    const q = unit([1, ...Array(DIMS - 1).fill(0)]);
    const found = await reopened.vectorSearch({
      vector: q,
      space,
      limit: LIMIT,
      candidateK: 20,
      filter: { source: 'filesystem:b' },
    });
    assert.deepEqual(
      found.hits.map((h) => h.document.id),
      exactTop(q, LIMIT, isB).map((w) => w.id),
      'unstamped rows pass the prefilter; the postfilter judges them',
    );
    await reopened.refreshVectorIndex(space);
    await table.checkoutLatest();
    assert.equal(await table.countRows("kind = 'emb' AND source IS NULL"), 0, 'every emb row stamped');
    assert.equal(await table.countRows("kind = 'emb' AND source = 'filesystem:b'"), 30);
    const indexed = (await table.listIndices()).flatMap((i) => i.columns).sort();
    assert.deepEqual(indexed, ['doc_id', 'source', 'updated_at', `vector_${DIMS}`]);
  } finally {
    await reopened.close();
    table.close();
  }
});
