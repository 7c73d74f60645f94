// `kbctx eval [folder] [--split s] [--queries f --qrels f] [--mode m,…] [--alpha a,…] [--chunk-tokens n,…]
// [--rerank on,off] [--compare]`: retrieval quality as nDCG@10, Recall@100, MRR@10 and p50/p95 latency, one
// table row per setting. A BEIR folder is indexed into a temporary index (removed afterwards); without one,
// the queries run against the configured index. Flags are checked here; a wrong one is a bad_request (exit 2).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { badRequest, type Config, type Kbctx } from '../../../core/api/plugin.ts';
import { formatTable, type CliContext } from '../../cli/api.ts';
import { beirFiles, loadCorpus, loadQrels, loadQueries } from '../beir.ts';
import { corpusConfig, indexCorpus, writeCorpus } from '../corpus-index.ts';
import { rerankService } from '../../rerank/api.ts';
import { configuredIdOf, judged, measure, type EvalMode, type EvalRow, type EvalSetting } from '../run-eval.ts';

interface EvalOptions {
  split: string;
  queries?: string;
  qrels?: string;
  mode?: string;
  alpha?: string;
  chunkTokens?: string;
  rerank?: string;
  compare?: boolean;
}

const MODES: readonly EvalMode[] = ['keyword', 'semantic', 'hybrid'];

export function registerEval(program: Command, ctx: CliContext): void {
  program
    .command('eval')
    .description('measure retrieval quality (nDCG@10, Recall@100, MRR@10, latency) on a BEIR data set or qrels')
    .argument(
      '[folder]',
      'a BEIR folder (corpus.jsonl, queries.jsonl, qrels/<split>.tsv), indexed into a temporary index',
    )
    .option('--split <name>', 'the qrels split of the folder', 'test')
    .option('--queries <file>', 'queries (JSON lines {_id, text}); without a folder: run against the configured index')
    .option('--qrels <file>', "qrels ('query-id corpus-id score' lines); ids: source ids or kbctx ids")
    .option('--mode <modes>', 'keyword, semantic, hybrid, or a comma-separated list (default: keyword)')
    .option('--alpha <weights>', 'hybrid weights, comma-separated (default: the configured one)')
    .option('--chunk-tokens <sizes>', 'chunk sizes, comma-separated (re-indexes the folder per size)')
    .option('--rerank <on,off>', 'with a [rerank] provider: reranking on, off, or on,off (default: on)')
    .option(
      '--compare',
      'every mode the config can run (keyword, and semantic and hybrid with an embedder), reranking on and off',
    )
    .action(async (folder: string | undefined, opts: EvalOptions) => {
      const rows = await runEval(ctx, folder, opts);
      if (ctx.json) ctx.printJson({ ...rows.about, runs: rows.rows.map(toWire) });
      else ctx.io.out(`${rows.about.description}\n${formatRows(rows.rows)}`);
    });
}

interface About {
  dataset: string | null;
  split: string | null;
  index: 'temporary' | 'configured';
  description: string;
}

