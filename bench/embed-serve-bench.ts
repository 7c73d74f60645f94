// `npm run bench:embed-serve`: does a background embed slow the server down? Starts a real `kbctx serve mcp` (REST on
// 127.0.0.1, port 0) over BENCH_DOCS new documents (SciFact when present, else generated text), twice per round, each
// on a new index: once with `[embedding] provider = "disabled"` (no embed), once with the bundled `local` model (the
// start-up sync writes the chunks, then the server embeds them in the background). In each, two probes run side by side
// for BENCH_SECONDS after the start-up sync and 1 s of warm-up: `GET /health` and a keyword `POST /tools/search`, one
// request at a time each, a few ms apart. A third phase probes the embed-less server again while `kbctx embed pending`
// finishes the embed in another process: the machine's CPU contention alone. Prints each round's p99, then the medians
// over the rounds of p50 and p99; never asserts. Env: BENCH_DOCS, BENCH_SECONDS, BENCH_ROUNDS, SCIFACT_DIR.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KBCTX_BIN, Workspace } from '../test/helpers/workspace.ts';
import { fmtMs, median, percentile } from './stats.ts';

const DOCS = Number(process.env['BENCH_DOCS'] ?? 1600);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 15);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const DATA = process.env['SCIFACT_DIR'] ?? '/work/shared/data/scifact';
const GAP_MS = 20;

const ws = new Workspace('kbctx-bench-embed-serve-');
const words =
  'replication checkpoint kingfisher ledger harbour lantern meadow quartz orbit glacier compiler latency'.split(' ');
const corpus = existsSync(path.join(DATA, 'corpus.jsonl'))
  ? readFileSync(path.join(DATA, 'corpus.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .slice(0, DOCS)
      .map((l) => JSON.parse(l) as { title: string; text: string })
  : Array.from({ length: DOCS }, (_, i) => ({
      title: `Note ${i}`,
      text: Array.from({ length: 150 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' '),
    }));
corpus.forEach((d, i) => ws.write(`docs/${i}.md`, `# ${d.title}\n\n${d.text}\n`));
const toml = (db: string, provider: string): string =>
  `[db]\npath = "${db}"\n[connectors.filesystem.docs]\nroot = "docs"\n[embedding]\nprovider = "${provider}"\n` +
  `[server]\nbind = "127.0.0.1:0"\n[retrieval]\ncache_size = 0\n`;

interface Served {
  child: ChildProcess;
  base: string;
  /** Resolves with the first stderr line matching. */
  line(re: RegExp): Promise<string>;
}

async function serve(config: string): Promise<Served> {
  const child = spawn(process.execPath, [KBCTX_BIN, '-c', config, 'serve', 'mcp'], {
    cwd: ws.dir,
    env: { ...process.env, KBCTX_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: { re: RegExp; resolve(l: string): void }[] = [];
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    for (const w of [...waiters]) {
      const m = w.re.exec(err);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m[0]);
      }
    }
  });
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /Listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
  const line = (re: RegExp): Promise<string> => {
    const m = re.exec(err);
    return m ? Promise.resolve(m[0]) : new Promise((resolve) => waiters.push({ re, resolve }));
  };
  return { child, base, line };
}

async function stop(s: Served): Promise<void> {
  const exited = new Promise((resolve) => s.child.on('exit', resolve));
  s.child.kill('SIGTERM');
  await exited;
}

/** One request at a time until `until`; the latency of each (ms). */
async function probe(until: number, send: () => Promise<Response>): Promise<number[]> {
  const times: number[] = [];
  while (performance.now() < until) {
    const started = performance.now();
    const res = await send();
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, GAP_MS));
  }
  return times;
}

