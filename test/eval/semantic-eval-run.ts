// `npm run eval:semantic`: SciFact (train split) keyword, semantic and hybrid rows with the bundled local model
// (Universal Sentence Encoder Lite, no network). Prints rows; never fails (the keyword threshold is checked by
// scifact-eval.ts). The index and its embeddings are kept in KBCTX_EVAL_DIR (default .kbctx/eval-scifact, git-ignored)
// so later runs do not embed again; EVAL_ALPHAS adds rows (default "0.6", the weight other providers get: the `hybrid`
// row uses this model's own, 0.3, ADR 0150). Then the same rows on PostgreSQL: the index, embeddings included, is
// copied by `kbctx migrate`'s migrateIndex into a real PostgreSQL started in a temp dir (test/helpers/postgres.ts), and
// every row is computed again through a replica's store. Then the transformers provider (plugins/embedder-transformers)
// on the tiny ONNX model the tests build (a smoke figure: its vocabulary knows almost no SciFact word). `--
// --model-path <dir>` runs only the transformers rows on a real model folder instead (docs/embeddings.md has the
// recipe; `--pooling`, `--dtype`, `--query-prefix`, `--document-prefix` as in [embedding]); each model keeps its own
// index.
import '../../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseConfig } from '../../core/config/load-config.ts';
import { openKbctx } from '../../core/app/compose.ts';
import { selectConnectors } from '../../core/app/select-connectors.ts';
import { syncConnectors } from '../../core/app/sync.ts';
import { loadQrels, loadQueries, writeCorpus } from './scifact.ts';
import { DEFAULT_RUNS, evaluateSemantic, formatScores, type EvalRun } from './semantic-eval.ts';
import { migrateIndex } from '../../plugins/store-commands/migrate-index.ts';
import { startPostgres } from '../helpers/postgres.ts';
import { writeTinyModel } from '../helpers/tiny-transformer-model.ts';

const { values: args } = parseArgs({
  options: {
    'model-path': { type: 'string' },
    pooling: { type: 'string' },
    dtype: { type: 'string' },
    'query-prefix': { type: 'string' },
    'document-prefix': { type: 'string' },
  },
});

const dir = process.env['KBCTX_EVAL_DIR'] ?? path.resolve('.kbctx/eval-scifact');
mkdirSync(dir, { recursive: true });
if (!existsSync(path.join(dir, 'corpus'))) writeCorpus(path.join(dir, 'corpus'));
const configFor = (db: string, embedding = 'provider = "local"\nbatch_size = 32') =>
  parseConfig(
    `[db]\n${db}\n[embedding]\n${embedding}\n` +
      `[connectors.filesystem.scifact]\nroot = "corpus"\ninclude_globs = ["*.md"]\n`,
    { file: 'eval.toml', cwd: dir, env: {} },
  );
if (args['model-path'] === undefined) {
  const config = configFor('path = "index.sqlite"');
  // Sync without inline embedding: the eval embeds (and times) it separately.
  const kbctx = openKbctx(config);
  const connectors = await Promise.all(selectConnectors(config, 'all').map((r) => kbctx.index.createConnector(r)));
  const [report] = await syncConnectors({ ...kbctx.index.syncDeps(), afterConnector: undefined }, connectors, {
    full: false,
  });
  const counts = await kbctx.store.counts();
  console.log(
    `indexed SciFact: ${counts.documents} documents, ${counts.chunks} chunks (${report?.chunksWritten} written now)`,
  );
  const alphas = (process.env['EVAL_ALPHAS'] ?? '0.6')
    .split(',')
    .filter((a) => a.trim() !== '')
    .map(Number);
  const runs: EvalRun[] = [
    ...DEFAULT_RUNS,
    ...alphas.map((alpha) => ({ label: `hybrid a=${alpha}`, mode: 'hybrid' as const, alpha })),
  ];
  const [queries, qrels] = [loadQueries(), loadQrels()];
  const scores = await evaluateSemantic(kbctx, queries, qrels, runs, (l) => console.log(l));
  console.log(`SciFact train split, ${kbctx.index.embedder()?.model}\n${formatScores(scores)}`);
  const kw = scores.find((s) => s.label === 'keyword');
  const hybrid = scores.find((s) => s.label === 'hybrid');
  if (kw && hybrid) {
    const best = scores.filter((s) => s.label.startsWith('hybrid')).sort((a, b) => b.ndcg10 - a.ndcg10)[0];
    console.log(
      `hybrid at the configured alpha ${hybrid.ndcg10 > kw.ndcg10 ? 'beats' : 'does not beat'} keyword; best ` +
        `hybrid row: ${best?.label} ${best?.ndcg10.toFixed(4)}`,
    );
  }
  const pg = await startPostgres();
  try {
    const url = await pg.createDatabase();
    const pgConfig = configFor(`path = "pg-mirror/index.sqlite"\nurl = "${url}"`);
    const onPg = openKbctx(pgConfig);
    const copied = await migrateIndex(kbctx.store, onPg.store);
    console.log(
      `copied into PostgreSQL: ${copied.documents} documents, ${copied.chunks} chunks, ${copied.embeddings} ` +
        `embeddings in ${Math.round(copied.durationMs)} ms`,
    );
    const pgScores = await evaluateSemantic(onPg, queries, qrels, runs);
    console.log(`SciFact train split on PostgreSQL, ${onPg.index.embedder()?.model}\n${formatScores(pgScores)}`);
    await onPg.close();
  } finally {
    await pg.stop();
  }
  await kbctx.close();
}

// The transformers rows: the given model folder, or the tiny test model (built into the eval dir).
const modelPath = args['model-path'] === undefined ? path.join(dir, 'tiny-model') : path.resolve(args['model-path']);
if (args['model-path'] === undefined) await writeTinyModel(modelPath);
const toml = (key: string, value: string | undefined) =>
  value === undefined ? '' : `\n${key} = ${JSON.stringify(value)}`;
const transformers = openKbctx(
  configFor(
    `path = ${JSON.stringify(`index-transformers-${path.basename(modelPath)}.sqlite`)}`,
    `provider = "transformers"\nbatch_size = 32\nmodel_path = ${JSON.stringify(modelPath)}` +
      toml('pooling', args.pooling) +
      toml('dtype', args.dtype) +
      toml('query_prefix', args['query-prefix']) +
      toml('document_prefix', args['document-prefix']),
  ),
);
const tConnectors = await Promise.all(
  selectConnectors(transformers.config, 'all').map((r) => transformers.index.createConnector(r)),
);
await syncConnectors({ ...transformers.index.syncDeps(), afterConnector: undefined }, tConnectors, { full: false });
const tScores = await evaluateSemantic(transformers, loadQueries(), loadQrels(), DEFAULT_RUNS, (l) => console.log(l));
console.log(
  `SciFact train split, ` +
    `${transformers.index.embedder()?.model}` +
    `${args['model-path'] === undefined ? ' (the tiny test model: a smoke figure)' : ''}\n${formatScores(tScores)}`,
);
await transformers.close();
