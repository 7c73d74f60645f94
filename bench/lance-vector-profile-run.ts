// The timing half of lance-vector-profile.ts: on a built store, the store's vector query (p50 and recall@10 of its
// documents against the exact best-chunk scan) and Lance's query alone under other settings.
import type { Table, VectorQuery } from '@lancedb/lancedb';
import type { VectorResult } from '../core/api/plugin.ts';
import { dotAt } from '../plugins/store-sqlite/api.ts';
import { loadLance } from '../plugins/store-lancedb/lance-module.ts';
import { openLanceStore } from '../plugins/store-lancedb/lance-store.ts';
import { TABLE } from '../plugins/store-lancedb/rows.ts';
import { randomVector, SPACE } from './bench-store.ts';
import { fmtMs, median } from './stats.ts';

const QUERIES = Number(process.env['BENCH_QUERIES'] ?? 200);
const COLUMN = `vector_${SPACE.dims}`;
const docOfKey = new Map<string, string>();

interface Exact {
  docs: string[];
  vectors: Float32Array;
}

async function readAll(table: Table): Promise<Exact> {
  const rows = await table.query().where("kind = 'emb'").select(['row_key', 'doc_id', COLUMN]).toArrow();
  const docs: string[] = [];
  const vectors = new Float32Array(rows.numRows * SPACE.dims);
  const d = rows.getChild('doc_id')!;
  const v = rows.getChild(COLUMN)!;
  const k = rows.getChild('row_key')!;
  for (let i = 0; i < rows.numRows; i++) {
    docs.push(d.get(i) as string);
    docOfKey.set(k.get(i) as string, d.get(i) as string);
    vectors.set((v.get(i) as { toArray(): Float32Array }).toArray(), i * SPACE.dims);
  }
  return { docs, vectors };
}

function exactDocs(all: Exact, q: Float32Array, k: number, keep?: (doc: string) => boolean): string[] {
  const best = new Map<string, number>();
  for (let i = 0; i < all.docs.length; i++) {
    const doc = all.docs[i]!;
    if (keep && !keep(doc)) continue;
    const s = dotAt(all.vectors, i * SPACE.dims, q, SPACE.dims);
    if (s > (best.get(doc) ?? -Infinity)) best.set(doc, s);
  }
  return [...best.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([d]) => d);
}

const recall = (found: string[][], truth: string[][]): number =>
  found.reduce((sum, f, i) => sum + f.filter((d) => truth[i]!.includes(d)).length / truth[i]!.length, 0) / found.length;

/** Each run on each query in turn (old and new alternate, so load changes hit both alike). */
async function timedMany<T>(runs: { label: string; run: (q: Float32Array) => Promise<T> }[], queries: Float32Array[]) {
  for (const q of queries.slice(0, 20)) for (const r of runs) await r.run(q);
  const ms = runs.map(() => [] as number[]);
  const out = runs.map(() => [] as T[]);
  for (const q of queries)
    for (const [i, r] of runs.entries()) {
      const t = performance.now();
      out[i]!.push(await r.run(q));
      ms[i]!.push(performance.now() - t);
    }
  return runs.map((r, i) => ({ label: r.label, p50: median(ms[i]!), out: out[i]! }));
}

async function timed<T>(label: string, run: (q: Float32Array) => Promise<T>, queries: Float32Array[]) {
  for (const q of queries.slice(0, 20)) await run(q);
  const ms: number[] = [];
  const out: T[] = [];
  for (const q of queries) {
    const t = performance.now();
    out.push(await run(q));
    ms.push(performance.now() - t);
  }
  return { label, p50: median(ms), out };
}

