// `npm run bench:stores`: SQLite and LanceDB side by side (ADR 0125) on SciFact replicated to each size in BENCH_SIZES
// (default 5183,51830): time to add the documents (bulk, as sync writes them) and tidy, keyword p50/p95 over the 809
// train queries (store level, limit 10; cold: the first pass, warm: the second), vector p50 and hybrid p50 (keyword +
// vector, 384-dim unit vectors, 200 queries), size on disk, and the RSS of a process that opened the index and ran the
// searches. Each (store, size) runs in its own child process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from '../core/store/store.ts';
import {
  indexBytes,
  indexFile,
  openBenchStore,
  randomVector,
  sciFactQueries,
  SPACE,
  STORE_KINDS,
  type StoreKind,
  writeRandomEmbeddings,
  writeSciFact,
} from './bench-store.ts';
import { fmtMs, median, percentile } from './stats.ts';

const [, , storeArg, sizeArg, dirArg] = process.argv;

async function measure(kind: StoreKind, size: number, dir: string): Promise<void> {
  const file = indexFile(kind, dir);
  const open = (): Promise<Store> => openBenchStore(kind, file);
  const writer = await open();
  const started = performance.now();
  await writeSciFact(writer, size);
  const indexMs = performance.now() - started;
  await writeRandomEmbeddings(writer);
  // As `kbctx embed` does after embedding: a store with an ANN index builds it (LanceDB, ADR 0235).
  await writer.refreshVectorIndex(SPACE);
  await writer.compact();
  await writer.close();

  const openStarted = performance.now();
  const store = await open();
  const queries = sciFactQueries();
  await store.keywordSearch({ terms: queries[0]!, limit: 10, candidateK: 10 });
  const openMs = performance.now() - openStarted;
  // Cold: the first pass, each term read for the first time in this process; warm: the second.
  const keywordPass = async (): Promise<number[]> => {
    const times: number[] = [];
    for (const terms of queries) {
      const t = performance.now();
      await store.keywordSearch({ terms, limit: 10, candidateK: 10 });
      times.push(performance.now() - t);
    }
    return times;
  };
  const cold = await keywordPass();
  const keyword = await keywordPass();
  const vectors: number[] = [];
  const hybrid: number[] = [];
  for (let q = 0; q < 200; q++) {
    const query = { vector: randomVector(10_000_000 + q), space: SPACE, limit: 10, candidateK: 50 };
    let t = performance.now();
    await store.vectorSearch(query);
    vectors.push(performance.now() - t);
    t = performance.now();
    await Promise.all([
      store.keywordSearch({ terms: queries[q]!, limit: 50, candidateK: 50 }),
      store.vectorSearch(query),
    ]);
    hybrid.push(performance.now() - t);
  }
  const counts = await store.counts();
  await store.close();
  const rss = process.memoryUsage().rss;
  console.log(
    `${kind.padEnd(7)} ${String(size).padStart(6)} docs (${counts.chunks} chunks): index ` +
      `${(indexMs / 1000).toFixed(1)} s, open ${fmtMs(openMs)} ms; ` +
      `keyword cold p50 ${fmtMs(median(cold))} ms p95 ${fmtMs(percentile(cold, 95))} ms, ` +
      `warm p50 ${fmtMs(median(keyword))} ms p95 ${fmtMs(percentile(keyword, 95))} ms; ` +
      `vector p50 ${fmtMs(median(vectors))} ms; hybrid p50 ${fmtMs(median(hybrid))} ms; ` +
      `disk ${(indexBytes(file) / 1e6) | 0} MB; RSS ${(rss / 1e6).toFixed(0)} MB`,
  );
}

if (storeArg) {
  await measure(storeArg as StoreKind, Number(sizeArg), dirArg!);
} else {
  const sizes = (process.env['BENCH_SIZES'] ?? '5183,51830').split(',').map(Number);
  console.log(`SciFact replicated; store-level searches; ${SPACE.dims}-dim vectors; machine shared, 2 cores`);
  for (const size of sizes) {
    for (const kind of STORE_KINDS) {
      const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-bench-stores-'));
      try {
        const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), kind, String(size), dir], {
          stdio: ['ignore', 'inherit', 'pipe'],
        });
        if (r.status !== 0)
          console.log(
            `${kind} ${size}: failed (${
              r.stderr
                .toString()
                .split('\n')
                .find((l) => /Error/.test(l)) ?? r.status
            })`,
          );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
}
