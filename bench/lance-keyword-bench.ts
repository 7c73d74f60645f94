// `npm run bench:lance-keyword`: the LanceDB store's keyword search as a process sees it, for this checkout
// and, with BENCH_OLD=<another checkout's root>, that one too, beside SQLite's on the same corpus: open, the
// first keyword search, then p50/p95 over the 809 SciFact train queries (limit 12) cold (the first pass,
// caches empty; the first query left out) and warm (a second pass). SciFact is replicated to BENCH_DOCS
// documents (default 5183) and written by each checkout's own store as a sync writes it (bulk, then
// compact), so each reads the folder its writes leave; each build and each measure runs in a fresh child
// process. BENCH_DIR keeps the folders for reuse (one per engine).
import '../registry/bundled.ts';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Store } from '../core/api/plugin.ts';
import { openSqliteStore } from '../plugins/store-sqlite/sqlite-store.ts';
import { sciFactQueries, writeSciFact } from './bench-store.ts';
import { fmtMs, percentile } from './stats.ts';

const DOCS = Number(process.env['BENCH_DOCS'] ?? 5183);
const LIMIT = 12;

/** An engine: a checkout's LanceDB store, or (root '') this checkout's SQLite store. */
async function openEngine(root: string, dir: string): Promise<Store> {
  if (root === '') return openSqliteStore(path.join(dir, 'index.sqlite'));
  const mod = (await import(path.join(root, 'plugins/store-lancedb/lance-store.ts'))) as {
    openLanceStore: (dir: string, access?: string) => Promise<Store>;
  };
  return mod.openLanceStore(path.join(dir, 'kb.lance'), 'read');
}

/** A child: writes the corpus with the engine's store, prints the milliseconds. */
async function build(root: string, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const store = root === '' ? openSqliteStore(path.join(dir, 'index.sqlite')) : await openWriter(root, dir);
  await writeSciFact(store, DOCS);
  await store.close();
  console.log(JSON.stringify({ ms: performance.now() - started }));
}

async function openWriter(root: string, dir: string): Promise<Store> {
  const mod = (await import(path.join(root, 'plugins/store-lancedb/lance-store.ts'))) as {
    openLanceStore: (dir: string) => Promise<Store>;
  };
  return mod.openLanceStore(path.join(dir, 'kb.lance'));
}

/** A child: opens the engine on `dir`, answers the queries twice, prints JSON. */
async function measure(root: string, dir: string): Promise<void> {
  let t = performance.now();
  const store = await openEngine(root, dir);
  const openMs = performance.now() - t;
  const queries = sciFactQueries();
  const pass = async (): Promise<number[]> => {
    const times: number[] = [];
    for (const terms of queries) {
      t = performance.now();
      await store.keywordSearch({ terms, limit: LIMIT, candidateK: LIMIT });
      times.push(performance.now() - t);
    }
    return times;
  };
  const cold = await pass();
  const warm = await pass();
  await store.close();
  const line = (xs: number[]): string => `p50 ${fmtMs(percentile(xs, 50))} ms p95 ${fmtMs(percentile(xs, 95))} ms`;
  const rss = Math.round(process.memoryUsage().rss / 1e6);
  console.log(
    JSON.stringify({ openMs, firstMs: cold[0], cold: line(cold.slice(1)), warm: line(warm), rss: `${rss} MB` }),
  );
}

function runChild(args: string[]): Record<string, unknown> {
  const run = spawnSync(process.execPath, [process.argv[1]!, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`child ${args.join(' ')} exited with ${run.status}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

async function main(): Promise<void> {
  const [, , mode, root, dir] = process.argv;
  if (mode === 'build') return build(root!, dir!);
  if (mode === 'measure') return measure(root!, dir!);
  const keep = process.env['BENCH_DIR'];
  const base = keep ?? mkdtempSync(path.join(tmpdir(), 'kbctx-lance-kw-'));
  const engines = [
    ...(process.env['BENCH_OLD'] ? [['old', path.resolve(process.env['BENCH_OLD'])]] : []),
    ['new', process.cwd()],
    ['sqlite', ''],
  ] as const;
  try {
    for (const [name, engineRoot] of engines) {
      const dir = path.join(base, name);
      const ms = (x: unknown): string => fmtMs(x as number);
      if (!existsSync(dir))
        console.log(`${name}: built ${DOCS} documents in ${ms(runChild(['build', engineRoot, dir])['ms'])} ms`);
      const out = runChild(['measure', engineRoot, dir]);
      console.log(
        `${name} (${engineRoot || 'this checkout'}): open ${ms(out['openMs'])} ms; first keyword search ` +
          `${ms(out['firstMs'])} ms; cold ${out['cold']}; warm ${out['warm']}; RSS after ${out['rss']}`,
      );
    }
  } finally {
    if (!keep) rmSync(base, { recursive: true, force: true });
  }
}

await main();
