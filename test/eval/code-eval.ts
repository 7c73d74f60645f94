// `npm run eval:code`: code search on code no one here wrote. The corpus (code/code-corpus.ts) is the
// sources of npm packages in node_modules (JavaScript: commander, yaml, htmlparser2, entities, fastify; Python:
// node-gyp's gyp), each query a documented function's first doc sentence, its doc comments removed.
// The corpus is indexed twice, with `chunker = "text"` and `chunker = "code"` on the filesystem
// connector, and embedded with the bundled local model (no network). Each query runs through the real
// search use-case (keyword and hybrid, top 10 documents); a result is the answer when it is the
// function's file and its best chunk holds the function's first line. Prints MRR@10 and Recall@10
// (plugins/eval/metrics.ts); exits 1 when the code chunker does not beat the text chunker on both modes.
// Indexes are kept in KBCTX_EVAL_DIR (default .kbctx/eval-code) so later runs embed only changed chunks;
// EVAL_CODE_MODES=keyword skips the embedding and the hybrid rows.
import '../../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseConfig } from '../../core/config/load-config.ts';
import { openKbctx } from '../../core/app/compose.ts';
import { selectConnectors } from '../../core/app/select-connectors.ts';
import { syncConnectors } from '../../core/app/sync.ts';
import { embedPending } from '../../core/app/embed.ts';
import { search } from '../../core/api/use-cases.ts';
import { parseSearchParams } from '../../plugins/tools-builtin/search-params.ts';
import { mrrAt, recallAt } from '../../plugins/eval/metrics.ts';
import { buildCodeCorpus, type CodePackage, type CodeQuery } from './code/code-corpus.ts';

const PACKAGES: readonly CodePackage[] = [
  { name: 'commander', dir: 'commander/lib', files: /\.js$/, maxQueries: 150 },
  { name: 'yaml', dir: 'yaml/dist', files: /\.js$/, maxQueries: 150 },
  { name: 'htmlparser2', dir: 'htmlparser2/dist', files: /\.js$/, maxQueries: 150 },
  { name: 'entities', dir: 'entities/dist', files: /\.js$/, maxQueries: 150 },
  { name: 'fastify', dir: 'fastify/lib', files: /\.js$/, maxQueries: 150 },
  { name: 'node-gyp', dir: 'node-gyp/gyp/pylib/gyp', files: /^(?!.*_test\.py$).*\.py$/, maxQueries: 200 },
];
const CHUNKERS = ['text', 'code'] as const;
const MODES = (process.env['EVAL_CODE_MODES'] === 'keyword' ? ['keyword'] : ['keyword', 'hybrid']) as readonly (
  | 'keyword'
  | 'hybrid'
)[];

const dir = process.env['KBCTX_EVAL_DIR'] ?? path.resolve('.kbctx/eval-code');
const corpusDir = path.join(dir, 'corpus');
const corpus = await buildCodeCorpus(path.resolve('node_modules'), PACKAGES);
rmSync(corpusDir, { recursive: true, force: true });
for (const f of corpus.files) {
  mkdirSync(path.dirname(path.join(corpusDir, f.path)), { recursive: true });
  writeFileSync(path.join(corpusDir, f.path), f.text);
}
const perPackage = PACKAGES.map(
  (p) => `${p.name} ${corpus.queries.filter((q) => q.file.startsWith(`${p.name}/`)).length}`,
);
console.log(
  `code-search eval: ${corpus.queries.length} queries over ${corpus.files.length} files ` +
    `(${perPackage.join(', ')}); javascript and python`,
);

interface Row {
  chunker: string;
  mode: string;
  mrr10: number;
  recall10: number;
  chunks: number;
}
const rows: Row[] = [];
for (const chunker of CHUNKERS) {
  const config = parseConfig(
    `[db]\npath = "index-${chunker}.sqlite"\n[embedding]\nprovider = "local"\nbatch_size = 32\n` +
      `[connectors.filesystem.code]\nroot = "corpus"\ninclude_globs = ["**/*.js", "**/*.py"]\nchunker = "${chunker}"\n`,
    { file: 'eval.toml', cwd: dir, env: {} },
  );
  const kbctx = openKbctx(config);
  const connectors = await Promise.all(selectConnectors(config, 'all').map((r) => kbctx.index.createConnector(r)));
  // full: every file is chunked again, so a changed chunker is measured (unchanged chunks keep their vectors)
  const [report] = await syncConnectors({ ...kbctx.index.syncDeps(), afterConnector: undefined }, connectors, {
    full: true,
  });
  if (report?.failure) throw new Error(`indexing failed: ${report.failure.message}`);
  const embedder = kbctx.index.embedder();
  if (!embedder) throw new Error('no embedder: the bundled local model is needed for the hybrid rows');
  if (MODES.includes('hybrid')) {
    const embedded = await embedPending({ store: kbctx.store, embedder });
    if (embedded.failure) throw new Error(`embedding failed: ${embedded.failure.message}`);
  }
  const { chunks } = await kbctx.store.counts();
  const deps = { ...kbctx.index.searchDeps(), cache: undefined };
  for (const mode of MODES) {
    let [mrr, recall] = [0, 0];
    for (const q of corpus.queries) {
      const ranked = await rankedFor(deps, q, mode);
      const grades = new Map([[q.id, 1]]);
      mrr += mrrAt(10, ranked, grades);
      recall += recallAt(10, ranked, grades);
    }
    const n = corpus.queries.length;
    rows.push({ chunker, mode, mrr10: mrr / n, recall10: recall / n, chunks });
  }
  await kbctx.close();
}

/** The top 10 documents for the query, each as the query's id when it is the function's file and chunk. */
async function rankedFor(
  deps: Parameters<typeof search>[0],
  q: CodeQuery,
  mode: (typeof MODES)[number],
): Promise<string[]> {
  const params = parseSearchParams({ query: q.text, mode, limit: 10 }, deps.retrieval);
  const { results } = await search(deps, params);
  return results.map((r, i) =>
    r.sourceId === q.file && (r.chunkText ?? '').includes(q.signature) ? q.id : `${r.sourceId}@${i}`,
  );
}

console.log(['chunker  mode     MRR@10  Recall@10  chunks', ...rows.map(formatRow)].join('\n'));
const verdicts = MODES.map((mode) => {
  const [text, code] = CHUNKERS.map((c) => rows.find((r) => r.chunker === c && r.mode === mode)!);
  const beats = code!.mrr10 > text!.mrr10 && code!.recall10 > text!.recall10;
  return { mode, beats };
});
console.log(
  verdicts.map((v) => `${v.mode}: the code chunker ${v.beats ? 'beats' : 'does NOT beat'} the text chunker`).join('\n'),
);
if (verdicts.some((v) => !v.beats)) process.exitCode = 1;

function formatRow(r: Row): string {
  return `${r.chunker.padEnd(8)} ${r.mode.padEnd(8)} ${r.mrr10.toFixed(4)}  ${r.recall10.toFixed(4)}     ${r.chunks}`;
}
