// ADR 0120 measurement: isomorphic-git against the git CLI that kbctx's git connector runs.
// NOT part of `npm test` or `npm run bench`; isomorphic-git is not a dependency. It needs a scratch
// install outside the repository, and Node 24 (it imports the connector's TypeScript directly):
//
//   mkdir -p /tmp/measure && cd /tmp/measure && npm init -y && npm i isomorphic-git
//   KBCTX_MEASURE_DIR=/tmp/measure/node_modules node_modules/.bin/node bench/adr/isomorphic-git-vs-cli.mjs [runs]
//
// KBCTX_MEASURE_DIR (default /tmp/measure/node_modules) is the node_modules folder isomorphic-git is
// loaded from. It builds a repository in a temp folder with the git CLI (`git fast-import`): FILES
// files, COMMITS commits, each later commit changing one or two files (the last UNTOUCHED files are
// never changed after the first commit, so finding their last commit means walking all history).
// Then: (1) tries isomorphic-git's clone on a local path, a file:// URL and SSH URLs and prints the
// errors; (2) times, alternating order, `runs` (default 3) runs after one warm-up (none for the two
// per-file cases, which make 500 calls each and take minutes), and prints medians:
// per-file last-commit times — kbctx's one streamed `git log` pass (src/connectors/git/commit-times.ts)
// against isomorphic-git's `log({ filepath, depth: 1 })` per file and against a one-pass commit walk
// with isomorphic-git (tree diff of each commit against its parent, unchanged subtrees skipped);
// reading the HEAD tree with blob ids (`git ls-tree -r`); and a status of the clean work tree.
import { Buffer } from 'node:buffer';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { lastCommitTimes } from '../../plugins/connector-git/commit-times.ts';

const DIR = process.env.KBCTX_MEASURE_DIR || '/tmp/measure/node_modules';
const RUNS = Math.max(1, Number(process.argv[2]) || 3);
const FILES = 500;
const COMMITS = 2000;
const UNTOUCHED = 50;
const require = createRequire(import.meta.url);
const git = require(path.join(DIR, 'isomorphic-git'));
const http = require(path.join(DIR, 'isomorphic-git/http/node'));
const isoVersion = require(path.join(DIR, 'isomorphic-git/package.json')).version;
const run = promisify(execFile);

const root = fs.mkdtempSync(path.join(tmpdir(), 'kbctx-adr-git-'));
const repo = path.join(root, 'repo');
const filePath = (i) => `docs/section-${String(i % 20).padStart(2, '0')}/page-${String(i).padStart(3, '0')}.md`;
const content = (i, c) => `# Page ${i}\n\nRevision ${c}. ${'Some text about the topic of this page. '.repeat(10)}\n`;

/** Builds the repository with one `git fast-import` stream, then checks the branch out. */
function buildRepo() {
  fs.mkdirSync(repo, { recursive: true });
  execFileSync('git', ['init', '--quiet', '--initial-branch=main'], { cwd: repo });
  const chunks = [];
  const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const t0 = 1_700_000_000;
  let seed = 42;
  const rand = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648), Math.floor(seed / 65536) % n); // C's rand()
  for (let c = 0; c < COMMITS; c++) {
    chunks.push(
      `commit refs/heads/main\ncommitter Bench <bench@example.com> ${t0 + c * 60} +0000\n${data(`commit ${c}`)}`,
    );
    const changed =
      c === 0
        ? Array.from({ length: FILES }, (_, i) => i)
        : [rand(FILES - UNTOUCHED), ...(c % 3 === 0 ? [rand(FILES - UNTOUCHED)] : [])];
    for (const i of changed) chunks.push(`M 100644 inline ${filePath(i)}\n${data(content(i, c))}`);
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo, input: chunks.join('') });
  execFileSync('git', ['checkout', '--quiet', '--force', 'main'], { cwd: repo });
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (ms) => (ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));

// ---------------------------------------------------------------------------------------------
// The approaches. Each resolves to a Map (path → ISO time) or a count, checked against the CLI's.

/** kbctx today: one streamed `git log -z --name-only` pass (the connector's own code). */
const cliOnePass = (wanted) => lastCommitTimes(repo, 'HEAD', '.', wanted, 'bench', 600);

