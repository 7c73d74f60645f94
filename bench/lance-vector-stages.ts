// `node bench/lance-vector-stages.ts <dir>` on a store built by `lance-vector-profile.ts build <dir>`: where the ms of
// one store vector query (limit 10, candidateK 50) go, stage by stage, each stage timed alone on the same queries
// (p50 of BENCH_QUERIES, after 20 untimed): the whole store query; Lance's candidate query as the store sends it
// (100 rows, no refine, vectors selected) and without the vectors; Lance's own refine instead; the Arrow decode and
// JS re-rank of the 100 rows; the row read of ten documents. A profiling aid (ADR 0246); prints numbers only.
import path from 'node:path';
import type { Table as ArrowTable } from 'apache-arrow';
import { dotAt } from '../plugins/store-sqlite/api.ts';
import { loadLance } from '../plugins/store-lancedb/lance-module.ts';
import { openLanceStore } from '../plugins/store-lancedb/lance-store.ts';
import { TABLE, sqlList } from '../plugins/store-lancedb/rows.ts';
import { randomVector, SPACE } from './bench-store.ts';
import { fmtMs, median } from './stats.ts';

const QUERIES = Number(process.env['BENCH_QUERIES'] ?? 200);
const COLUMN = `vector_${SPACE.dims}`;
const file = path.join(process.argv[2]!, 'index.lance');

const lance = await loadLance();
const table = await (await lance.lancedb.connect(file)).openTable(TABLE);
const store = await openLanceStore(file, 'read');
const queries = Array.from({ length: QUERIES }, (_, q) => randomVector(10_000_000 + q));

async function timed(label: string, run: (q: Float32Array, i: number) => Promise<unknown>): Promise<void> {
  for (const [i, q] of queries.slice(0, 20).entries()) await run(q, i);
  const ms: number[] = [];
  for (const [i, q] of queries.entries()) {
    const t = performance.now();
    await run(q, i);
    ms.push(performance.now() - t);
  }
  console.log(`${label.padEnd(64)} p50 ${fmtMs(median(ms)).padStart(7)} ms`);
}

const candidates = (q: Float32Array, k: number, columns: string[]) =>
  table.vectorSearch(q).column(COLUMN).distanceType('cosine').limit(k).nprobes(40).select(columns);

function rerank(rows: ArrowTable, q: Float32Array): number {
  const keys = rows.getChild('row_key')!;
  const vectors = rows.getChild(COLUMN)!;
  let best = -Infinity;
  for (let i = 0; i < rows.numRows; i++) {
    const s = dotAt((vectors.get(i) as { toArray(): Float32Array }).toArray(), 0, q, q.length);
    if (s > best && (keys.get(i) as string) !== '') best = s;
  }
  return best;
}

// The rows each query's answer reads (chunk + head of ten documents), taken from the store's own answers.
const answers = await Promise.all(
  queries.map((vector) => store.vectorSearch({ vector, space: SPACE, limit: 10, candidateK: 50 })),
);
const toRead = answers.map((a) => ({
  docs: a.hits.map((h) => h.document.id),
  keys: a.hits.flatMap((h) => [`c:${h.chunk.id}`, `d:${h.document.id}`]),
}));
const arrows = await Promise.all(
  queries.map((q) => candidates(q, 100, ['row_key', 'content_hash', COLUMN, '_distance']).toArrow()),
);

console.log(`${await table.countRows("kind = 'emb'")} vectors; ${QUERIES} queries; load ${(await uptime()).trim()}`);
await timed('store.vectorSearch (limit 10, candidateK 50)', (vector) =>
  store.vectorSearch({ vector, space: SPACE, limit: 10, candidateK: 50 }),
);
await timed('lance k100 nprobes 40, no refine, key+hash+vector+dist (store)', (q) =>
  candidates(q, 100, ['row_key', 'content_hash', COLUMN, '_distance']).toArrow(),
);
await timed('lance k100 nprobes 40, no refine, key+hash+dist', (q) =>
  candidates(q, 100, ['row_key', 'content_hash', '_distance']).toArrow(),
);
await timed('lance k50 nprobes 40, refine 2 (Lance), key+hash+dist', (q) =>
  candidates(q, 50, ['row_key', 'content_hash', '_distance']).refineFactor(2).toArrow(),
);
await timed('lance k50 nprobes 20, refine 2 (Lance), key+hash+dist', (q) =>
  candidates(q, 50, ['row_key', 'content_hash', '_distance']).nprobes(20).refineFactor(2).toArrow(),
);
await timed('lance k50 nprobes 40, no refine, key+hash+dist', (q) =>
  candidates(q, 50, ['row_key', 'content_hash', '_distance']).toArrow(),
);
await timed('JS: decode 100 vectors + dotAt re-rank', async (q, i) => rerank(arrows[i]!, q));
await timed('row read: 10 chunks + 10 heads (doc_id IN AND row_key IN)', (_, i) =>
  table
    .query()
    .where(`doc_id IN ${sqlList(toRead[i]!.docs)} AND row_key IN ${sqlList(toRead[i]!.keys)}`)
    .select(['row_key', 'kind', 'content_hash', 'text', 'doc_id', 'source', 'connector', 'title', 'updated_at'])
    .toArrow(),
);
await store.close();

async function uptime(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
}
