// `npm run bench:git`: builds a git repository of 1,000+ Markdown files in a temp folder, then times the
// real CLI's first `kbctx sync` (clone over file:// + index) and a no-change resync. Prints medians; asserts nothing.
// Targets (issue 6): first sync ≤ 3 s, no-change resync ≤ 0.3 s.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const FILES = 1000;
const COMMITS = 10;
const RUNS = 5;
const KBCTX = fileURLToPath(new URL('../bin/kbctx.js', import.meta.url));

const root = mkdtempSync(path.join(tmpdir(), 'kbctx-git-bench-'));
const git = (cwd: string, ...args: string[]): void => void execFileSync('git', args, { cwd, stdio: 'ignore' });

function buildRepo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '--quiet', '--initial-branch=main');
  git(dir, 'config', 'user.email', 'bench@example.com');
  git(dir, 'config', 'user.name', 'Bench');
  const perCommit = FILES / COMMITS;
  for (let c = 0; c < COMMITS; c++) {
    for (let i = c * perCommit; i < (c + 1) * perCommit; i++) {
      const file = path.join(dir, `docs/section-${i % 20}/page-${i}.md`);
      mkdirSync(path.dirname(file), { recursive: true });
      const paragraphs = Array.from(
        { length: 6 },
        (_, p) => `Paragraph ${p} of page ${i} talks about topic ${(i * 7 + p) % 97} and the ${c}th release.`,
      );
      writeFileSync(file, `---\ntitle: Page ${i}\n---\n# Page ${i}\n\n${paragraphs.join('\n\n')}\n`);
    }
    git(dir, 'add', '--all');
    git(dir, 'commit', '--quiet', '-m', `commit ${c}`);
  }
}

function timeSync(cwd: string): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, [KBCTX, 'sync', 'all'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, KBCTX_CONFIG: '' },
  });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`kbctx sync failed: ${r.stderr}`);
  return ms;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

try {
  const repo = path.join(root, 'repo');
  buildRepo(repo);
  const first: number[] = [];
  const again: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const ws = path.join(root, `ws-${run}`);
    mkdirSync(path.join(ws, 'config'), { recursive: true });
    writeFileSync(
      path.join(ws, 'config/kbctx.toml'),
      `[connectors.git.bench]\nurl = "${pathToFileURL(repo).href}"\nbranch = "main"\n`,
    );
    first.push(timeSync(ws));
    for (let i = 0; i < 3; i++) again.push(timeSync(ws));
  }
  const fmt = (ms: number): string => `${(ms / 1000).toFixed(3)} s`;
  console.log(
    `git repository: ${FILES} Markdown files in ${COMMITS} commits; ${RUNS} runs (resync: ${again.length} runs)`,
  );
  console.log(
    `first sync (clone + index), median:  ${fmt(median(first))}   [${first.map(fmt).join(', ')}]   target ≤ 3 s`,
  );
  console.log(
    `no-change resync, median:            ${fmt(median(again))}   [min ${fmt(Math.min(...again))}, max ` +
      `${fmt(Math.max(...again))}]   target ≤ 0.3 s`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
