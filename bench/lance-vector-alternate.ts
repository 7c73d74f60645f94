// `node bench/lance-vector-alternate.ts <dir> [<dir2>]` on stores built by `lance-vector-profile.ts build <dir>`: the
// store's candidate query and the row read in their forms, each query asked of every form in turn (load hits all
// alike), p50 of BENCH_QUERIES; with <dir2> (a copy of <dir> in another state, e.g. after refreshVectorIndex) each
// form is asked of both tables in turn. A profiling aid (ADR 0246); prints numbers only.
import path from 'node:path';
import type { VectorQuery } from '@lancedb/lancedb';
import { loadLance } from '../plugins/store-lancedb/lance-module.ts';
import { TABLE, sqlList } from '../plugins/store-lancedb/rows.ts';
import { randomVector, SPACE } from './bench-store.ts';
import { fmtMs, median } from './stats.ts';

const QUERIES = Number(process.env['BENCH_QUERIES'] ?? 200);
const COLUMN = `vector_${SPACE.dims}`;
const lance = await loadLance();
const open = async (dir: string) => (await lance.lancedb.connect(path.join(dir, 'index.lance'))).openTable(TABLE);
const tables = await Promise.all(process.argv.slice(2).map(open));
let table = tables[0]!;
const queries = Array.from({ length: QUERIES }, (_, q) => randomVector(10_000_000 + q));
const base = (q: Float32Array, k: number): VectorQuery =>
  table.vectorSearch(q).column(COLUMN).distanceType('cosine').limit(k);
// The rows an answer reads: ten documents' best chunks (the store's), as doc ids and chunk keys.
const top = await Promise.all(
  queries.map(async (q) => {
    const rows = await base(q, 100).nprobes(40).select(['row_key', 'doc_id', '_distance']).toArray();
    const docs = new Map<string, string>();
    for (const r of rows as { row_key: string; doc_id: string }[])
      if (docs.size < 10 && !docs.has(r.doc_id)) docs.set(r.doc_id, r.row_key.slice(2));
    return docs;
  }),
);
const read = (i: number, where: (docs: string[], chunks: string[]) => string, columns: string[]) => {
  const docs = [...top[i]!.keys()];
  const chunks = [...top[i]!.values()];
  return table.query().where(where(docs, chunks)).select(columns).toArrow();
};
const TEXT = ['row_key', 'kind', 'content_hash', 'text', 'doc_id', 'source', 'connector', 'title', 'updated_at'];
const forms: [string, (q: Float32Array, i: number) => Promise<unknown>][] = [
  [
    'k100 nprobes 40, key+hash+vector+dist (store today)',
    (q) => base(q, 100).nprobes(40).select(['row_key', 'content_hash', COLUMN, '_distance']).toArrow(),
  ],
  [
    'k50 nprobes 40, Lance refine 2, key+hash+dist',
    (q) => base(q, 50).nprobes(40).refineFactor(2).select(['row_key', 'content_hash', '_distance']).toArrow(),
  ],
  [
    'k100 nprobes 40, key+hash+dist (no vectors)',
    (q) => base(q, 100).nprobes(40).select(['row_key', 'content_hash', '_distance']).toArrow(),
  ],
  [
    'k100 nprobes 20, key+hash+vector+dist',
    (q) => base(q, 100).nprobes(20).select(['row_key', 'content_hash', COLUMN, '_distance']).toArrow(),
  ],
  [
    'row read today: doc_id IN AND row_key IN (c:, d:)',
    (_, i) =>
      read(
        i,
        (d, c) =>
          `doc_id IN ${sqlList(d)} AND row_key IN ${sqlList([...c.map((x) => `c:${x}`), ...d.map((x) => `d:${x}`)])}`,
        TEXT,
      ),
  ],
  [
    'row read + emb vectors: doc_id IN AND row_key IN (c:, d:, e:)',
    (_, i) =>
      read(
        i,
        (d, c) =>
          `doc_id IN ${sqlList(d)} AND row_key IN ` +
          sqlList([...c.flatMap((x) => [`c:${x}`, `e:${x}`]), ...d.map((x) => `d:${x}`)]),
        [...TEXT, COLUMN],
      ),
  ],
  ['row read: doc_id IN only', (_, i) => read(i, (d) => `doc_id IN ${sqlList(d)}`, TEXT)],
];
const ms = forms.map(() => tables.map(() => [] as number[]));
for (const [i, q] of queries.entries())
  for (const [f, [, run]] of forms.entries())
    for (const [d, t] of tables.entries()) {
      table = t;
      const started = performance.now();
      await run(q, i);
      if (i >= 20) ms[f]![d]!.push(performance.now() - started);
    }
const load = (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`${await table.countRows("kind = 'emb'")} vectors; ${QUERIES} queries (first 20 untimed); load ${load}`);
for (const [f, [label]] of forms.entries())
  for (const [d, dir] of process.argv.slice(2).entries())
    console.log(`${label.padEnd(60)} ${path.basename(dir).padEnd(9)} p50 ${fmtMs(median(ms[f]![d]!)).padStart(7)} ms`);
