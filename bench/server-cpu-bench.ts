// `npm run bench:server-cpu`: the server process's CPU time per request (ADR 0132), a figure a busy
// machine barely moves, unlike req/s. For each tree (this one; BENCH_TREES=dir,dir… for others, e.g.
// an older checkout first), `kbctx serve mcp` of that tree on its own SciFact index; per scenario a
// warm-up, then N identical-shape requests at concurrency 4 over keep-alive, the server's utime+stime
// read from /proc/<pid>/stat before and after. Trees alternate for BENCH_ROUNDS rounds; the last block
// is each scenario's median per tree. Linux only (/proc). Env: SCIFACT_DIR, BENCH_REQUESTS, BENCH_ROUNDS.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { REPO_ROOT, Workspace } from '../test/helpers/workspace.ts';
import { median } from './stats.ts';

const DATA = process.env['SCIFACT_DIR'] ?? '/work/shared/data/scifact';
const N = Number(process.env['BENCH_REQUESTS'] ?? 3000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 2);
const TREES = (process.env['BENCH_TREES'] ?? REPO_ROOT).split(',').map((t) => path.resolve(t));
const TICK_MS = 10; // USER_HZ 100

const readJsonl = <T>(file: string): T[] =>
  readFileSync(path.join(DATA, file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);
const queries = readJsonl<{ text: string }>('train-queries.jsonl').map((q) => q.text);

const ws = new Workspace('kbctx-bench-server-cpu-');
for (const d of readJsonl<{ _id: string; title: string; text: string }>('corpus.jsonl'))
  ws.write(`docs/${d._id}.md`, `# ${d.title}\n\n${d.text}\n`);
const serverToml = (cacheSize: number): string =>
  `[connectors.filesystem.scifact]\nroot = "${ws.path('docs')}"\n[server]\nbind = "127.0.0.1:0"\n[retrieval]\n` +
  `cache_size = ${cacheSize}\n`;
/** Each tree syncs its own index (index formats may differ between trees). */
const treeDir = (i: number): string => ws.path(`tree-${i}`);
for (const [i, tree] of TREES.entries()) {
  mkdirSync(treeDir(i), { recursive: true });
  writeFileSync(path.join(treeDir(i), 'kbctx.toml'), serverToml(0));
  writeFileSync(path.join(treeDir(i), 'cached.toml'), serverToml(256));
  const sync = spawnSync(process.execPath, [path.join(tree, 'bin/kbctx.js'), '-c', 'kbctx.toml', 'sync', 'all'], {
    cwd: treeDir(i),
    env: { ...process.env, KBCTX_CONFIG: '' },
    encoding: 'utf8',
  });
  if (sync.status !== 0) throw new Error(`${tree}: ${sync.stderr}`);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
function post(base: URL, pathname: string, headers: Record<string, string>, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        path: pathname,
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        agent,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(text)
            : reject(new Error(`${pathname}: ${res.statusCode} ${text.slice(0, 200)}`)),
        );
      },
    );
    req.on('error', reject).end(body);
  });
}

/** utime + stime of a process, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function serve(tree: string, cwd: string, config: string): Promise<{ child: ChildProcess; base: URL }> {
  const child = spawn(process.execPath, [path.join(tree, 'bin/kbctx.js'), '-c', config, 'serve', 'mcp'], {
    cwd,
    env: { ...process.env, KBCTX_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const base = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`${tree}: serve exited with ${code}`)));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /Listening on (\S+)/.exec(out);
      if (m) resolve(new URL(m[1]!));
    });
  });
  return { child, base };
}

async function stop(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Scenario {
  name: string;
  path: string;
  headers: Record<string, string>;
  bodies: string[];
  /** Requests per N (cheap scenarios run more, for the same tick resolution). */
  times: number;
  cached?: boolean;
}

const json = { 'content-type': 'application/json' };
const mcp2025 = { ...json, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const mcp2026 = {
  ...json,
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'search',
};
const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const toolsCall = (query: string, meta?: object): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'search', arguments: { query }, ...(meta ? { _meta: meta } : {}) },
  });
const scenarios = (firstId: string): Scenario[] => [
  {
    name: 'REST POST /tools/search',
    path: '/tools/search',
    headers: json,
    bodies: queries.map((q) => JSON.stringify({ query: q })),
    times: 1,
  },
  {
    name: 'MCP tools/call search (2025, stateless)',
    path: '/mcp',
    headers: mcp2025,
    bodies: queries.map((q) => toolsCall(q)),
    times: 1,
  },
  {
    name: 'MCP tools/call search (2026-07-28)',
    path: '/mcp',
    headers: mcp2026,
    bodies: queries.map((q) => toolsCall(q, envelope)),
    times: 1,
  },
  {
    name: 'REST POST /tools/get (no search)',
    path: '/tools/get',
    headers: json,
    bodies: [JSON.stringify({ id: firstId })],
    times: 5,
  },
  {
    name: 'MCP tools/list (2025, no search)',
    path: '/mcp',
    headers: mcp2025,
    bodies: ['{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'],
    times: 1,
  },
  {
    name: 'REST POST /tools/search (cache on, 50 repeated)',
    path: '/tools/search',
    headers: json,
    bodies: queries.slice(0, 50).map((q) => JSON.stringify({ query: q })),
    times: 3,
    cached: true,
  },
];

/** µs of server CPU per request over `n` requests at concurrency 4. */
async function cpuPerRequest(pid: number, base: URL, s: Scenario, n: number): Promise<number> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) await post(base, s.path, s.headers, s.bodies[next++ % s.bodies.length]!);
  };
  const before = cpuMs(pid);
  await Promise.all([worker(), worker(), worker(), worker()]);
  return ((cpuMs(pid) - before) * 1000) / n;
}

async function measureTree(i: number): Promise<Map<string, number>> {
  const figures = new Map<string, number>();
  for (const cached of [false, true]) {
    const { child, base } = await serve(TREES[i]!, treeDir(i), cached ? 'cached.toml' : 'kbctx.toml');
    try {
      const first = JSON.parse(await post(base, '/tools/search', json, JSON.stringify({ query: queries[0] }))) as {
        results: { id: string }[];
      };
      for (const s of scenarios(first.results[0]!.id).filter((x) => (x.cached ?? false) === cached)) {
        await cpuPerRequest(child.pid!, base, s, Math.min(N * s.times, 500)); // warm-up (JIT)
        figures.set(s.name, await cpuPerRequest(child.pid!, base, s, N * s.times));
      }
    } finally {
      await stop(child);
    }
  }
  return figures;
}

console.log(
  `server CPU per request: ${N} requests per scenario (x5 for get, x3 cached), concurrency 4, ${ROUNDS} ` +
    `round(s), trees: ${TREES.join(' | ')}`,
);
const all = TREES.map(() => new Map<string, number[]>());
for (let round = 1; round <= ROUNDS; round++) {
  for (const i of TREES.keys()) {
    const figures = await measureTree(i);
    for (const [name, us] of figures) {
      all[i]!.set(name, [...(all[i]!.get(name) ?? []), us]);
      console.log(
        `round ${round} ${path.basename(TREES[i]!).padEnd(10)} ${name.padEnd(48)} ${us.toFixed(0).padStart(6)} µs`,
      );
    }
  }
}
console.log(`medians (µs CPU per request): ${TREES.map((t) => path.basename(t)).join(' | ')}`);
for (const name of all[0]!.keys())
  console.log(`${name.padEnd(48)} ${all.map((m) => median(m.get(name)!).toFixed(0).padStart(6)).join(' | ')}`);
agent.destroy();
ws.cleanup();
