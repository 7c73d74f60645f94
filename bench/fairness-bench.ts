// `npm run bench:fairness` (ADR 0224): does one runaway token starve the others? A real `kbctx serve mcp` (127.0.0.1,
// port 0, search cache off) over BENCH_DOCS generated documents, with two tokens: A, hammered by autocannon at 16
// connections (in a worker thread, fairness-hammer.ts) of keyword searches, and B, whose keyword searches are timed one
// at a time (a few ms apart), first with the server idle, then under A's load. Two servers in one run: A limited
// (`max_concurrent = BENCH_A_CONCURRENT`, `requests_per_minute = BENCH_A_RPM`; its extra requests answered 429 before
// their body is read) and A unlimited, the comparison. Prints per server the medians over BENCH_ROUNDS rounds of B's
// p50/p99 idle and loaded, the ratio p99(loaded)/p99(idle) (the goal: ≤ 2 with the limit), and A's answers; never
// asserts.
// Env: BENCH_DOCS, BENCH_SECONDS, BENCH_ROUNDS, BENCH_A_CONCURRENT, BENCH_A_RPM.
import { spawn, type ChildProcess } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { KBCTX_BIN, Workspace } from '../test/helpers/workspace.ts';
import { fmtMs, median, percentile } from './stats.ts';

const DOCS = Number(process.env['BENCH_DOCS'] ?? 2000);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 8);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const A_CONCURRENT = Number(process.env['BENCH_A_CONCURRENT'] ?? 2);
const A_RPM = Number(process.env['BENCH_A_RPM'] ?? 120);
const CONNECTIONS = 16;
const GAP_MS = 5;
const SECRETS = { A: 'bench-token-a-runaway', B: 'bench-token-b-polite' };

const words =
  'replication checkpoint kingfisher ledger harbour lantern meadow quartz orbit glacier compiler latency fox tea'.split(
    ' ',
  );
const queries = ['kingfisher ledger', 'quartz orbit', 'harbour lantern meadow', 'compiler latency', 'glacier fox'];
const ws = new Workspace('kbctx-bench-fairness-');
for (let i = 0; i < DOCS; i++)
  ws.write(
    `docs/${i}.md`,
    `# Note ${i}\n\n` +
      `${Array.from({ length: 200 }, (_, j) => words[(i * 7 + j * 3 + (j % 5)) % words.length]).join(' ')}\n`,
  );
const toml = (limitA: string): string => `[connectors.filesystem.docs]
root = "docs"
[embedding]
provider = "disabled"
[retrieval]
cache_size = 0
[server]
watch = false
[server.tokens.a]
token_env = "BENCH_TOKEN_A"
${limitA}
[server.tokens.b]
token_env = "BENCH_TOKEN_B"
`;
const LIMITS = `max_concurrent = ${A_CONCURRENT}\nrequests_per_minute = ${A_RPM}`;
ws.write('config/limited.toml', toml(LIMITS));
ws.write('config/unlimited.toml', toml(''));
const env = { ...process.env, KBCTX_CONFIG: '', BENCH_TOKEN_A: SECRETS.A, BENCH_TOKEN_B: SECRETS.B };

async function run(args: string[]): Promise<void> {
  const child = spawn(process.execPath, [KBCTX_BIN, ...args], { cwd: ws.dir, env, stdio: 'inherit' });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`kbctx ${args.join(' ')} exited ${String(code)}`);
}

async function serve(config: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, [KBCTX_BIN, '-c', config, 'serve', 'mcp', '--bind', '127.0.0.1:0'], {
    cwd: ws.dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /Listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited ${String(code)}: ${err}`)));
  });
  return { child, base };
}

const headers = (secret: string) => ({ authorization: `Bearer ${secret}`, 'content-type': 'application/json' });

/** B's searches one at a time for `ms`: each latency in ms. */
async function probe(base: string, ms: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + ms;
  for (let i = 0; performance.now() < end; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}/tools/search`, {
      method: 'POST',
      headers: headers(SECRETS.B),
      body: JSON.stringify({ query: queries[i % queries.length], mode: 'keyword' }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`token B got ${res.status}`);
    latencies.push(performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, GAP_MS));
  }
  return latencies;
}

interface Round {
  idle: number[];
  loaded: number[];
  a2xx: number;
  a429: number;
  aRps: number;
}

async function round(base: string): Promise<Round> {
  const idle = await probe(base, SECONDS * 1000);
  const worker = new Worker(new URL('./fairness-hammer.ts', import.meta.url), {
    workerData: { base, secret: SECRETS.A, seconds: SECONDS + 1, connections: CONNECTIONS, queries },
  });
  const hammer = new Promise<{ ok: number; refused: number; rps: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await new Promise((resolve) => setTimeout(resolve, 500)); // A's load is up before B is timed
  const loaded = await probe(base, SECONDS * 1000);
  const a = await hammer;
  await worker.terminate();
  return { idle, loaded, a2xx: a.ok, a429: a.refused, aRps: a.rps };
}

await run(['-c', 'config/limited.toml', 'sync', 'all']);
const rows: string[][] = [];
for (const [name, config] of [
  [`A limited (${A_CONCURRENT} at once, ${A_RPM}/min)`, 'config/limited.toml'],
  ['A unlimited', 'config/unlimited.toml'],
] as const) {
  const server = await serve(config);
  await probe(server.base, 1000); // warm-up
  const rounds: Round[] = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await round(server.base));
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.on('exit', resolve));
  const med = (f: (r: Round) => number): number => median(rounds.map(f));
  const idleP99 = med((r) => percentile(r.idle, 99));
  const loadedP99 = med((r) => percentile(r.loaded, 99));
  rows.push([
    name,
    fmtMs(med((r) => percentile(r.idle, 50))),
    fmtMs(idleP99),
    fmtMs(med((r) => percentile(r.loaded, 50))),
    fmtMs(loadedP99),
    (loadedP99 / idleP99).toFixed(2),
    String(Math.round(med((r) => r.loaded.length))),
    `${Math.round(med((r) => r.aRps))} (${Math.round(med((r) => r.a2xx))} ok, ` +
      `${Math.round(med((r) => r.a429))} × 429)`,
  ]);
}
ws.cleanup();

const head = [
  'server',
  'B p50 idle',
  'B p99 idle',
  'B p50 loaded',
  'B p99 loaded',
  'p99 ratio',
  'B searches',
  'A req/s',
];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
console.log(
  `\nfairness: ${DOCS} documents, keyword search, cache off; token A at ${CONNECTIONS} connections for ` +
    `${SECONDS + 1} s, ` +
    `token B one search at a time (${GAP_MS} ms apart) for ${SECONDS} s idle then loaded; medians of ${ROUNDS} ` +
    `round(s), ms`,
);
console.log(line(head));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of rows) console.log(line(row));
console.log('goal: p99 ratio ≤ 2 with A limited');