async function runEval(
  ctx: CliContext,
  folder: string | undefined,
  opts: EvalOptions,
): Promise<{ about: About; rows: EvalRow[] }> {
  const config = ctx.config();
  const modes = parseModes(opts, config);
  const alphas = parseList(opts.alpha, '--alpha', (a) => a >= 0 && a <= 1, 'a number from 0 to 1');
  if (alphas && !modes.includes('hybrid')) throw badRequest('--alpha weighs hybrid search: add hybrid to --mode');
  const sizes = parseList(
    opts.chunkTokens,
    '--chunk-tokens',
    (n) => Number.isInteger(n) && n > 0,
    'a positive integer',
  );
  const rerankFlag = parseRerank(opts);
  // Reranking on/off: only with a reranker configured (the `kbctx.rerank` service); null when there is none.
  const reranksOf = (kbctx: Kbctx): (boolean | null)[] => {
    if (!kbctx.kernel.services.has(rerankService)) {
      if (opts.rerank !== undefined) throw badRequest('--rerank needs a [rerank] provider in the config');
      return [null];
    }
    return rerankFlag ?? (opts.compare ? [true, false] : [true]);
  };
  const settings = (chunkTokens: number | null, reranks: (boolean | null)[]): EvalSetting[] =>
    modes.flatMap((mode) =>
      (mode === 'hybrid' && alphas ? alphas : [null]).flatMap((alpha) =>
        reranks.map((rerank): EvalSetting => ({ mode, alpha, chunkTokens, rerank })),
      ),
    );
  const resolve = (file: string) => path.resolve(ctx.io.cwd, file);
  if (folder === undefined) {
    if (!opts.queries || !opts.qrels) throw badRequest('give a BEIR folder, or both --queries and --qrels');
    if (sizes) throw badRequest('--chunk-tokens re-indexes a BEIR folder: give one');
    const input = judged(loadQueries(resolve(opts.queries)), loadQrels(resolve(opts.qrels)));
    const kbctx = ctx.kbctx();
    const rows: EvalRow[] = [];
    for (const s of settings(null, reranksOf(kbctx)))
      rows.push(await measure(kbctx, input, s, configuredIdOf(input.qrels)));
    const description = `the configured index: ${input.queries.length} judged queries from ${opts.queries}`;
    return { about: { dataset: null, split: null, index: 'configured', description }, rows };
  }
  const files = beirFiles(resolve(folder), opts.split);
  const input = judged(
    loadQueries(opts.queries ? resolve(opts.queries) : files.queries),
    loadQrels(opts.qrels ? resolve(opts.qrels) : files.qrels),
  );
  const docs = loadCorpus(files.corpus);
  const { openKbctx } = await (await import('../../../core/api/host.ts')).loadHost();
  const open = (c: Config): Kbctx => openKbctx(c, ctx.io.env, { access: () => 'create' });
  const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-eval-'));
  const rows: EvalRow[] = [];
  let chunks = 0;
  try {
    // The temporary index's plugins decide whether it reranks: asked before the (long) indexing.
    const probe = open(corpusConfig(config, dir, path.join(dir, 'corpus'), null));
    let reranks: (boolean | null)[];
    try {
      reranks = reranksOf(probe);
    } finally {
      await probe.close();
    }
    writeCorpus(docs, path.join(dir, 'corpus'));
    for (const size of sizes ?? [null]) {
      ctx.io.err(`indexing ${docs.length} documents${size === null ? '' : ` in chunks of ${size} tokens`}…\n`);
      const embed = modes.some((m) => m !== 'keyword');
      const index = await indexCorpus(
        open,
        corpusConfig(config, dir, path.join(dir, 'corpus'), size),
        embed,
        tenths(ctx),
      );
      chunks = index.chunks;
      try {
        for (const s of settings(size, reranks)) rows.push(await measure(index.kbctx, input, s, index.idOf));
      } finally {
        await index.kbctx.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const description =
    `${folder} (split ${opts.split}): ${input.queries.length} judged queries, ${docs.length} documents` +
    `${sizes ? '' : ` (${chunks} chunks)`} in a temporary index`;
  return { about: { dataset: folder, split: opts.split, index: 'temporary', description }, rows };
}

/** An embedding progress line on stderr at each tenth done (and the first and last). */
function tenths(ctx: CliContext): (p: { done: number; total: number }) => void {
  let shown = -1;
  return ({ done, total }) => {
    const tenth = total === 0 ? 10 : Math.floor((done / total) * 10);
    if (tenth === shown) return;
    shown = tenth;
    ctx.io.err(`embedded ${done} of ${total} chunks\n`);
  };
}

function parseModes(opts: EvalOptions, config: Config): EvalMode[] {
  const embedder = config.embedding.provider !== 'disabled';
  const modes = opts.mode
    ? opts.mode.split(',').map((m) => m.trim())
    : opts.compare && embedder
      ? [...MODES]
      : ['keyword'];
  for (const m of modes) {
    if (!MODES.includes(m as EvalMode)) throw badRequest(`--mode ${m}: expected keyword, semantic or hybrid`);
    if (m !== 'keyword' && !embedder) throw badRequest(`--mode ${m} needs an [embedding] provider in the config`);
  }
  return [...new Set(modes)] as EvalMode[];
}

/** `--rerank on`, `off` or `on,off` (in the order given); null when not given. */
function parseRerank(opts: EvalOptions): boolean[] | null {
  if (opts.rerank === undefined) return null;
  const values = opts.rerank.split(',').map((v) => v.trim());
  for (const v of values) if (v !== 'on' && v !== 'off') throw badRequest(`--rerank ${v}: expected on, off or on,off`);
  return [...new Set(values)].map((v) => v === 'on');
}

function parseList(
  value: string | undefined,
  flag: string,
  valid: (n: number) => boolean,
  expected: string,
): number[] | null {
  if (value === undefined) return null;
  return value.split(',').map((raw) => {
    const n = Number(raw.trim());
    if (raw.trim() === '' || !Number.isFinite(n) || !valid(n)) throw badRequest(`${flag} ${raw}: expected ${expected}`);
    return n;
  });
}

const fixed = (n: number | null, digits: number): string => (n === null ? '-' : n.toFixed(digits));

function formatRows(rows: readonly EvalRow[]): string {
  return formatTable(
    ['mode', 'alpha', 'chunk_tokens', 'rerank', 'nDCG@10', 'Recall@100', 'MRR@10', 'queries', 'p50 ms', 'p95 ms'],
    rows.map((r) => [
      r.setting.mode,
      fixed(r.alphaUsed, 2),
      r.setting.chunkTokens === null ? 'configured' : String(r.setting.chunkTokens),
      r.setting.rerank === null ? '-' : r.setting.rerank ? 'on' : 'off',
      fixed(r.ndcg10, 4),
      fixed(r.recall100, 4),
      fixed(r.mrr10, 4),
      r.queries,
      fixed(r.p50Ms, 1),
      fixed(r.p95Ms, 1),
    ]),
  );
}

function toWire(r: EvalRow): Record<string, unknown> {
  return {
    mode: r.setting.mode,
    alpha: r.alphaUsed,
    chunk_tokens: r.setting.chunkTokens,
    rerank: r.setting.rerank,
    ndcg_at_10: r.ndcg10,
    recall_at_100: r.recall100,
    mrr_at_10: r.mrr10,
    queries: r.queries,
    latency_ms: { p50: r.p50Ms, p95: r.p95Ms },
  };
}