/** Every path of HEAD's tree with its blob id, via isomorphic-git's readTree (subtrees recursively). */
async function isoTreeFiles(cache, oid, prefix = '', out = new Map()) {
  const { tree } = await git.readTree({ fs, dir: repo, oid, cache });
  for (const e of tree) {
    const p = prefix + e.path;
    if (e.type === 'tree') await isoTreeFiles(cache, e.oid, `${p}/`, out);
    else if (e.type === 'blob') out.set(p, e.oid);
  }
  return out;
}

/** isomorphic-git's documented way: `log` with `filepath`, newest match only, one call per file. */
async function isoLogPerFile(wanted) {
  const cache = {}; // shared parsed-packfile cache: the fast case
  const times = new Map();
  for (const filepath of wanted) {
    const [hit] = await git.log({ fs, dir: repo, ref: 'HEAD', filepath, depth: 1, cache });
    if (hit) times.set(filepath, new Date(hit.commit.committer.timestamp * 1000).toISOString());
  }
  return times;
}

/** The best one-pass equivalent found: walk commits once, diff each tree against its parent's. */
async function isoOnePass(wanted) {
  const cache = {};
  const times = new Map();
  const changed = async (a, b, prefix, out) => {
    if (a === b) return;
    const ta = a ? (await git.readTree({ fs, dir: repo, oid: a, cache })).tree : [];
    const tb = b
      ? new Map((await git.readTree({ fs, dir: repo, oid: b, cache })).tree.map((e) => [e.path, e]))
      : new Map();
    for (const e of ta) {
      const other = tb.get(e.path);
      if (other && other.oid === e.oid) continue;
      if (e.type === 'tree')
        await changed(e.oid, other?.type === 'tree' ? other.oid : null, `${prefix}${e.path}/`, out);
      else out.push(prefix + e.path);
    }
  };
  const commits = await git.log({ fs, dir: repo, ref: 'HEAD', cache });
  const parents = new Map(commits.map((c) => [c.oid, c.commit.tree]));
  for (const c of commits) {
    const parentTree = c.commit.parent.length ? parents.get(c.commit.parent[0]) : null;
    const paths = [];
    await changed(c.commit.tree, parentTree, '', paths);
    const when = new Date(c.commit.committer.timestamp * 1000).toISOString();
    for (const p of paths) if (wanted.has(p) && !times.has(p)) times.set(p, when);
    if (times.size >= wanted.size) break;
  }
  return times;
}

/** For comparison only: the CLI run once per file (what kbctx deliberately never does). */
async function cliPerFile(wanted) {
  const times = new Map();
  for (const p of wanted) {
    const { stdout } = await run('git', ['log', '-1', '--format=%ct', 'HEAD', '--', p], { cwd: repo });
    if (stdout.trim()) times.set(p, new Date(Number(stdout.trim()) * 1000).toISOString());
  }
  return times;
}

async function cliLsTree() {
  const { stdout } = await run('git', ['ls-tree', '-r', '-z', 'HEAD'], { cwd: repo, maxBuffer: 1 << 26 });
  return stdout.split('\0').filter(Boolean).length;
}
async function isoLsTree() {
  const cache = {};
  const oid = await git.resolveRef({ fs, dir: repo, ref: 'HEAD' });
  const { commit } = await git.readCommit({ fs, dir: repo, oid, cache });
  return (await isoTreeFiles(cache, commit.tree)).size;
}
async function cliStatus() {
  const { stdout } = await run('git', ['status', '--porcelain=v1', '-z'], { cwd: repo });
  return stdout.split('\0').filter(Boolean).length;
}
async function isoStatus() {
  const matrix = await git.statusMatrix({ fs, dir: repo, cache: {} });
  return matrix.filter(([, head, work, stage]) => !(head === 1 && work === 1 && stage === 1)).length;
}

