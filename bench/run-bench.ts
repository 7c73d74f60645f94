// `npm run bench`: SciFact (5,183 abstracts) from files on disk.
// 1. Full index through the real CLI (`kbctx sync all`, a fresh database each run).
// 2. No-change resync through the CLI.
// 3. Keyword search latency in-process over the 809 train queries (p50/p95 per pass), then the same
//    queries under a path filter (ADR 0213: files whose id starts with 1 or 2, about a fifth).
// Every figure is the median of RUNS runs. Numbers are printed, never asserted.
import '../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../core/config/load-config.ts';
import { openKbctx } from '../core/app/compose.ts';
import { parseSearchParams } from '../plugins/tools-builtin/search-params.ts';
import { loadQueries, writeCorpus } from '../test/eval/scifact.ts';
import { timeSearches } from './search-timing.ts';
import { fmtMs, median } from './stats.ts';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const KBCTX = fileURLToPath(new URL('../bin/kbctx.js', import.meta.url));

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-bench-'));
try {
  const docs = writeCorpus(path.join(dir, 'corpus'));
  writeFileSync(
    path.join(dir, 'kbctx.toml'),
    `[db]\npath = "index.sqlite"\n[connectors.filesystem.scifact]\nroot = "corpus"\ninclude_globs = ["*.md"]\n`,
  );
  const cli = (): number => {
    const started = performance.now();
    const r = spawnSync(process.execPath, [KBCTX, '-c', 'kbctx.toml', 'sync', 'all'], { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`kbctx sync failed: ${r.stderr}`);
    return performance.now() - started;
  };

  const full: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    rmSync(path.join(dir, 'index.sqlite'), { force: true });
    rmSync(path.join(dir, 'index.sqlite-wal'), { force: true });
    rmSync(path.join(dir, 'index.sqlite-shm'), { force: true });
    full.push(cli());
  }
  const resync: number[] = [];
  for (let i = 0; i < RUNS; i++) resync.push(cli());

  const config = loadConfig({ configPath: 'kbctx.toml', cwd: dir });
  const kbctx = openKbctx(config);
  const queries = loadQueries().map((q) => parseSearchParams({ query: q.text }, config.retrieval));
  const { p50s, p95s } = await timeSearches(kbctx.index.searchDeps(), queries, RUNS);
  const filtered = loadQueries().map((q) =>
    parseSearchParams({ query: q.text, filters: { path: ['1*.md', '2*.md'] } }, config.retrieval),
  );
  const f = await timeSearches(kbctx.index.searchDeps(), filtered, RUNS);
  await kbctx.close();

  console.log(`SciFact: ${docs} documents, ${queries.length} queries, ${RUNS} runs each (median shown)`);
  console.log(
    `  full index (kbctx sync all, new db)   ${fmtMs(median(full))} ms   runs: ${full.map(fmtMs).join(', ')}`,
  );
  console.log(
    `  no-change resync (kbctx sync all)     ${fmtMs(median(resync))} ms   runs: ${resync.map(fmtMs).join(', ')}`,
  );
  console.log(`  keyword search p50 (in-process)      ${fmtMs(median(p50s))} ms   runs: ${p50s.map(fmtMs).join(', ')}`);
  console.log(`  keyword search p95 (in-process)      ${fmtMs(median(p95s))} ms   runs: ${p95s.map(fmtMs).join(', ')}`);
  console.log(
    `  filtered keyword p50 (path 1*, 2*)    ${fmtMs(median(f.p50s))} ms   ` +
      `(${(median(f.p50s) / median(p50s)).toFixed(2)}× unfiltered)   runs: ${f.p50s.map(fmtMs).join(', ')}`,
  );
  console.log(
    `  filtered keyword p95 (path 1*, 2*)    ${fmtMs(median(f.p95s))} ms   runs: ${f.p95s.map(fmtMs).join(', ')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
