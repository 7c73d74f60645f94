// `npm run bench:server`: load on a real `kbctx serve mcp` over a SciFact index. Writes the corpus as Markdown files in
// a temp workspace, syncs it with the real CLI, starts the server as its own process, then runs autocannon (16
// connections, 10 s): REST /tools/search and MCP tools/call search (2025 stateless and 2026-07-28), plus no-search
// ceilings. BENCH_WORKERS sets [server].workers. The search response cache is OFF for these (every request really
// searches); a last scenario shows REST search with the cache on and a small set of repeated queries; then uncached
// REST search with each keyword engine at 1 and 2 server processes; last, PostgreSQL (a real server in a temp dir)
// beside SQLite: in-process keyword p50, REST search with 1 and 2 replicas. Prints numbers only; never asserts. Env:
// SCIFACT_DIR, BENCH_DOCS, BENCH_SECONDS.
import '../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { KBCTX_BIN, runKbctx, Workspace } from '../test/helpers/workspace.ts';
import { startPostgres } from '../test/helpers/postgres.ts';
import { loadConfig } from '../core/config/load-config.ts';
import type { Config } from '../core/config/types.ts';
import { openKbctx } from '../core/app/compose.ts';
import { parseSearchParams } from '../plugins/tools-builtin/search-params.ts';
import { timeSearches } from './search-timing.ts';
import { fmtMs, median } from './stats.ts';

const DATA = process.env['SCIFACT_DIR'] ?? '/work/shared/data/scifact';
const MAX_DOCS = Number(process.env['BENCH_DOCS'] ?? Infinity);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = 16;
const WORKERS = Number(process.env['BENCH_WORKERS'] ?? 1);

