// `node bench/lance-vector-ab.ts <old checkout> <old dir> <new dir>`: the store's vector query (limit 10,
// candidateK 50) of another checkout's code on its own built store against this checkout's on its own (e.g. main's
// code on a store as main's refreshVectorIndex leaves it, and this code on a copy refreshed by it), each query asked
// of both, the order swapped every query so caches and load fall on both alike; p50 of BENCH_QUERIES. A profiling
// aid (ADR 0246).
import path from 'node:path';
import { openLanceStore } from '../plugins/store-lancedb/lance-store.ts';
import { randomVector, SPACE } from './bench-store.ts';
import { fmtMs, median } from './stats.ts';

const [, , oldRoot, oldDir, newDir] = process.argv;
const QUERIES = Number(process.env['BENCH_QUERIES'] ?? 200);
const oldModule = (await import(`${oldRoot}/plugins/store-lancedb/lance-store.ts`)) as {
  openLanceStore: typeof openLanceStore;
};
const stores = [
  { label: 'old code, old store', store: await oldModule.openLanceStore(path.join(oldDir!, 'index.lance'), 'read') },
  { label: 'new code, new store', store: await openLanceStore(path.join(newDir!, 'index.lance'), 'read') },
];
const ms = stores.map(() => [] as number[]);
for (let q = 0; q < QUERIES; q++) {
  const vector = randomVector(20_000_000 + q);
  for (const i of q % 2 === 0 ? [0, 1] : [1, 0]) {
    const t = performance.now();
    await stores[i]!.store.vectorSearch({ vector, space: SPACE, limit: 10, candidateK: 50 });
    if (q >= 20) ms[i]!.push(performance.now() - t);
  }
}
const load = (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`${QUERIES} queries (first 20 untimed), order swapped each query; load ${load}`);
for (const [i, s] of stores.entries()) console.log(`${s.label.padEnd(24)} p50 ${fmtMs(median(ms[i]!)).padStart(7)} ms`);
for (const s of stores) await s.store.close();
