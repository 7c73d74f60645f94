// `npm run eval`: `kbctx eval` (the real CLI) on the shipped SciFact train split, keyword; exits 1 when
// nDCG@10 drops more than max_drop below test/eval/baseline.json. EVAL_SEMANTIC=1 adds `--compare
// --alpha 0.3` with the bundled local model (a few minutes: it embeds 5,183 abstracts), printed only.
// The store-by-store keyword rows (SQLite postings and FTS5, PostgreSQL, LanceDB): `npm run eval:keyword`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { baselineProblem, loadBaseline } from './baseline.ts';
import { SCIFACT_DIR } from './scifact.ts';

const semantic = process.env['EVAL_SEMANTIC'] === '1';
const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-eval-gate-'));
try {
  const config = path.join(dir, 'kbctx.toml');
  writeFileSync(config, `[db]\npath = "unused.sqlite"\n${semantic ? '[embedding]\nprovider = "local"\n' : ''}`);
  const modes = semantic ? ['--compare', '--mode', 'keyword,semantic,hybrid', '--alpha', '0.3'] : ['--mode', 'keyword'];
  const args = ['-c', config, 'eval', SCIFACT_DIR, '--split', 'train', ...modes];
  const bin = fileURLToPath(new URL('../../bin/kbctx.js', import.meta.url));
  const printed = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, KBCTX_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(printed.stdout);
  if (printed.status !== 0) throw new Error(`kbctx eval exited ${printed.status}`);
  const lines = printed.stdout.split('\n');
  // The nDCG@10 column found by its header, so a column added to the table does not shift it.
  const column =
    lines
      .find((l) => l.startsWith('mode'))
      ?.split(/\s+/)
      .indexOf('nDCG@10') ?? -1;
  const keywordRow = lines.find((l) => l.startsWith('keyword'));
  const measured = column === -1 ? Number.NaN : Number(keywordRow?.split(/\s+/)[column]);
  if (!Number.isFinite(measured)) throw new Error('kbctx eval printed no keyword row');
  const baseline = loadBaseline();
  const problem = baselineProblem(measured, baseline.scifact_train.keyword.ndcg_at_10, baseline.max_drop);
  if (problem) {
    console.error(problem);
    process.exitCode = 1;
  } else console.log(`keyword nDCG@10 ${measured.toFixed(4)}: within ${baseline.max_drop} of test/eval/baseline.json`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