const readJsonl = <T>(file: string): T[] =>
  readFileSync(path.join(DATA, file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);

const ws = new Workspace('kbctx-bench-server-');
const corpus = readJsonl<{ _id: string; title: string; text: string }>('corpus.jsonl').slice(0, MAX_DOCS);
for (const d of corpus) ws.write(`docs/${d._id}.md`, `# ${d.title}\n\n${d.text}\n`);
ws.config(
  `[connectors.filesystem.scifact]\nroot = "docs"\n[server]\nbind = "127.0.0.1:0"\nworkers = ${WORKERS}\n` +
    `[retrieval]\ncache_size = 0\n`,
);
ws.write(
  'cached.toml',
  '[connectors.filesystem.scifact]\nroot = "docs"\n[server]\nbind = "127.0.0.1:0"\n[retrieval]\ncache_size = 256\n',
);
const sync = await runKbctx(['sync', 'all'], { cwd: ws.dir });
if (sync.code !== 0) throw new Error(sync.stderr);
console.log(`indexed ${corpus.length} SciFact documents`);

function startServer(config: string): { server: ReturnType<typeof spawn>; base: Promise<string> } {
  const server = spawn(process.execPath, [KBCTX_BIN, '-c', config, 'serve', 'mcp'], {
    cwd: ws.dir,
    env: { ...process.env, KBCTX_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = new Promise<string>((resolve) => {
    let out = '';
    server.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /Listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
  });
  return { server, base };
}
const started = startServer('config/kbctx.toml');
const base = await started.base;

// All 809 train claims, rotating: the cache is off anyway, and they are real agent-length questions.
const queries = readJsonl<{ text: string }>('train-queries.jsonl').map((q) => q.text);
const json = { 'content-type': 'application/json' };
const mcpHeaders = { ...json, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const modernHeaders = {
  ...json,
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'search',
};
const call = (query: string, meta?: object): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'search', arguments: { query }, ...(meta ? { _meta: meta } : {}) },
  });

/** Uncached REST search load on each base at once (the connections split between them, as a load
 * balancer would); one line: total req/s, then p50 and p99 per base. */
async function searchLoad(bases: string[], qs: readonly string[] = queries): Promise<string> {
  const results = await Promise.all(
    bases.map((b) =>
      autocannon({
        url: b,
        connections: CONNECTIONS / bases.length,
        duration: SECONDS,
        requests: qs.map((q) => ({
          method: 'POST' as const,
          path: '/tools/search',
          headers: json,
          body: JSON.stringify({ query: q }),
        })),
      }),
    ),
  );
  const rps = results.reduce((n, r) => n + r.requests.average, 0);
  const errors = results.reduce((n, r) => n + r.errors + r.non2xx + r.timeouts, 0);
  const total = results.reduce((n, r) => n + r.requests.total, 0);
  return (
    `${rps.toFixed(0).padStart(6)} req/s  p50 ${results.map((r) => r.latency.p50).join('/')} ms  p99 ` +
    `${results.map((r) => r.latency.p99).join('/')} ms  (${total} requests, ${errors} errors)`
  );
}

async function stopServer(run: { server: ReturnType<typeof spawn> }): Promise<void> {
  run.server.kill('SIGTERM');
  await new Promise((resolve) => run.server.on('exit', resolve));
}

const firstHit = (await (
  await fetch(`${base}/tools/search`, { method: 'POST', headers: json, body: JSON.stringify({ query: queries[0] }) })
).json()) as { results: { id: string }[] };
const firstId = firstHit.results[0]!.id;

const scenarios = [
  {
    name: 'REST POST /tools/search',
    path: '/tools/search',
    headers: json,
    body: (q: string) => JSON.stringify({ query: q }),
  },
  { name: 'MCP tools/call search (2025, stateless)', path: '/mcp', headers: mcpHeaders, body: (q: string) => call(q) },
  {
    name: 'MCP tools/call search (2026-07-28)',
    path: '/mcp',
    headers: modernHeaders,
    body: (q: string) => call(q, envelope),
  },
  // Surface ceilings: the same paths without a search, to separate HTTP/MCP overhead from search cost.
  {
    name: 'REST POST /tools/get (no search)',
    path: '/tools/get',
    headers: json,
    body: () => JSON.stringify({ id: firstId }),
  },
  {
    name: 'MCP tools/list (2025, no search)',
    path: '/mcp',
    headers: mcpHeaders,
    body: () => '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}',
  },
];

// One sanity request per scenario so a broken endpoint shows instead of a fast stream of errors.
for (const s of scenarios) {
  const res = await fetch(base + s.path, { method: 'POST', headers: s.headers, body: s.body(queries[0]!) });
  const text = await res.text();
  if (res.status !== 200 || text.includes('"error"')) throw new Error(`${s.name}: ${res.status} ${text.slice(0, 300)}`);
}

console.log(
  `autocannon: ${CONNECTIONS} connections, ${SECONDS} s each, ${queries.length} rotating queries, ${WORKERS} ` +
    `server process(es), search cache off`,
);
for (const s of scenarios) {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: queries.map((q) => ({ method: 'POST' as const, path: s.path, headers: s.headers, body: s.body(q) })),
  });
  const errors = result.errors + result.non2xx + result.timeouts;
  console.log(
    `${s.name.padEnd(42)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  ` +
      `p99 ${result.latency.p99} ms  (${result.requests.total} requests, ${errors} errors)`,
  );
}

await stopServer(started);

// Cache on: 50 distinct queries repeated, as agents re-asking the same questions.
const cachedServer = startServer('cached.toml');
const cachedBase = await cachedServer.base;
console.log(
  `${'REST POST /tools/search (cache on, 50 repeated)'.padEnd(42)} ` +
    `${await searchLoad([cachedBase], queries.slice(0, 50))}`,
);
await stopServer(cachedServer);

