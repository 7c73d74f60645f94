// `npm run bench:scripts`: the Lua runtime under load. Numbers are printed, never asserted.
// 1. Per-call overhead of a trivial script tool through ToolRegistry.call (validation, worker
//    round trip, fresh Lua state, script load, JSON back): p50/p95 over sequential calls.
// 2. A storm: 50 parallel calls of a runaway tool (`while true do end`, timeout 1 s) while an HTTP
//    server on 127.0.0.1 keeps answering /health and /search (the real search use-case): prints
//    /health and /search p50/p99 before and during the storm, and each runaway call's time-out accuracy.
// The HTTP server here is a minimal stand-in on the same main thread as Lore (what matters is that
// the main thread stays free); swap in the REST surface once it is merged.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig } from '../src/config/load-config.ts';
import { openLore } from '../src/compose.ts';
import { selectConnectors } from '../src/app/select-connectors.ts';
import { syncConnectors } from '../src/app/sync.ts';
import { parseSearchParams } from '../src/app/search-params.ts';
import { search } from '../src/app/search.ts';
import { fmtMs, percentile } from './stats.ts';

const CALLS = Number(process.env['BENCH_CALLS'] ?? 300);
const STORM = 50;
const TIMEOUT_SECS = 1;

const dir = mkdtempSync(path.join(tmpdir(), 'lore-scripts-bench-'));
mkdirSync(path.join(dir, 'docs'));
mkdirSync(path.join(dir, 'tools'));
const words = ['deploy', 'rotate', 'keys', 'login', 'cache', 'queue', 'retry', 'schema', 'index', 'backup'];
for (let i = 0; i < 300; i++) {
  writeFileSync(path.join(dir, 'docs', `d${i}.md`), `# Note ${i}\n\n${Array.from({ length: 80 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ')}\n`);
}
writeFileSync(path.join(dir, 'tools', 'trivial.lua'), 'tool = { parameters = { { name = "x", type = "integer", default = 1 } } }\nfunction tool.execute(p) return { x = p.x } end\n');
writeFileSync(path.join(dir, 'tools', 'runaway.lua'), 'tool = { parameters = {} }\nfunction tool.execute() while true do end end\n');
const lore = openLore(
  parseConfig(
    `[db]\npath = "index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n[tools.script.trivial]\npath = "tools/trivial.lua"\n[tools.script.runaway]\npath = "tools/runaway.lua"\ntimeout = ${TIMEOUT_SECS}\n`,
    { file: 'bench.toml', cwd: dir, env: {} },
  ),
);

try {
  await syncConnectors(lore.syncDeps(), selectConnectors(lore.config, 'all').map((r) => lore.createConnector(r)), { full: false });
  const failures = await lore.loadScripts();
  if (failures.length > 0) throw new Error(failures.map((f) => f.message).join('; '));
  const tools = lore.tools();

  // 1. Per-call overhead.
  for (let i = 0; i < 30; i++) await tools.call('trivial', { x: i });
  const perCall: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await tools.call('trivial', { x: i });
    perCall.push(performance.now() - started);
  }
  console.log(`trivial script tool, ToolRegistry.call, ${CALLS} sequential calls: p50 ${fmtMs(percentile(perCall, 50))} ms, p95 ${fmtMs(percentile(perCall, 95))} ms`);

  // 2. The storm, with /health and /search answered by the main thread throughout.
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/health') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
    const params = parseSearchParams({ query: url.searchParams.get('q') ?? 'deploy keys' }, lore.config.retrieval);
    search(lore.searchDeps(), params).then(
      (r) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ results: r.results.length })),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = async (pathName: string, until: () => boolean, every: number): Promise<number[]> => {
    const out: number[] = [];
    while (!until()) {
      const started = performance.now();
      await (await fetch(`${base}${pathName}`)).text();
      out.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, every));
    }
    return out;
  };
  const timed = async (ms: number): Promise<{ health: number[]; search: number[] }> => {
    const end = performance.now() + ms;
    const [health, searchTimes] = await Promise.all([probe('/health', () => performance.now() > end, 5), probe('/search?q=rotate+keys', () => performance.now() > end, 10)]);
    return { health, search: searchTimes };
  };
  const quiet = await timed(1500);

  let done = false;
  const stormStarted = performance.now();
  const storm = Promise.all(
    Array.from({ length: STORM }, async () => {
      const started = performance.now();
      try {
        await tools.call('runaway', {});
        return { ms: performance.now() - started, code: 'ok' };
      } catch (error) {
        return { ms: performance.now() - started, code: (error as { code?: string }).code ?? 'error' };
      }
    }),
  ).finally(() => (done = true));
  const [results, health, searchTimes] = await Promise.all([storm, probe('/health', () => done, 5), probe('/search?q=rotate+keys', () => done, 10)]);
  const stormMs = performance.now() - stormStarted;
  server.close();

  const line = (name: string, v: number[]): string => `${name}: n=${v.length} p50 ${fmtMs(percentile(v, 50))} ms, p99 ${fmtMs(percentile(v, 99))} ms, max ${fmtMs(Math.max(...v))} ms`;
  console.log(line('/health before the storm', quiet.health));
  console.log(line('/search before the storm', quiet.search));
  console.log(line(`/health during ${STORM} runaway calls`, health));
  console.log(line(`/search during ${STORM} runaway calls`, searchTimes));
  const errors = results.map((r) => (r.ms / 1000 - TIMEOUT_SECS) / TIMEOUT_SECS);
  const codes = [...new Set(results.map((r) => r.code))].join(',');
  console.log(
    `runaway calls: ${results.length} answered (${codes}) in ${fmtMs(stormMs)} ms; time-out ${TIMEOUT_SECS} s, answered at ` +
      `median ${fmtMs(percentile(results.map((r) => r.ms), 50))} ms, max ${fmtMs(Math.max(...results.map((r) => r.ms)))} ms ` +
      `(error: median ${(percentile(errors, 50) * 100).toFixed(1)} %, worst ${(Math.max(...errors.map(Math.abs)) * 100).toFixed(1)} %)`,
  );
  await tools.call('trivial', {});
  console.log(`after the storm: trivial call ok, ${lore.scripts().runtime.workers} worker thread(s) live`);
} finally {
  lore.close();
  rmSync(dir, { recursive: true, force: true });
}
