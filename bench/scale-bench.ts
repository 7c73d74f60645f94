// `npm run bench:scale`: the stores as the index grows. SciFact is replicated (ids altered, texts kept) into one
// growing index per store; at each size, for each store in BENCH_STORES: the time to add the documents (bulk, as
// sync writes them; streamed, so 500k fit), tidy, give every chunk a deterministic random 384-dim vector and refresh
// the vector index (scale-add.ts, a child process); then a fresh process (scale-measure.ts) opens the index as
// `kbctx serve` does: open time with the first keyword search, RSS after open and after the queries, disk size,
// app-level keyword p50/p95 (809 train queries, limit 12, cache off) and store-level vector p50/p95. SQLite adds its
// postings build/load, both keyword engines and the filtered searches (scale-sqlite.ts).
// Env: BENCH_SIZES (documents, default 5183,51830), BENCH_STORES (default sqlite,lancedb),
// BENCH_RUNS (keyword passes, default 3; medians shown), BENCH_KEEP=1 (keep the indexes and print their folders, so a
// later quiet `node bench/scale-measure.ts <store> DIR RUNS` can measure them again).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { storeKinds, type StoreKind } from './bench-store.ts';
import { fmtMs } from './stats.ts';

const SIZES = (process.env['BENCH_SIZES'] ?? '5183,51830').split(',').map(Number);
const STORES = storeKinds(process.env['BENCH_STORES']);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const here = path.dirname(fileURLToPath(import.meta.url));

/** What scale-add.ts prints. */
interface Added {
  addMs: number;
  tidyMs: number;
  vectors: number;
  vectorMs: number;
  vectorIndexMs: number;
  index: string;
  peakRssMb: number;
}

/** What scale-measure.ts prints. */
interface Measured {
  documents: number;
  chunks: number;
  openMs: number;
  rssStartMb: number;
  rssOpenMb: number;
  rssQueriesMb: number;
  diskBytes: number;
  keywordP50: number;
  keywordP95: number;
  keywordP50Runs: number[];
  vectorP50: number;
  vectorP95: number;
}

/** Runs a child bench script; its last stdout line is JSON (or, `passThrough`, its output is printed as is). */
function child<T>(script: string, args: (string | number)[], passThrough = false): T | null {
  const r = spawnSync(process.execPath, [path.join(here, script), ...args.map(String)], {
    stdio: ['ignore', passThrough ? 'inherit' : 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    const why =
      r.stderr
        .toString()
        .split('\n')
        .find((l) => /Error/.test(l)) ?? `exit ${r.status ?? r.signal}`;
    console.log(`    ${script} failed: ${why}`);
    return null;
  }
  if (passThrough) return {} as T;
  return JSON.parse(r.stdout.toString().trim().split('\n').at(-1)!) as T;
}

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const mbOf = (value: number): string => `${value.toFixed(0)} MB`;

const dirs = new Map<StoreKind, string>(STORES.map((k) => [k, mkdtempSync(path.join(tmpdir(), `kbctx-scale-${k}-`))]));
const written = new Map<StoreKind, number>(STORES.map((k) => [k, 0]));
try {
  console.log(
    `SciFact replicated; stores ${STORES.join(', ')}; ${RUNS} keyword passes (median p50/p95 shown); 384-dim ` +
      `random vectors; machine shared, 2 cores`,
  );
  for (const target of SIZES) {
    console.log(`${target} documents`);
    for (const kind of STORES) {
      const dir = dirs.get(kind)!;
      const add = child<Added>('scale-add.ts', [kind, written.get(kind)!, target, dir]);
      if (!add) continue;
      written.set(kind, target);
      const m = child<Measured>('scale-measure.ts', [kind, dir, RUNS]);
      console.log(
        `  ${kind}: add ${s(add.addMs)}, tidy ${s(add.tidyMs)}, ${add.vectors} vectors ${s(add.vectorMs)}, ` +
          `vector index ${s(add.vectorIndexMs)} (${add.index}); writer peak RSS ${mbOf(add.peakRssMb)}`,
      );
      if (!m) continue;
      console.log(
        `    ${m.documents} documents, ${m.chunks} chunks, disk ${mbOf(m.diskBytes / 1e6)}; fresh process: ` +
          `open + first keyword search ${fmtMs(m.openMs)} ms; RSS ${mbOf(m.rssStartMb)} at start, ` +
          `${mbOf(m.rssOpenMb)} after open, ${mbOf(m.rssQueriesMb)} after the queries`,
      );
      const runs = m.keywordP50Runs.map(fmtMs).join(', ');
      console.log(
        `    keyword (app level, limit 12, cache off) p50 ${fmtMs(m.keywordP50)} ms p95 ${fmtMs(m.keywordP95)} ms ` +
          `(p50 runs: ${runs}); vector (store level, limit 10, 200 queries) p50 ${fmtMs(m.vectorP50)} ms p95 ` +
          `${fmtMs(m.vectorP95)} ms`,
      );
      if (kind === 'sqlite') child('scale-sqlite.ts', [dir, RUNS], true);
    }
  }
} finally {
  for (const [kind, dir] of dirs) {
    if (process.env['BENCH_KEEP'] === '1') console.log(`${kind} index kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}
