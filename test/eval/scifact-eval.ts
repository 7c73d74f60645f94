// `npm run eval`: retrieval quality on BEIR SciFact (train split), through the real ingest path. Prints nDCG@10 and
// Recall@100 per keyword engine, on SQLite, on PostgreSQL (a real server started in a temp dir, the same corpus synced
// into it) and on LanceDB (store-lancedb's own postings); exits 1 when keyword nDCG@10 falls below EVAL_MIN_NDCG.
import '../../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../core/config/load-config.ts';
import type { Config } from '../../core/config/types.ts';
import { openKbctx } from '../../core/app/compose.ts';
import { selectConnectors } from '../../core/app/select-connectors.ts';
import { syncConnectors } from '../../core/app/sync.ts';
import { parseSearchParams } from '../../plugins/tools-builtin/search-params.ts';
import { search } from '../../core/app/search.ts';
import { corpusId, loadQrels, loadQueries, ndcgAt, recallAt, writeCorpus } from './scifact.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';

const MIN_NDCG = Number(process.env['EVAL_MIN_NDCG'] ?? 0.7);

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-eval-'));
let pg: TestPostgres | undefined;
try {
  const docs = writeCorpus(path.join(dir, 'corpus'));
  pg = await startPostgres();
  const pgUrl = await pg.createDatabase();
  // `url` 'lancedb': the LanceDB store (a table folder), else PostgreSQL at that url, or SQLite without one.
  const configFor = (engine: string, url?: string): Config => {
    const db =
      url === 'lancedb'
        ? 'path = "index.lance"\nengine = "lancedb"\n'
        : `path = "${url ? 'mirror/index.sqlite' : 'index.sqlite'}"\n${url ? `url = "${url}"\n` : ''}`;
    return parseConfig(
      `[db]\n${db}keyword_engine = "${engine}"\n[connectors.filesystem.scifact]\n` +
        `root = "corpus"\ninclude_globs = ["*.md"]\n`,
      { file: 'eval.toml', cwd: dir, env: {} },
    );
  };
  for (const [store, config] of [
    ['SQLite', configFor('postings')],
    ['PostgreSQL', configFor('postings', pgUrl)],
    ['LanceDB', configFor('postings', 'lancedb')],
  ] as const) {
    const kbctx = openKbctx(config);
    const [report] = await syncConnectors(
      kbctx.index.syncDeps(),
      await Promise.all(selectConnectors(config, 'all').map((r) => kbctx.index.createConnector(r))),
      { full: false },
    );
    console.log(`indexed ${docs} documents (${report?.chunksWritten} chunks) into ${store} through filesystem sync`);
    await kbctx.close();
  }

  const queries = loadQueries();
  const qrels = loadQrels();
  const rows: string[] = [];
  // Both keyword engines over the same index: the postings engine must rank exactly as FTS5 does.
  const runs = [
    ['postings', undefined],
    ['fts5', undefined],
    ['postings', pgUrl],
    ['postings', 'lancedb'],
  ] as const;
  for (const [engine, url] of runs) {
    const engineConfig = configFor(engine, url);
    const reader = openKbctx(engineConfig);
    let ndcg = 0;
    let recall = 0;
    let n = 0;
    for (const q of queries) {
      const rel = qrels.get(q.id);
      if (!rel) continue;
      const params = parseSearchParams({ query: q.text, mode: 'keyword', limit: 100 }, engineConfig.retrieval);
      const { results } = await search({ ...reader.index.searchDeps(), cache: undefined }, params);
      const ranked = results.map((r) => corpusId(r.sourceId));
      ndcg += ndcgAt(10, ranked, rel);
      recall += recallAt(100, ranked, rel);
      n++;
    }
    await reader.close();
    rows.push(
      `keyword (${url === 'lancedb' ? 'LanceDB   ' : url ? 'PostgreSQL' : 'SQLite    '}, ` +
        `${url === 'lancedb' ? 'BM25    ' : engine.padEnd(8)})  nDCG@10 ${(ndcg / n).toFixed(4)}  Recall@100 ` +
        `${(recall / n).toFixed(4)}  (${n} queries)`,
    );
    if (ndcg / n < MIN_NDCG) process.exitCode = 1;
  }
  console.log(`SciFact train split\n${rows.join('\n')}`);
  if (process.exitCode === 1) console.error(`keyword nDCG@10 is below the threshold ${MIN_NDCG}`);
} finally {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
}