// ---------------------------------------------------------------------------------------------
try {
  const b0 = performance.now();
  buildRepo();
  const gitVersion = execFileSync('git', ['--version'], { encoding: 'utf8' }).trim();
  console.log(
    `isomorphic-git ${isoVersion} vs ${gitVersion}, Node ${process.version}; ${RUNS} timed runs (after one warm-up, except per file)`,
  );
  console.log(
    `test repository: ${FILES} files, ${COMMITS} commits (${UNTOUCHED} files untouched since the first), built in ${fmt(performance.now() - b0)} ms\n`,
  );

  console.log('## Clone sources (isomorphic-git clone with its Node HTTP client)\n');
  console.log('| url | isomorphic-git | git CLI |');
  console.log('|---|---|---|');
  const sources = [repo, `file://${repo}`, 'ssh://git@localhost/srv/repo.git', 'git@localhost:srv/repo.git'];
  for (const [i, url] of sources.entries()) {
    let iso;
    try {
      await git.clone({ fs, http, dir: path.join(root, `iso-clone-${i}`), url, singleBranch: true });
      iso = 'cloned';
    } catch (error) {
      iso = `${error.code ?? error.name}: ${error.message}`;
    }
    let cli = 'not tried (no SSH server here)';
    if (i < 2) {
      try {
        execFileSync('git', ['clone', '--quiet', url, path.join(root, `cli-clone-${i}`)], { stdio: 'pipe' });
        cli = 'cloned';
      } catch (error) {
        cli = `failed: ${String(error.stderr).trim()}`;
      }
    }
    console.log(
      `| \`${url.replace(root, '$TMP')}\` | ${iso.replaceAll(root, '$TMP').replaceAll('\n', ' ')} | ${cli} |`,
    );
  }

  const wanted = new Set(
    (await run('git', ['ls-tree', '-r', '--name-only', 'HEAD'], { cwd: repo })).stdout.split('\n').filter(Boolean),
  );
  const cases = [
    ['per-file last commit: kbctx one `git log` pass', () => cliOnePass(wanted)],
    ['per-file last commit: isomorphic-git `log({filepath, depth: 1})` per file', () => isoLogPerFile(wanted), true],
    ['per-file last commit: isomorphic-git one pass (commit walk + tree diff)', () => isoOnePass(wanted)],
    ['per-file last commit: git CLI `log -1 -- <file>` per file (reference only)', () => cliPerFile(wanted), true],
    ['HEAD tree with blob ids: `git ls-tree -r`', cliLsTree],
    ['HEAD tree with blob ids: isomorphic-git readTree (recursive)', isoLsTree],
    ['status of the clean work tree: `git status --porcelain`', cliStatus],
    ['status of the clean work tree: isomorphic-git statusMatrix', isoStatus],
  ];
  const samples = cases.map(() => []);
  const results = cases.map(() => null);
  for (let r = 0; r <= RUNS; r++) {
    // Alternate the order: forwards on even runs, backwards on odd ones.
    const order = cases.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) {
      if (r === 0 && cases[i][2]) continue; // the per-file cases make 500 calls each: no separate warm-up
      const t0 = performance.now();
      results[i] = await cases[i][1]();
      if (r > 0) samples[i].push(performance.now() - t0);
      if (r > 0) process.stderr.write(`run ${r}: ${cases[i][0]}: ${fmt(performance.now() - t0)} ms\n`);
    }
  }
  const reference = results[0];
  console.log(`\n## Timings, median of ${RUNS} runs (alternating order)\n`);
  console.log('| operation | median ms | runs ms | × kbctx way | result |');
  console.log('|---|---:|---|---:|---|');
  const baseOf = (i) => (i < 4 ? 0 : i < 6 ? 4 : 6);
  for (const [i, [name]] of cases.entries()) {
    const m = median(samples[i]);
    const res = results[i];
    let check = String(res);
    if (res instanceof Map) {
      const wrong = [...reference].filter(([p, t]) => res.get(p) !== t).length;
      check = `${res.size} paths${wrong ? `, ${wrong} differ from git log` : ', same as git log'}`;
    }
    console.log(
      `| ${name} | ${fmt(m)} | ${samples[i].map(fmt).join(', ')} | ${(m / median(samples[baseOf(i)])).toFixed(1)}× | ${check} |`,
    );
  }
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
