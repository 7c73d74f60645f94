// `npm run bench:scale`: keyword search as the index grows. SciFact is replicated (ids altered, texts
// kept) into one growing database; at each size: time to add the documents (store writes, as sync
// does them) and to tidy the index (FTS merge + postings refresh), the postings built from FTS5 from
// scratch and loaded from the file, sizes on disk, then p50/p95 of app-level keyword search
// (limit 12, cache off) over the 809 train queries with both engines on the same index; then, with the
// postings engine, the same queries under search filters (ADR 0213: path globs, tags, meta) against unfiltered,
// and each filter's first search (its allowed-document set built cold).
// Env: BENCH_SIZES (documents, default 5183,51830), BENCH_RUNS (passes per engine, default 3; medians shown).
import '../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseSearchParams } from '../plugins/tools-builtin/search-params.ts';
import { search } from '../core/app/search.ts';
import { toDocument } from '../core/app/sync.ts';
import { toChunks } from '../test/helpers/chunks.ts';
import { openKbctx } from '../core/app/compose.ts';
import { parseConfig } from '../core/config/load-config.ts';
import { openSqliteStore } from '../plugins/store-sqlite/sqlite-store.ts';
import { loadQueries, readJsonl, SCIFACT_DIR } from '../test/eval/scifact.ts';
import { timeSearches } from './search-timing.ts';
import { fmtMs, median } from './stats.ts';

const SIZES = (process.env['BENCH_SIZES'] ?? '5183,51830').split(',').map(Number);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-bench-scale-'));
const file = path.join(dir, 'index.sqlite');
const size = (f: string): number => {
  try {
    return statSync(f).size;
  } catch {
    return 0;
  }
};
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const timeAsync = async (run: () => Promise<void>): Promise<number> => {
  const started = performance.now();
  await run();
  return performance.now() - started;
};
const time = (run: () => void): number => {
  const t = performance.now();
  run();
  return performance.now() - t;
};

try {
  const corpus = readJsonl<{ _id: string; title: string; text: string }>(path.join(SCIFACT_DIR, 'corpus.jsonl'));
  const queries = loadQueries();
  const chunking = { maxTokens: 700, overlapTokens: 80 };
  let written = 0;
  console.log(
    `SciFact replicated; ${queries.length} queries; ${RUNS} passes per engine (median p50/p95 shown); machine shared, 2 cores`,
  );
  for (const target of SIZES) {
    const writer = openSqliteStore(file);
    const addMs = await timeAsync(async () => {
      await writer.beginBulk();
      for (; written < target; written++) {
        const d = corpus[written % corpus.length]!;
        const copy = Math.floor(written / corpus.length);
        // Filterable shape: four folders, five tags, two teams (the filtered searches below).
        const sourceId = `area${written % 4}/${d._id}-r${copy}.md`;
        const metadata = { tags: [`t${written % 5}`], team: written % 3 === 0 ? 'infra' : 'web' };
        const doc = toDocument(
          { sourceId, title: d.title, body: `# ${d.title}\n\n${d.text}\n`, metadata },
          `scifact:${sourceId}`,
          'filesystem:scifact',
          'filesystem:scifact',
        );
        await writer.upsertDocument(doc, toChunks(doc, chunking), null);
      }
      await writer.endBulk();
    });
    const tidyMs = await timeAsync(() => writer.compact());
    await writer.close();
    const keywordFile = `${file}.keyword`;
    const keywordBytes = size(keywordFile);
    rmSync(keywordFile);
    const fresh = openSqliteStore(file);
    const buildMs = time(() => fresh.refreshKeywordIndex());
    await fresh.close();
    const loader = openSqliteStore(file);
    const loadMs = time(() => loader.refreshKeywordIndex());
    await loader.close();

    const lines: string[] = [];
    for (const engine of ['postings', 'fts5'] as const) {
      const config = parseConfig(
        `[db]\npath = "index.sqlite"\nkeyword_engine = "${engine}"\n[retrieval]\ncache_size = 0\n`,
        { file: 'bench.toml', cwd: dir },
      );
      const kbctx = openKbctx(config);
      const params = queries.map((q) => parseSearchParams({ query: q.text, mode: 'keyword' }, config.retrieval));
      const { p50s, p95s } = await timeSearches(kbctx.index.searchDeps(), params, RUNS);
      await kbctx.close();
      lines.push(
        `    ${engine.padEnd(8)}  p50 ${fmtMs(median(p50s)).padStart(7)} ms   p95 ${fmtMs(median(p95s)).padStart(7)} ms   (p50 runs: ${p50s.map(fmtMs).join(', ')})`,
      );
    }
    lines.push(...(await filteredLines(dir, queries)));
    console.log(`${target} documents`);
    console.log(
      `  add documents ${fmtMs(addMs)} ms (${written} total), tidy ${fmtMs(tidyMs)} ms (FTS merge + postings refresh)`,
    );
    console.log(`  postings: built from FTS5 ${fmtMs(buildMs)} ms, loaded from file ${fmtMs(loadMs)} ms`);
    console.log(`  size: database ${mb(size(file) + size(`${file}-wal`))}, postings file ${mb(keywordBytes)}`);
    console.log(`  keyword search (app level, limit 12, cache off)\n${lines.join('\n')}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * p50 of the postings engine under each filter against unfiltered (same queries, same index), the two passes
 * interleaved so a shared machine's load falls on both alike; and each filter's first search (its
 * allowed-document set built cold).
 */
async function filteredLines(cwd: string, queries: readonly { text: string }[]): Promise<string[]> {
  const config = parseConfig(`[db]\npath = "index.sqlite"\n[retrieval]\ncache_size = 0\n`, { file: 'bench.toml', cwd });
  const kbctx = openKbctx(config);
  const deps = kbctx.index.searchDeps();
  const paramsOf = (filters?: Record<string, unknown>) =>
    queries.map((q) => parseSearchParams({ query: q.text, filters }, config.retrieval));
  const base = paramsOf();
  const lines = ['    filtered (postings; p50 of interleaved passes, filtered vs unfiltered)'];
  for (const [label, filters] of [
    ['path area1/** (25%)', { path: 'area1/**' }],
    ['tags t2 (20%)', { tags: 't2' }],
    ['meta team=infra, !area0/** (25%)', { meta: { team: 'infra' }, path: '!area0/**' }],
    ['path area1/**, area2/** (50%)', { path: ['area1/**', 'area2/**'] }],
  ] as const) {
    const params = paramsOf(filters);
    const first = await timeAsync(async () => void (await search({ ...deps, cache: undefined }, params[0]!)));
    const f: number[] = [];
    const u: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      u.push(...(await timeSearches(deps, base, 1)).p50s);
      f.push(...(await timeSearches(deps, params, 1)).p50s);
    }
    lines.push(
      `      ${label.padEnd(34)} p50 ${fmtMs(median(f)).padStart(7)} ms vs ${fmtMs(median(u)).padStart(7)} ms unfiltered (${(median(f) / median(u)).toFixed(2)}×)   first search ${fmtMs(first)} ms`,
    );
  }
  await kbctx.close();
  return lines;
}
