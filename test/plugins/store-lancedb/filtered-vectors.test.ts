// The LanceDB store's vector answers once its IVF-RQ index exists (ADR 0235, 0244), against the exact best-chunk
// scan the test computes on the same seeded vectors: a filtered search (source, since) returns exactly the exact
// scan's documents and scores, and an unfiltered one, re-ranked by the store on the candidates' vectors, returns
// exact scores in order with a high recall.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import type { SourceFilter } from '../../../core/api/plugin.ts';
import { openLanceStore, type LanceStore } from '../../../plugins/store-lancedb/lance-store.ts';
import {
  writeIndexed,
  exactTopDocuments,
  makeDoc,
  seededRandom,
  unit,
  type TestDoc,
} from '../../contract/store/fixtures.ts';

const root = mkdtempSync(path.join(tmpdir(), 'kbctx-lance-filtered-'));
const DIMS = 16;
const space = { model: 'test:filtered', dims: DIMS };

const rand = seededRandom(11);
const centres = Array.from({ length: 12 }, () => Array.from({ length: DIMS }, rand));
const near = (): Float32Array => unit(centres[Math.floor((rand() + 0.5) * 12) % 12]!.map((x) => x + rand() * 0.4));

const vectors = new Map<string, Float32Array>();
/** `count` documents of `connector`, two chunks each, half updated in 2025 and half in 2026. */
const docs = (connector: string, count: number): TestDoc[] =>
  Array.from({ length: count }, (_, n) => {
    const texts = [`${connector} ${n} one`, `${connector} ${n} two`];
    for (const t of texts) vectors.set(t, near());
    const updatedAt = n % 2 === 0 ? '2025-03-01T00:00:00.000Z' : '2026-03-01T00:00:00.000Z';
    return makeDoc(connector, `${n}.md`, texts, { updatedAt });
  });
const all = [...docs('git:a', 240), ...docs('filesystem:b', 40)];

/** The exact top `k` documents by their best chunk's cosine among those `keep` lets through. */
const exactTop = (q: Float32Array, k: number, keep?: (d: TestDoc) => boolean) =>
  exactTopDocuments(all, (text) => vectors.get(text)!, q, k, keep);

let store: LanceStore;
before(async () => {
  store = await openLanceStore(path.join(root, 'kb.lance'), 'create', {}, { threshold: 200 });
  // One commit for all the documents, as a sync writes them (a commit per document would make the set-up slow).
  assert.equal(await writeIndexed(store, all, space, (text) => vectors.get(text) ?? null), 'rebuilt');
});
after(async () => {
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

const search = (vector: Float32Array, filter?: SourceFilter) =>
  store.vectorSearch({ vector, space, limit: 5, candidateK: 20, ...(filter ? { filter } : {}) });

it('a filtered search equals the exact scan of the documents the filter lets through', async () => {
  const cases: [SourceFilter, (d: TestDoc) => boolean][] = [
    [{ source: 'filesystem:b' }, (d) => d.doc.connector === 'filesystem:b'],
    [{ since: '2026-01-01T00:00:00Z' }, (d) => d.doc.updatedAt.startsWith('2026')],
    [{ source: 'git', since: '2026-01-01T00:00:00Z' }, (d) => d.doc.connector === 'git:a' && d.doc.updatedAt >= '2026'],
  ];
  for (let q = 0; q < 5; q++) {
    const vector = near();
    for (const [filter, keep] of cases) {
      const result = await search(vector, filter);
      const want = exactTop(vector, 5, keep);
      assert.equal(result.approximate, false, 'a narrow filter is scanned exactly');
      assert.deepEqual(
        result.hits.map((h) => h.document.id),
        want.map((w) => w.id),
        JSON.stringify(filter),
      );
      result.hits.forEach((h, i) => assert.ok(Math.abs(h.score - want[i]!.score) < 1e-6));
    }
  }
});

it(
  'an unfiltered search through the index returns exact scores, ' + 'best first, with recall@5 of at least 0.9',
  async () => {
    let found = 0;
    for (let q = 0; q < 20; q++) {
      const vector = near();
      const result = await search(vector);
      assert.equal(result.approximate, true, 'answered through the index');
      const exact = new Map(exactTop(vector, all.length).map((e) => [e.id, e.score]));
      for (const [i, h] of result.hits.entries()) {
        assert.ok(Math.abs(h.score - exact.get(h.document.id)!) < 1e-6, 'the exact best-chunk cosine');
        if (i > 0) assert.ok(h.score <= result.hits[i - 1]!.score, 'best first');
      }
      const top = new Set(exactTop(vector, 5).map((e) => e.id));
      found += result.hits.filter((h) => top.has(h.document.id)).length;
    }
    assert.ok(found / 100 >= 0.9, `recall@5 ${found / 100}`);
  },
);
