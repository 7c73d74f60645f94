// `npm run bench:rerank`: what reranking costs. (1) The latency it adds to one search: 30 candidates of ~150 words
// scored BENCH_ITERATIONS times by the transformers provider (worker thread) and by the http provider against a
// stand-in remote on 127.0.0.1; p50/p95 at concurrency 1 and 4 (4 searches at once per round: the transformers worker
// batches them, ADR 0198; its model runs are printed). (2) REST req/s of a real `kbctx serve mcp` (keyword search,
// cache off, for BENCH_SECONDS) with reranking on and with `rerank: false`, by 1 and by 4 clients at once. The model is
// the tests' tiny cross-encoder (test/helpers/tiny-cross-encoder.ts: a per-token weight summed, so the figures are
// kbctx's own cost — worker round trip, tokenizer, 30 pairs — not a MiniLM's compute); BENCH_RERANK_MODEL_PATH = a
// real cross-encoder folder measures that instead. Prints, never asserts. Env: BENCH_ITERATIONS (50), BENCH_SECONDS
// (5), BENCH_RERANK_MODEL_PATH.
import { spawn } from 'node:child_process';
import { createTransformersReranker } from '../plugins/rerank/transformers-reranker.ts';
import { createHttpReranker } from '../plugins/rerank/http-reranker.ts';
import { startStandInReranker } from '../test/helpers/stand-in-reranker.ts';
import { writeTinyCrossEncoder } from '../test/helpers/tiny-cross-encoder.ts';
import { KBCTX_BIN, Workspace } from '../test/helpers/workspace.ts';
import { fmtMs, percentile } from './stats.ts';

const ITERATIONS = Number(process.env['BENCH_ITERATIONS'] ?? 50);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const CANDIDATES = 30;
const words = (
  'replication checkpoint kingfisher ledger harbour lantern meadow quartz ' +
  'orbit glacier compiler latency oven bread'
).split(' ');
const text = (i: number): string =>
  Array.from({ length: 150 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ');

const ws = new Workspace('kbctx-bench-rerank-');
const modelPath = process.env['BENCH_RERANK_MODEL_PATH'] ?? ws.path('models/ce');
if (!process.env['BENCH_RERANK_MODEL_PATH']) await writeTinyCrossEncoder(modelPath, words, { oven: 1, bread: 0.5 });
const remote = await startStandInReranker();

type Rerank = (q: string, d: readonly string[]) => Promise<number[]>;

/** Each call's latency: BENCH_ITERATIONS rounds of `concurrency` calls started together (distinct queries). */
async function latency(name: string, rerank: Rerank, concurrency: number, runs?: () => number): Promise<void> {
  const documents = Array.from({ length: CANDIDATES }, (_, i) => text(i));
  await rerank('warm up', documents);
  const before = runs?.() ?? 0;
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    await Promise.all(
      Array.from({ length: concurrency }, async (_, c) => {
        const start = performance.now();
        await rerank(`bread oven query ${i} ${c}`, documents);
        times.push(performance.now() - start);
      }),
    );
  }
  const modelRuns = runs ? `, ${runs() - before} model runs for ${times.length} searches` : '';
  console.log(
    `${name.padEnd(34)} c=${concurrency}  p50 ${fmtMs(percentile(times, 50))} ms  p95 ` +
      `${fmtMs(percentile(times, 95))} ms  (${CANDIDATES} candidates, ${times.length} searches${modelRuns})`,
  );
}

async function restRate(): Promise<void> {
  for (let i = 0; i < 200; i++) ws.write(`docs/${i}.md`, `# Note ${i}\n\n${text(i)}\n`);
  ws.write(
    'kbctx.toml',
    `[db]\npath = "data/index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n[retrieval]\ncache_size = 0\n` +
      `[rerank]\nprovider = "transformers"\nmodel_path = "${modelPath}"\nbudget_ms = 9000\n`,
  );
  const child = spawn(process.execPath, [KBCTX_BIN, '-c', 'kbctx.toml', 'serve', 'mcp', '--bind', '127.0.0.1:0'], {
    cwd: ws.dir,
    env: { ...process.env, KBCTX_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /MCP endpoint: (http:\/\/[^\s]+)\/mcp/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the server exited ${code}`)));
  });
  try {
    for (const clients of [1, 4]) {
      for (const rerank of [true, false]) {
        let sent = 0;
        const post = async (): Promise<void> => {
          // Distinct queries: nothing is answered twice the same way, even with a cache.
          const query = `bread oven kingfisher ${sent++ % 50}`;
          const res = await fetch(`${base}/tools/search`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query, ...(rerank ? {} : { rerank: false }) }),
          });
          if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
          await res.arrayBuffer();
        };
        await post(); // warm up (loads the model)
        let count = 0;
        const end = performance.now() + SECONDS * 1000;
        await Promise.all(
          Array.from({ length: clients }, async () => {
            while (performance.now() < end) {
              await post();
              count++;
            }
          }),
        );
        console.log(
          `REST keyword search, rerank ${rerank ? 'on ' : 'off'}, ${clients} client${clients > 1 ? 's' : ' '}  ` +
            `${(count / SECONDS).toFixed(1)} req/s`,
        );
      }
    }
  } finally {
    child.kill('SIGTERM');
  }
}

try {
  console.log(
    `cross-encoder: ${process.env['BENCH_RERANK_MODEL_PATH'] ?? 'the tests’ tiny model (kbctx’s overhead only)'}`,
  );
  const transformers = createTransformersReranker(() => Promise.resolve(modelPath));
  for (const c of [1, 4])
    await latency('transformers (worker thread)', transformers, c, () => transformers.stats().modelRuns);
  const http = {
    provider: 'http',
    format: 'tei',
    baseUrl: `${remote.url}/tei`,
    model: null,
    modelPath: null,
    threads: 1,
    apiKeyEnv: null,
    candidates: CANDIDATES,
    budgetMs: 9000,
    failOpen: true,
  } as const;
  const httpReranker = createHttpReranker(http, process.env);
  for (const c of [1, 4]) await latency('http (stand-in tei on 127.0.0.1)', httpReranker, c);
  await restRate();
} finally {
  await remote.close();
  ws.cleanup();
}
