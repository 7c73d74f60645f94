// `npm run eval:semantic`: SciFact (train split) keyword, semantic and hybrid rows with the bundled
// local model (Universal Sentence Encoder Lite, no network). Exits 1 when hybrid does not beat keyword.
// LORE_EVAL_DIR keeps the index (and its embeddings) between runs; EVAL_ALPHAS="0.3,0.5" adds rows.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../src/config/load-config.ts';
import { openLore } from '../../src/compose.ts';
import { selectConnectors } from '../../src/app/select-connectors.ts';
import { syncConnectors } from '../../src/app/sync.ts';
import { loadQrels, loadQueries, writeCorpus } from './scifact.ts';
import { DEFAULT_RUNS, evaluateSemantic, formatScores, type EvalRun } from './semantic-eval.ts';

const keep = process.env['LORE_EVAL_DIR'];
const dir = keep ?? mkdtempSync(path.join(tmpdir(), 'lore-semeval-'));
try {
  if (!existsSync(path.join(dir, 'corpus'))) writeCorpus(path.join(dir, 'corpus'));
  const config = parseConfig(
    `[db]\npath = "index.sqlite"\n[embedding]\nprovider = "local"\nbatch_size = 32\n` +
      `[connectors.filesystem.scifact]\nroot = "corpus"\ninclude_globs = ["*.md"]\n`,
    { file: 'eval.toml', cwd: dir },
  );
  // Sync without inline embedding: the eval embeds (and times) it separately.
  const lore = openLore(config);
  const connectors = selectConnectors(config, 'all').map((r) => lore.createConnector(r));
  const [report] = await syncConnectors({ ...lore.syncDeps(), afterConnector: undefined }, connectors, { full: false });
  const counts = lore.store.counts();
  console.log(`indexed SciFact: ${counts.documents} documents, ${counts.chunks} chunks (${report?.chunksWritten} written now)`);
  const alphas = (process.env['EVAL_ALPHAS'] ?? '').split(',').filter((a) => a.trim() !== '').map(Number);
  const runs: EvalRun[] = [...DEFAULT_RUNS, ...alphas.map((alpha) => ({ label: `hybrid a=${alpha}`, mode: 'hybrid' as const, alpha }))];
  const scores = await evaluateSemantic(lore, loadQueries(), loadQrels(), runs, (l) => console.log(l));
  console.log(`SciFact train split, ${lore.embedder()?.model}\n${formatScores(scores)}`);
  const kw = scores.find((s) => s.label === 'keyword');
  const hybrid = scores.find((s) => s.label === 'hybrid');
  if (kw && hybrid && hybrid.ndcg10 <= kw.ndcg10) {
    console.error('hybrid nDCG@10 is not above keyword');
    process.exitCode = 1;
  }
  lore.close();
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