export async function runProfile(file: string): Promise<void> {
  const lance = await loadLance();
  const table = await (await lance.lancedb.connect(file)).openTable(TABLE);
  const all = await readAll(table);
  const queries = Array.from({ length: QUERIES }, (_, q) => randomVector(10_000_000 + q));
  const truth = queries.map((q) => exactDocs(all, q, 10));
  const store = await openLanceStore(file);
  // BENCH_OLD: a checkout of other code (e.g. main, `git archive`) whose store answers the same queries, interleaved.
  const oldRoot = process.env['BENCH_OLD'];
  const oldStore = oldRoot
    ? await (
        (await import(`${oldRoot}/plugins/store-lancedb/lance-store.ts`)) as { openLanceStore: typeof openLanceStore }
      ).openLanceStore(file)
    : undefined;
  console.log(`${all.docs.length} vectors; indices ${(await table.listIndices()).map((i) => i.indexType).join(',')}`);
  const print = (r: { label: string; p50: number }, rec?: number) =>
    console.log(
      `${r.label.padEnd(60)} p50 ${fmtMs(r.p50).padStart(7)} ms` +
        (rec === undefined ? '' : `  recall@10 ${rec.toFixed(3)}`),
    );
  const printHits = (rs: { label: string; p50: number; out: VectorResult[] }[], t: string[][]) => {
    for (const r of rs)
      print(
        r,
        recall(
          r.out.map((x) => x.hits.map((h) => h.document.id)),
          t,
        ),
      );
  };
  const stores: Record<string, typeof store> = oldStore ? { new: store, old: oldStore } : { new: store };
  const results = await timedMany(
    Object.entries(stores).map(([name, st]) => ({
      label: `store.vectorSearch ${name} (limit 10, candidateK 50)`,
      run: (vector: Float32Array) => st.vectorSearch({ vector, space: SPACE, limit: 10, candidateK: 50 }),
    })),
    queries,
  );
  printHits(results, truth);
  // A source filter passing 10 % of the documents (more than the store sends as `doc_id IN`: a postfilter).
  const filter = { source: 'filesystem:s3' };
  const labelOf = new Map(
    (await table.query().where("kind = 'doc'").select(['doc_id', 'source']).toArray()).map(
      (r: { doc_id: string; source: string }) => [r.doc_id, r.source] as const,
    ),
  );
  const filteredTruth = queries.map((q) => exactDocs(all, q, 10, (d) => labelOf.get(d) === filter.source));
  const filtered = await timedMany(
    Object.entries(stores).map(([name, st]) => ({
      label: `store.vectorSearch ${name}, source filter (10 %)`,
      run: (vector: Float32Array) => st.vectorSearch({ vector, space: SPACE, limit: 10, candidateK: 50, filter }),
    })),
    queries,
  );
  printHits(filtered, filteredTruth);
  if (process.env['BENCH_STORE_ONLY'] === '1') return;
  const base = (q: Float32Array, k: number): VectorQuery =>
    table.vectorSearch(q).column(COLUMN).distanceType('cosine').limit(k);
  const variants: [string, (q: Float32Array) => VectorQuery][] = [
    [
      'lance k50 nprobes 40 refine 10 select key,vec,dist',
      (q) => base(q, 50).nprobes(40).refineFactor(10).select(['row_key', COLUMN, '_distance']),
    ],
    [
      'lance k50 nprobes 40 refine 10 select key,dist',
      (q) => base(q, 50).nprobes(40).refineFactor(10).select(['row_key', '_distance']),
    ],
    [
      'lance k50 nprobes 40 refine 2 select key,vec,dist',
      (q) => base(q, 50).nprobes(40).refineFactor(2).select(['row_key', COLUMN, '_distance']),
    ],
    [
      'lance k50 nprobes 40 refine 2 select key,dist',
      (q) => base(q, 50).nprobes(40).refineFactor(2).select(['row_key', '_distance']),
    ],
    ['lance k50 nprobes 40 no refine select key,dist', (q) => base(q, 50).nprobes(40).select(['row_key', '_distance'])],
    [
      'lance k50 nprobes 20 refine 2 select key,dist',
      (q) => base(q, 50).nprobes(20).refineFactor(2).select(['row_key', '_distance']),
    ],
    [
      'lance k10 nprobes 40 refine 10 select key,dist',
      (q) => base(q, 10).nprobes(40).refineFactor(10).select(['row_key', '_distance']),
    ],
    [
      'lance k50 flat (bypass index) select key,dist',
      (q) => base(q, 50).bypassVectorIndex().select(['row_key', '_distance']),
    ],
  ];
  for (const [label, make] of variants) {
    const r = await timed(label, (q) => make(q).toArrow(), queries);
    const found = r.out.map((rows) => {
      const keys = rows.getChild('row_key')!;
      const docs: string[] = [];
      for (let i = 0; i < rows.numRows && docs.length < 10; i++) {
        const doc = docOfKey.get(keys.get(i) as string);
        if (doc !== undefined && !docs.includes(doc)) docs.push(doc);
      }
      return docs;
    });
    print(r, recall(found, truth));
  }
  await store.close();
  await oldStore?.close();
}
