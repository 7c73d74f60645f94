// `npm run bench:live`: the live index of a real `kbctx serve mcp` process. Prints save-to-searchable and
// delete-to-gone latency over 100 edits in a 5,000-file folder (p50/p95), a 5,000-file `git checkout`
// burst (syncs caused, time until the index matches), and idle CPU/RSS while watching 50,000 files.
// Goals (issue 13): p50 ≤ 300 ms, p95 ≤ 1 s. Prints numbers; asserts nothing.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { fmtMs, percentile } from './stats.ts';

const KBCTX = fileURLToPath(new URL('../bin/kbctx.js', import.meta.url));
const FOLDER_FILES = 5_000;
const EDITS = 100;
const IDLE_FILES = 50_000;
const IDLE_SECONDS = 10;

interface Server {
  child: ChildProcess;
  url: string;
  log: () => string;
}

function startServer(dir: string): Promise<Server> {
  const child = spawn(process.execPath, [KBCTX, 'serve', 'mcp', '--bind', '127.0.0.1:0'], {
    cwd: dir,
    env: { ...process.env, KBCTX_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /MCP endpoint: (http:\/\/\S+)\/mcp/.exec(out);
      if (m) resolve({ child, url: m[1]!, log: () => err });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(5);
  }
}

async function hits(url: string, query: string): Promise<number> {
  const res = await fetch(`${url}/tools/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return ((await res.json()) as { results: unknown[] }).results.length;
}

const page = (i: number, version: string): string =>
  `# Page ${i}\n\nParagraph about topic ${i % 97} and release ${version}. ` +
  `${'Some filler words for a realistic size. '.repeat(12)}\n`;

const only = process.argv[2]; // 'folder' or 'idle' runs one part
// BENCH_ENGINE=lancedb runs the same on the LanceDB store (issue 24: a save searchable as fast as on SQLite).
const ENGINE = process.env['BENCH_ENGINE'] ?? 'sqlite';
const DB =
  ENGINE === 'sqlite'
    ? ''
    : `[db]\nengine = "${ENGINE}"\npath = ".kbctx/index.${ENGINE === 'lancedb' ? 'lance' : ENGINE}"\n\n`;

async function folderBench(root: string): Promise<void> {
  const dir = path.join(root, 'folder');
  const docs = path.join(dir, 'docs');
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: docs, stdio: 'ignore' });
  for (let i = 0; i < FOLDER_FILES; i++) {
    const file = path.join(docs, `s${i % 50}`, `p${i}.md`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, page(i, 'alpha'));
  }
  git('init', '--quiet', '--initial-branch=main');
  git('-c', 'user.email=b@example.com', '-c', 'user.name=Bench', 'add', '--all');
  git('-c', 'user.email=b@example.com', '-c', 'user.name=Bench', 'commit', '--quiet', '-m', 'alpha');
  git('checkout', '--quiet', '-b', 'beta');
  for (let i = 0; i < FOLDER_FILES; i++)
    writeFileSync(path.join(docs, `s${i % 50}`, `p${i}.md`), page(i, 'betarelease'));
  git('-c', 'user.email=b@example.com', '-c', 'user.name=Bench', 'commit', '--quiet', '-am', 'beta');
  git('checkout', '--quiet', 'main');
  mkdirSync(path.join(dir, 'config'));
  writeFileSync(
    path.join(dir, 'config', 'kbctx.toml'),
    `${DB}[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "off"\n`,
  );
  const server = await startServer(dir);
  try {
    await waitFor(() => /sync filesystem:docs \(start\)/.test(server.log()), 'start-up sync');
    const edits: number[] = [];
    for (let n = 0; n < EDITS; n++) {
      const i = (n * 37) % FOLDER_FILES;
      const token = `edittoken${n}x`;
      const started = performance.now();
      writeFileSync(path.join(docs, `s${i % 50}`, `p${i}.md`), `${page(i, 'alpha')}\nNow mentions ${token}.\n`);
      await waitFor(async () => (await hits(server.url, token)) > 0, token);
      edits.push(performance.now() - started);
    }
    const deletes: number[] = [];
    for (let n = 0; n < EDITS; n++) {
      const i = (n * 37) % FOLDER_FILES;
      const started = performance.now();
      rmSync(path.join(docs, `s${i % 50}`, `p${i}.md`));
      await waitFor(async () => (await hits(server.url, `edittoken${n}x`)) === 0, `delete ${n}`);
      deletes.push(performance.now() - started);
    }
    console.log(
      `save → searchable (${EDITS} edits, ${FOLDER_FILES}-file folder): p50 ${fmtMs(percentile(edits, 50))} ms, ` +
        `p95 ${fmtMs(percentile(edits, 95))} ms`,
    );
    console.log(
      `delete → gone (${EDITS} deletes): p50 ${fmtMs(percentile(deletes, 50))} ms, p95 ` +
        `${fmtMs(percentile(deletes, 95))} ms`,
    );
    if (ENGINE !== 'sqlite') return; // the checkout burst below counts documents in the SQLite file
    const db = new DatabaseSync(path.join(dir, '.kbctx', 'kbctx.sqlite'), { readOnly: true });
    const count = (where: string): number =>
      Number((db.prepare(`SELECT count(*) AS n FROM documents ${where}`).get() as { n: number }).n);
    git('checkout', '--quiet', '--', '.'); // restore the deleted files before switching branches
    await waitFor(() => count('') === FOLDER_FILES, 'restored files indexed');
    await sleep(1000);

    const beta = (): number => count("WHERE body LIKE '%betarelease%'");
    const mark = server.log().length;
    const started = performance.now();
    git('checkout', '--quiet', 'beta');
    const checkoutMs = performance.now() - started;
    await waitFor(() => beta() === FOLDER_FILES, 'checkout indexed');
    const matchedMs = performance.now() - started;
    await sleep(3000); // any trailing sync would show up here
    const lines = server
      .log()
      .slice(mark)
      .split('\n')
      .filter((l) => l.startsWith('sync filesystem:docs (watch)'));
    const syncs = lines.length;
    for (const l of lines) console.log(`  ${l.replace(/; next .*/, '')}`);
    db.close();
    console.log(
      `git checkout of ${FOLDER_FILES} changed files (git took ${fmtMs(checkoutMs)} ms): ${syncs} sync(s); index ` +
        `matched after ${fmtMs(matchedMs)} ms`,
    );
  } finally {
    server.child.kill('SIGTERM');
  }
}

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

async function idleBench(root: string): Promise<void> {
  const dir = path.join(root, 'idle');
  for (let i = 0; i < IDLE_FILES; i++) {
    const file = path.join(dir, 'docs', `d${i % 500}`, `f${i}.md`);
    if (i < 500) mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `# File ${i}\n\nShort note ${i}.\n`);
  }
  mkdirSync(path.join(dir, 'config'));
  writeFileSync(
    path.join(dir, 'config', 'kbctx.toml'),
    `${DB}[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "off"\n`,
  );
  execFileSync(process.execPath, [KBCTX, 'sync', 'all'], {
    cwd: dir,
    stdio: 'ignore',
    env: { ...process.env, KBCTX_CONFIG: '' },
  });
  const started = performance.now();
  const server = await startServer(dir);
  try {
    await waitFor(() => /sync filesystem:docs \(start\)/.test(server.log()), 'start-up sync');
    const readyMs = performance.now() - started;
    await sleep(2000);
    const pid = server.child.pid!;
    const t0 = cpuTicks(pid);
    await sleep(IDLE_SECONDS * 1000);
    const ticks = cpuTicks(pid) - t0;
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    console.log(
      `idle, watching ${IDLE_FILES} files in 500 folders: CPU ${((ticks / 100 / IDLE_SECONDS) * 100).toFixed(2)} ` +
        `% of one core over ${IDLE_SECONDS} s, ` +
        `RSS ${Math.round(Number(rss) / 1024)} MB; watching + start-up sync took ${fmtMs(readyMs)} ms`,
    );
  } finally {
    server.child.kill('SIGTERM');
  }
}

const root = mkdtempSync(path.join(tmpdir(), 'kbctx-live-bench-'));
try {
  if (only !== 'idle') await folderBench(root);
  if (only !== 'folder') await idleBench(root);
} finally {
  rmSync(root, { recursive: true, force: true });
}
