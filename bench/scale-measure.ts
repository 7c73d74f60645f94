// bench:scale's reader (a child process, so open time and RSS are a fresh process's): opens the index in DIR the
// way `kbctx serve` does and times the open with its first keyword search, then app-level keyword search (limit 12,
// cache off) over the 809 SciFact train queries, RUNS passes, and store-level vector search (200 random 384-dim
// queries, limit 10); RSS at start, after the open and after the queries, size on disk: one JSON line.
// Usage: node bench/scale-measure.ts <sqlite|lancedb> DIR RUNS
import '../registry/bundled.ts';
import path from 'node:path';
import { search } from '../core/app/search.ts';
import { openKbctx } from '../core/app/compose.ts';
import { parseConfig } from '../core/config/load-config.ts';
import { parseSearchParams } from '../plugins/tools-builtin/search-params.ts';
import { loadQueries } from '../test/eval/scifact.ts';
import { indexBytes, indexFile, randomVector, SPACE, storeKinds } from './bench-store.ts';
import { timeSearches } from './search-timing.ts';
import { median, percentile } from './stats.ts';

const [, , kindArg, dir, runsArg] = process.argv;
const [kind] = storeKinds(kindArg);
const file = indexFile(kind!, dir!);
const rssMb = (): number => process.memoryUsage().rss / 1e6;
const queries = loadQueries();
const rssStartMb = rssMb();

const started = performance.now();
const config = parseConfig(`[db]\nengine = "${kind}"\npath = "${path.basename(file)}"\n[retrieval]\ncache_size = 0\n`, {
  file: 'bench.toml',
  cwd: dir!,
});
const kbctx = openKbctx(config);
const deps = kbctx.index.searchDeps();
const params = queries.map((q) => parseSearchParams({ query: q.text, mode: 'keyword' }, config.retrieval));
await search({ ...deps, cache: undefined }, params[0]!);
const openMs = performance.now() - started;
const rssOpenMb = rssMb();

const keyword = await timeSearches(deps, params, Number(runsArg));
const vectorQuery = (q: number) => ({ vector: randomVector(10_000_000 + q), space: SPACE, limit: 10, candidateK: 50 });
for (let q = 0; q < 200; q++) await deps.store.vectorSearch(vectorQuery(q)); // warm-up
const vectorTimes: number[] = [];
for (let q = 0; q < 200; q++) {
  const t = performance.now();
  await deps.store.vectorSearch(vectorQuery(q));
  vectorTimes.push(performance.now() - t);
}
const rssQueriesMb = rssMb();
const { documents, chunks } = await deps.store.counts();
await kbctx.close();
console.log(
  JSON.stringify({
    documents,
    chunks,
    openMs,
    rssStartMb,
    rssOpenMb,
    rssQueriesMb,
    diskBytes: indexBytes(file),
    keywordP50: median(keyword.p50s),
    keywordP95: median(keyword.p95s),
    keywordP50Runs: keyword.p50s,
    vectorP50: median(vectorTimes),
    vectorP95: percentile(vectorTimes, 95),
  }),
);