// Keyword engines side by side (ADR 0100): uncached REST search, 1 and 2 server processes, same index.
console.log('REST POST /tools/search, cache off, by keyword engine and server processes:');
for (const workers of [1, 2]) {
  for (const engine of ['postings', 'fts5']) {
    const name = `engine-${engine}-${workers}.toml`;
    ws.write(
      name,
      `[db]\nkeyword_engine = "${engine}"\n[connectors.filesystem.scifact]\nroot = "docs"\n[server]\nbind = ` +
        `"127.0.0.1:0"\nworkers = ${workers}\n[retrieval]\ncache_size = 0\n`,
    );
    const run = startServer(name);
    console.log(`  ${engine.padEnd(8)} ${workers} worker(s) ${await searchLoad([await run.base])}`);
    await stopServer(run);
  }
}
// PostgreSQL (issue 16, ADR 0111) beside SQLite, same index, same run: in-process keyword p50, then
// uncached REST search with 1 and 2 replicas (2 replicas: two `kbctx serve` processes, each with its
// own mirror, the connections split between them as a load balancer would). A real PostgreSQL server
// is started in a temp dir (test/helpers/postgres.ts).
console.log('PostgreSQL beside SQLite (uncached):');
const pgServer = await startPostgres();
try {
  const url = await pgServer.createDatabase();
  // Each replica's mirror in its own folder, as on separate hosts.
  const replicaToml = (mirror: string, extra = ''): string =>
    `[db]\npath = "${mirror}/kbctx.sqlite"\nurl = "${url}"\n[connectors.filesystem.scifact]\nroot = "docs"\n` +
    `[server]\nbind = "127.0.0.1:0"\n[retrieval]\ncache_size = 0\n${extra}`;
  ws.write('pg.toml', replicaToml('pg-a'));
  ws.write('pg-b.toml', replicaToml('pg-b', '[sync]\ninterval = "off"\n'));
  const pgSyncStarted = performance.now();
  const pgSync = await runKbctx(['-c', 'pg.toml', 'sync', 'all'], { cwd: ws.dir });
  if (pgSync.code !== 0) throw new Error(pgSync.stderr);
  console.log(
    `  index into PostgreSQL (kbctx sync all, new database): ${(performance.now() - pgSyncStarted).toFixed(0)} ms`,
  );

  // In-process keyword search, the same 809 queries through the search use-case.
  const keywordParams = (retrieval: Config['retrieval']) =>
    queries.map((q) => parseSearchParams({ query: q, mode: 'keyword' }, retrieval));
  for (const [label, file] of [
    ['SQLite    ', 'config/kbctx.toml'],
    ['PostgreSQL', 'pg.toml'],
  ] as const) {
    const config = loadConfig({ configPath: ws.path(file), cwd: ws.dir, env: { ...process.env, KBCTX_CONFIG: '' } });
    const kbctx = openKbctx(config);
    const { p50s, p95s } = await timeSearches(kbctx.index.searchDeps(), keywordParams(config.retrieval), 3);
    await kbctx.close();
    console.log(
      `  keyword search in-process, ${label}  p50 ${fmtMs(median(p50s))} ms  p95 ${fmtMs(median(p95s))} ms  (p50 ` +
        `runs: ${p50s.map(fmtMs).join(', ')})`,
    );
  }

  const sqliteRun = startServer('config/kbctx.toml');
  console.log(`  REST search, SQLite,     1 process   ${await searchLoad([await sqliteRun.base])}`);
  await stopServer(sqliteRun);
  // `kbctx serve` catches its mirror up before it listens: a base is ready to search once printed.
  const replicaA = startServer('pg.toml');
  const baseA = await replicaA.base;
  console.log(`  REST search, PostgreSQL, 1 replica   ${await searchLoad([baseA])}`);
  const replicaB = startServer('pg-b.toml');
  console.log(`  REST search, PostgreSQL, 2 replicas  ${await searchLoad([baseA, await replicaB.base])}`);
  await stopServer(replicaA);
  await stopServer(replicaB);
} finally {
  await pgServer.stop();
}
ws.cleanup();
