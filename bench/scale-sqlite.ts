// bench:scale's SQLite-only lines (a child process): the postings built from FTS5 from scratch and loaded from the
// file, the postings file's size, app-level keyword p50/p95 with both keyword engines on the same index, and, with
// the postings engine, the same queries under search filters (ADR 0213) against unfiltered, and each filter's
// first search (its allowed-document set built cold). Prints its lines as they are.
// Usage: node bench/scale-sqlite.ts DIR RUNS
import '../registry/bundled.ts';
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { search } from '../core/app/search.ts';
import { openKbctx } from '../core/app/compose.ts';
import { parseConfig } from '../core/config/load-config.ts';
import { openSqliteStore } from '../plugins/store-sqlite/sqlite-store.ts';
import { parseSearchParams } from '../plugins/tools-builtin/search-params.ts';
import { loadQueries } from '../test/eval/scifact.ts';
import { timeSearches } from './search-timing.ts';
import { fmtMs, median } from './stats.ts';

const [, , dir, runsArg] = process.argv;
const RUNS = Number(runsArg);
const file = path.join(dir!, 'index.sqlite');
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const time = (run: () => void): number => {
  const t = performance.now();
  run();
  return performance.now() - t;
};

const keywordFile = `${file}.keyword`;
const keywordBytes = statSync(keywordFile, { throwIfNoEntry: false })?.size ?? 0;
rmSync(keywordFile, { force: true });
const fresh = openSqliteStore(file);
const buildMs = time(() => fresh.refreshKeywordIndex());
await fresh.close();
const loader = openSqliteStore(file);
const loadMs = time(() => loader.refreshKeywordIndex());
await loader.close();
console.log(
  `    postings: built from FTS5 ${fmtMs(buildMs)} ms, loaded from file ${fmtMs(loadMs)} ms; file ${mb(keywordBytes)}`,
);

const queries = loadQueries();
const configOf = (engine: string) =>
  parseConfig(`[db]\npath = "index.sqlite"\nkeyword_engine = "${engine}"\n[retrieval]\ncache_size = 0\n`, {
    file: 'bench.toml',
    cwd: dir!,
  });
console.log('    keyword search by engine (app level, limit 12, cache off)');
for (const engine of ['postings', 'fts5'] as const) {
  const config = configOf(engine);
  const kbctx = openKbctx(config);
  const params = queries.map((q) => parseSearchParams({ query: q.text, mode: 'keyword' }, config.retrieval));
  const { p50s, p95s } = await timeSearches(kbctx.index.searchDeps(), params, RUNS);
  await kbctx.close();
  console.log(
    `      ${engine.padEnd(8)}  p50 ${fmtMs(median(p50s)).padStart(7)} ms   p95 ` +
      `${fmtMs(median(p95s)).padStart(7)} ms   (p50 runs: ${p50s.map(fmtMs).join(', ')})`,
  );
}

// p50 of the postings engine under each filter against unfiltered (same queries, same index), the two passes
// interleaved so a shared machine's load falls on both alike; and each filter's first search.
const config = configOf('postings');
const kbctx = openKbctx(config);
const deps = kbctx.index.searchDeps();
const paramsOf = (filters?: Record<string, unknown>) =>
  queries.map((q) => parseSearchParams({ query: q.text, filters }, config.retrieval));
const base = paramsOf();
console.log('    filtered (postings; p50 of interleaved passes, filtered vs unfiltered)');
for (const [label, filters] of [
  ['path area1/** (25%)', { path: 'area1/**' }],
  ['tags t2 (20%)', { tags: 't2' }],
  ['meta team=infra, !area0/** (25%)', { meta: { team: 'infra' }, path: '!area0/**' }],
  ['path area1/**, area2/** (50%)', { path: ['area1/**', 'area2/**'] }],
] as const) {
  const params = paramsOf(filters);
  const t = performance.now();
  await search({ ...deps, cache: undefined }, params[0]!);
  const first = performance.now() - t;
  const f: number[] = [];
  const u: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    u.push(...(await timeSearches(deps, base, 1)).p50s);
    f.push(...(await timeSearches(deps, params, 1)).p50s);
  }
  console.log(
    `      ${label.padEnd(34)} p50 ${fmtMs(median(f)).padStart(7)} ms vs ${fmtMs(median(u)).padStart(7)} ms ` +
      `unfiltered (${(median(f) / median(u)).toFixed(2)}×)   first search ${fmtMs(first)} ms`,
  );
}
await kbctx.close();