const queries = [
  'cell proliferation',
  'vitamin deficiency',
  'gene expression in mice',
  'risk of cancer',
  'protein binding',
  ...words,
];
async function measure(base: string): Promise<{ health: number[]; search: number[] }> {
  let q = 0;
  const health = (): Promise<Response> => fetch(`${base}/health`);
  const search = (): Promise<Response> =>
    fetch(`${base}/tools/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: queries[q++ % queries.length], mode: 'keyword' }),
    });
  // warm-up (JIT, first requests), not counted
  await Promise.all([probe(performance.now() + 1000, health), probe(performance.now() + 1000, search)]);
  const until = performance.now() + SECONDS * 1000;
  const [h, s] = await Promise.all([probe(until, health), probe(until, search)]);
  return { health: h, search: s };
}

const SYNCED = /sync filesystem:docs \(start\): [^\n]*\n/;
const EMBEDDED = /embed: \d+ chunk\(s\)[^\n]*\n/;
type Phase = { health: number[]; search: number[] };
const runs: { without: Phase; during: Phase; beside: Phase }[] = [];

console.log(
  `${corpus.length} new documents; ${ROUNDS} rounds of: ${SECONDS} s of probes without an embed, then ${SECONDS} ` +
    `s during one; one request at a time per probe, ${GAP_MS} ms apart`,
);
for (let round = 1; round <= ROUNDS; round++) {
  ws.write('plain.toml', toml(`plain-${round}.sqlite`, 'disabled'));
  ws.write('embed.toml', toml(`embed-${round}.sqlite`, 'local')); // a new index each round: all of it to embed
  const plain = await serve('plain.toml');
  await plain.line(SYNCED);
  const without = await measure(plain.base);
  await stop(plain);
  const embedding = await serve('embed.toml');
  await embedding.line(SYNCED);
  const started = performance.now();
  const during = await measure(embedding.base);
  const finished = await Promise.race([
    embedding.line(EMBEDDED),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000)),
  ]);
  const elapsed = (performance.now() - started) / 1000;
  await stop(embedding);
  // The same server without an embedder, while `kbctx embed pending` finishes that index in another
  // process: what the machine's CPU contention alone costs, with nothing of the embed in the server.
  const other = spawn(process.execPath, [KBCTX_BIN, '-c', 'embed.toml', 'embed', 'pending'], {
    cwd: ws.dir,
    env: { ...process.env, KBCTX_CONFIG: '' },
    stdio: 'ignore',
  });
  const otherExit = new Promise((resolve) => other.on('exit', resolve));
  const again = await serve('plain.toml');
  await again.line(SYNCED);
  await new Promise((resolve) => setTimeout(resolve, 2000)); // the other process's model loads
  const beside = await measure(again.base);
  await stop(again);
  other.kill('SIGTERM');
  await otherExit;
  runs.push({ without, during, beside });
  const p = (t: number[], q: number): string => fmtMs(percentile(t, q));
  console.log(
    `round ${round}: p99 /health / search: without ${p(without.health, 99)} / ${p(without.search, 99)} ms; ` +
      `during ${p(during.health, 99)} / ${p(during.search, 99)} ms; ` +
      `beside ${p(beside.health, 99)} / ${p(beside.search, 99)} ms; ` +
      (finished
        ? `the embed ended within the probes (${finished.trim()})`
        : `the embed still ran after ${elapsed.toFixed(0)} s`),
  );
}

// Medians over the rounds of each round's p50 and p99 (the machine's load varies from round to round).
const line = (label: string, pick: (r: (typeof runs)[number]) => number[]): string => {
  const p50 = median(runs.map((r) => percentile(pick(r), 50)));
  const p99 = median(runs.map((r) => percentile(pick(r), 99)));
  const n = runs.reduce((sum, r) => sum + pick(r).length, 0);
  return `  ${label.padEnd(30)} p50 ${fmtMs(p50).padStart(7)} ms  p99 ${fmtMs(p99).padStart(7)} ms  (${n} requests)`;
};
console.log('medians over the rounds, without an embed ([embedding] provider = "disabled"):');
console.log(line('GET /health', (r) => r.without.health));
console.log(line('POST /tools/search (keyword)', (r) => r.without.search));
console.log(
  'medians over the rounds, during the background embed ([embedding] provider = "local", the bundled model):',
);
console.log(line('GET /health', (r) => r.during.health));
console.log(line('POST /tools/search (keyword)', (r) => r.during.search));
console.log(
  'medians over the rounds, beside an embed in another process (`kbctx embed pending`; this server has no embedder):',
);
console.log(line('GET /health', (r) => r.beside.health));
console.log(line('POST /tools/search (keyword)', (r) => r.beside.search));
ws.cleanup();
